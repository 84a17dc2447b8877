import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { pagerDutyReceiver } from '../support/alert-receivers.js';
import { createProject } from '../support/flows.js';
import { api, type RunningService, startService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { ALERT_ENV, createDestination, createRule, demoDatastream, runAndEvaluate } from '../alerts/support.js';

const P = 'proj_triage_pd';

/**
 * A real run pages a loopback PagerDuty-shaped receiver; resolving the paged anomaly by triage
 * sends `resolve` with the trigger's dedup key, once, however often it is closed again.
 */
describe.each(STORES)('triage resolves the PagerDuty incident of a paged anomaly [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  const pagerduty = pagerDutyReceiver();
  const patch = (id: string, json: unknown) => api(`${service.url}/api/anomalies/${id}`, { method: 'PATCH', json });

  beforeAll(async () => {
    await pagerduty.start();
    service = await startService(store, { clock, env: ALERT_ENV });
    await createProject(service, P, 'USD', 'UTC');
    const ds = await demoDatastream(service, P, '2026-04-01');
    const pd = await createDestination(service, {
      project_id: P,
      name: 'PagerDuty',
      kind: 'pagerduty',
      config: { events_url: pagerduty.url },
      secrets: { routing_key: 'R0UT1NGKEY0000000000000000000000' },
    });
    await createRule(service, { project_id: P, name: 'Page on anomalies', on: ['anomaly'], destinations: [pd.id] });
    await runAndEvaluate(service, P, ds);
  });
  afterAll(async () => {
    await service?.close();
    await pagerduty.close();
  });

  it('acknowledging pages nobody; resolving sends resolve with the dedup key, once', async () => {
    const [trigger] = await pagerduty.received(1);
    expect(trigger!.problems).toEqual([]);
    const key = (trigger!.json as { event_action: string; dedup_key: string }).dedup_key;
    expect(key).toMatch(/^anom_/);
    // Another anomaly of the run, never paged under its own key: closing it sends nothing.
    const list = await api(`${service.url}/api/anomalies?project_id=${P}&since=2026-04-01`);
    const other = (list.body.anomalies as { id: string }[]).find((a) => a.id !== key)!;
    expect((await patch(other.id, { status: 'false_positive' })).body.pagerduty_resolves).toBe(0);

    const ack = await patch(key, { status: 'acknowledged' });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(ack.body.pagerduty_resolves).toBe(0);
    const resolved = await patch(key, { status: 'resolved' });
    expect(resolved.body).toMatchObject({ status: 'resolved', pagerduty_resolves: 1 });
    const [, resolve] = await pagerduty.received(2);
    expect(resolve!.problems).toEqual([]);
    expect(resolve!.json).toEqual({
      routing_key: 'R0UT1NGKEY0000000000000000000000',
      event_action: 'resolve',
      dedup_key: key,
    });
    // Reopened and closed again: the incident is already resolved, nothing more is sent.
    expect((await patch(key, { status: 'open' })).status).toBe(200);
    expect((await patch(key, { status: 'expected' })).body.pagerduty_resolves).toBe(0);
    await service.app.services.alerts.sweep(new Date(clock.now().getTime() + 60_000));
    expect(pagerduty.hits).toHaveLength(2);
  });
});
