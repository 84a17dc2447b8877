import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { DEMO_INCIDENTS, addDays } from '../../src/modules/providers/index.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun } from '../support/flows.js';

// On the demo project the four seeded incidents still fire (the first rule misses the video
// revenue drop) and the anomalies of the last 30 days drop: most of what the
// previous rule fired there are the incidents' own echoes (ratios and the total), which the new
// default reports as explained by the incident (docs/api.md, "Defaults and why").

/**
 * The first rule (mean, no seasonality, 28 days, threshold 3), through the same evaluator (docs/api.md,
 * "Reproducing other rules").
 */
const PREVIOUS_RULE = {
  baseline: 'mean',
  seasonality: 'none',
  window_days: 28,
  threshold: 3,
  exclude_anomalies: false,
  level_shifts: false,
  precedent_days: 0,
  explain_related: false,
  metrics: { roas: { min_volume: 0 }, cpa: { min_volume: 0 }, ctr: { min_volume: 0 }, cvr: { min_volume: 0 } },
};

describe.each(STORES)('the demo project under the new rule [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-04-13T15:00:00Z');
  const today = '2026-04-13';
  const since = addDays(today, -30);

  beforeAll(async () => {
    service = await startService(store, { clock });
    await service.app.services.demo.run(service.app.systemContext());
    const runs = await api(`${service.url}/api/flows/runs?project_id=proj_demo`);
    expect((await awaitRun(service, 'proj_demo', runs.body.runs[0].id)).status).toBe('succeeded');
  });
  afterAll(async () => service?.close());

  const measure = async () => {
    const list = await api(`${service.url}/api/anomalies?project_id=proj_demo&since=${since}&limit=500`);
    expect(list.status).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    const days = await service.app.db.query<{ n: number }>(
      "SELECT count(*) AS n FROM anomalies_daily WHERE project_id = 'proj_demo' AND fired AND date >= $1",
      [since],
    );
    return { anomalies: list.body.anomalies as any[], firedDays: Number(days[0]!.n) };
  };
  const incidentsFound = (anomalies: any[]) =>
    DEMO_INCIDENTS.map((incident) => {
      const day = addDays(today, -incident.daysAgo);
      return anomalies.some(
        (a) =>
          a.metric === incident.metric &&
          a.channel === incident.channel &&
          a.first_date <= day &&
          day <= a.last_date &&
          a.direction === (incident.factor > 1 ? 'spike' : 'drop'),
      );
    });

  it('fires the four incidents; prints the fired counts against the previous rule', async () => {
    const now = await measure();
    expect(incidentsFound(now.anomalies)).toEqual([true, true, true, true]);
    const put = await api(`${service.url}/api/anomalies/settings?project_id=proj_demo`, {
      method: 'PUT',
      json: PREVIOUS_RULE,
    });
    expect(put.status).toBe(200);
    expect((await api(`${service.url}/api/anomalies/evaluate?project_id=proj_demo`, { method: 'POST' })).status).toBe(
      200,
    );
    const before = await measure();
    // (The previous rule misses one of them: the video revenue drop, inside a noisy week.)
    const missedBefore = incidentsFound(before.anomalies).filter((found) => !found).length;
    expect(missedBefore).toBe(1);
    expect(now.anomalies.length).toBeLessThan(before.anomalies.length);
    expect(now.firedDays).toBeLessThan(before.firedDays);
    process.stdout.write(
      `demo, last 30 days [${store}]: previous rule ${before.firedDays} fired days / ${before.anomalies.length} anomalies; ` +
        `new default ${now.firedDays} fired days / ${now.anomalies.length} anomalies; incidents missed before ${missedBefore}\n`,
    );
  });
});
