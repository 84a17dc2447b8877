import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { WebhookReceiver } from '../support/alert-receivers.js';
import { createProject } from '../support/flows.js';
import { api, type RunningService, startService } from '../support/service.js';
import { until } from '../support/scratch-database.js';
import { STORES } from '../support/stores.js';
import { ALERT_ENV, createDestination, createRule, deliveries, demoDatastream, runAndEvaluate } from './support.js';

const P = 'proj_rules';

/** Filters, mutes and quiet hours on a real run, in a project whose day is Berlin's. */
describe.each(STORES)('alerts: filters, mutes and quiet hours [%s]', (store) => {
  let service: RunningService;
  // 14:00 in Berlin.
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  const quiet = new WebhookReceiver();
  const filtered = new WebhookReceiver();
  const muted = new WebhookReceiver();
  const everything = new WebhookReceiver();
  const rule: Record<string, string> = {};
  let dsId: string;

  beforeAll(async () => {
    await Promise.all([quiet, filtered, muted, everything].map((r) => r.start()));
    service = await startService(store, { clock, env: ALERT_ENV });
    await createProject(service, P, 'EUR', 'Europe/Berlin');
    dsId = await demoDatastream(service, P, '2026-04-10');
    const dest = async (name: string, receiver: WebhookReceiver) => {
      const d = await createDestination(service, {
        project_id: P,
        name,
        kind: 'webhook',
        secrets: { url: receiver.url },
      });
      receiver.secret = d.signing_secret!;
      return d.id;
    };
    rule.quiet = (
      await createRule(service, {
        project_id: P,
        name: 'Quiet',
        on: ['anomaly'],
        destinations: [await dest('quiet', quiet)],
        quiet_hours: { from: '13:00', to: '15:00' },
      })
    ).id;
    rule.filtered = (
      await createRule(service, {
        project_id: P,
        name: 'Spend spikes by channel',
        on: ['anomaly'],
        filters: { metrics: ['spend', 'roas'], direction: 'spike', include_totals: false, min_abs_z: 3 },
        destinations: [await dest('filtered', filtered)],
      })
    ).id;
    rule.muted = (
      await createRule(service, {
        project_id: P,
        name: 'Muted',
        on: ['anomaly'],
        destinations: [await dest('muted', muted)],
      })
    ).id;
    rule.everything = (
      await createRule(service, {
        project_id: P,
        name: 'All',
        on: ['anomaly'],
        destinations: [await dest('all', everything)],
      })
    ).id;
    const mute = async (body: Record<string, unknown>) => {
      const res = await api(`${service.url}/api/alerts/mutes`, { method: 'POST', json: { project_id: P, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const active = await mute({ metric: 'spend', until: '2026-05-20', rule_id: rule.muted, reason: 'budget test' });
    expect(active).toMatchObject({ active: true, metric: 'spend', channel: null, rule_id: rule.muted });
    // Ended yesterday (Berlin): silences nothing.
    expect(await mute({ channel: 'paid_search', until: '2026-05-17' })).toMatchObject({ active: false });
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([quiet, filtered, muted, everything].map((r) => r.close()));
  });

  it('each rule gets the items its filters and mutes leave, and quiet hours hold its message', async () => {
    await runAndEvaluate(service, P, dsId);
    const [all] = await everything.received(1);
    const items = (all!.json as any).data.items as any[];
    expect(items.some((i) => i.metric === 'spend')).toBe(true);

    const [f] = await filtered.received(1);
    const kept = (f!.json as any).data.items as any[];
    expect(kept.length).toBeGreaterThan(0);
    for (const i of kept) {
      expect(['spend', 'roas']).toContain(i.metric);
      expect(i).toMatchObject({ direction: 'spike' });
      expect(i.channel).not.toBe('_total');
      expect(Math.abs(i.z)).toBeGreaterThanOrEqual(3);
    }

    const [m] = await muted.received(1);
    const heard = (m!.json as any).data.items as any[];
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.filter((i) => i.metric === 'spend')).toEqual([]);
    const evaluation = await service.app.db.query<{ muted: number }>(
      `SELECT muted FROM alert_evaluations WHERE project_id = $1 AND messages > 0`,
      [P],
    );
    expect(Number(evaluation[0]!.muted)).toBeGreaterThan(0);

    // 14:00 in Berlin is inside 13:00–15:00: held until 15:00 Berlin (13:00 UTC), not sent, not dropped.
    const [held] = await deliveries(service, P, { rule_id: rule.quiet });
    expect(held).toMatchObject({ status: 'held', attempt_count: 0 });
    expect((held as any).deliver_after).toBe('2026-05-18T13:00:00.000Z');
    expect(quiet.hits).toEqual([]);
  });

  it('the scheduler tick releases a held message when the quiet hours end', async () => {
    const plan = service.app.services.evaluators.plan;
    const early = await plan.tick(clock.now());
    expect(early.sweeps.alerts).toMatchObject({ released: 0 });
    clock.set('2026-05-18T13:00:30Z');
    const tick = await plan.tick(clock.now());
    expect(tick.sweeps.alerts).toMatchObject({ released: 1 });
    const [hit] = await quiet.received(1);
    expect(hit!.problems).toEqual([]);
    const [d] = await until(
      () => deliveries(service, P, { rule_id: rule.quiet }),
      ([x]) => x?.status === 'delivered',
    );
    expect(d!.attempt_count).toBe(1);
    // A later run inside no quiet hours goes at once; nothing new to say, so nothing is sent.
    await runAndEvaluate(service, P, dsId);
    await plan.tick(clock.now());
    expect(quiet.hits).toHaveLength(1);
  });

  it('rules and mutes are read, changed and removed through the API; bad references are named', async () => {
    const list = await api(`${service.url}/api/alerts/rules?project_id=${P}`);
    expect(list.body.rules.map((r: any) => r.name)).toEqual(['All', 'Muted', 'Quiet', 'Spend spikes by channel']);
    const quietRule = list.body.rules.find((r: any) => r.name === 'Quiet');
    expect(quietRule).toMatchObject({
      on: ['anomaly'],
      quiet_hours: { from: '13:00', to: '15:00' },
      filters: { direction: 'both', include_totals: true },
      destinations: [expect.objectContaining({ name: 'quiet', kind: 'webhook' })],
      enabled: true,
    });
    const patched = await api(`${service.url}/api/alerts/rules/${rule.quiet}`, {
      method: 'PATCH',
      json: { quiet_hours: null, enabled: false },
    });
    expect(patched.body).toMatchObject({ quiet_hours: null, enabled: false });
    const bad = await api(`${service.url}/api/alerts/rules`, {
      method: 'POST',
      json: {
        project_id: P,
        name: 'Bad',
        on: ['anomaly', 'weather'],
        destinations: ['dest_nope'],
        quiet_hours: { from: '25:00', to: '07:00' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['body.on.1', 'body.quiet_hours.from']);
    const missing = await api(`${service.url}/api/alerts/rules`, {
      method: 'POST',
      json: { project_id: P, name: 'Bad', on: ['anomaly'], destinations: ['dest_nope'] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ path: 'body.destinations.0', message: `no destination dest_nope in ${P}` }]);
    const dup = await api(`${service.url}/api/alerts/rules`, {
      method: 'POST',
      json: { project_id: P, name: 'All', on: ['anomaly'], destinations: quietRule.destinations.map((d: any) => d.id) },
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 'name_taken' } });

    const mutes = await api(`${service.url}/api/alerts/mutes?project_id=${P}`);
    expect(mutes.body.mutes.map((m: any) => [m.until, m.active])).toEqual([
      ['2026-05-20', true],
      ['2026-05-17', false],
    ]);
    const id = mutes.body.mutes[0].id;
    expect(
      (await api(`${service.url}/api/alerts/mutes/${id}`, { method: 'PATCH', json: { until: '2026-05-10' } })).body,
    ).toMatchObject({
      active: false,
    });
    const noTarget = await api(`${service.url}/api/alerts/mutes`, {
      method: 'POST',
      json: { project_id: P, until: '2026-06-01' },
    });
    expect(noTarget.status).toBe(400);
    expect((await api(`${service.url}/api/alerts/mutes/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`${service.url}/api/alerts/rules/${rule.quiet}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`${service.url}/api/alerts/rules/${rule.quiet}`)).status).toBe(404);
    // The log keeps what the rule sent.
    expect((await deliveries(service, P)).some((d) => d.rule.name === 'Quiet')).toBe(true);
    const audit = await service.app.db.query<{ action: string }>(
      `SELECT DISTINCT action FROM audit_log WHERE action LIKE 'alert.%' ORDER BY action`,
    );
    expect(audit.map((a) => a.action)).toEqual([
      'alert.destination.create',
      'alert.mute.create',
      'alert.mute.delete',
      'alert.mute.update',
      'alert.rule.create',
      'alert.rule.delete',
      'alert.rule.update',
    ]);
  });
});
