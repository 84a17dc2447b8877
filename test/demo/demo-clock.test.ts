import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TIMEZONE } from '../../src/modules/demo/index.js';
import { addDays, todayIn } from '../../src/platform/calendar.js';
import { ManualClock } from '../../src/platform/clock.js';
import { api, type RunningService, startService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';

/**
 * A suite that passes its own clock gets the demo generated relative to it: its backfill ends on
 * that clock's day and the default windows of the reads hold its anomalies, whatever day the
 * suite runs on (New York's spring-forward day here).
 */
describe.each(STORES)('the demo follows the suite’s clock [%s]', (store) => {
  const clock = new ManualClock('2027-03-14T15:00:00Z');
  const today = todayIn(clock, DEMO_TIMEZONE);
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(store, { demo: true, clock });
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  it('its data ends on the clock’s day and the last 30 days hold anomalies', async () => {
    const insight = (await api(`${service.url}/api/insights?project_id=${P}&limit=1`)).body.insights[0];
    expect([today, addDays(today, -1)]).toContain(insight.date);
    const recent = (await api(`${service.url}/api/anomalies?project_id=${P}`)).body;
    expect(recent.since).toBe(addDays(today, -30));
    expect(recent.anomalies.length).toBeGreaterThan(0);
    for (const a of recent.anomalies) expect(a.last_date <= today && a.last_date >= recent.since).toBe(true);
  });
});
