import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject } from '../support/flows.js';
import { days, writeKpis, type KpiPoint } from '../support/kpis.js';

const R = 'proj_mix';
const D = 'proj_explain_demo';
const BASE = days('2026-03-01', 20);
const X = '2026-03-21';

/** A, B every day; on X, A's rate halves, B triples its spend at the same rate and C appears. */
const mixPoints: KpiPoint[] = [
  ...BASE.flatMap((date) => [
    { date, channel: 'A', spend: 100, revenue: 300 },
    { date, channel: 'B', spend: 100, revenue: 100 },
  ]),
  { date: X, channel: 'A', spend: 100, revenue: 150 },
  { date: X, channel: 'B', spend: 300, revenue: 300 },
  { date: X, channel: 'C', spend: 100, revenue: 50 },
];

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-9 * Math.max(1, Math.abs(b)));

describe.each(STORES)('explain an anomaly [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  const explain = (
    project: string,
    q: Parameters<RunningService['app']['services']['evaluators']['explain']['explainSeries']>[2],
  ) => service.app.services.evaluators.explain.explainSeries(service.app.systemContext(), project, q);

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, R);
    await writeKpis(service, R, mixPoints);
    const skills = [
      { name: 'roas-drop', description: 'Why ROAS fell', body_md: '1. Compare [[kpi.roas]] by channel.' },
      { name: 'spend-pacing', description: 'Pacing', body_md: '1. Check [[kpi.spend]] against plan.' },
    ];
    for (const skill of skills)
      expect(
        (await api(`${service.url}/api/skills`, { method: 'POST', json: { project_id: R, ...skill } })).status,
      ).toBe(201);
    const ev = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      json: { project_id: R, event_type: 'promotion', title: 'Channel B push', event_date: X, impact_window_days: 0 },
    });
    expect(ev.status).toBe(201);
    await createProject(service, D, 'USD', 'UTC');
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: D, provider: 'demo', connection_ref_id: 'demo-x', config: { campaigns: 10, seed: 7 } },
    });
    expect(conn.status).toBe(200);
    const up = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: D,
        kind: 'datastream',
        definition: {
          name: 'Main',
          connection_ref_id: 'demo-x',
          provider: 'demo',
          cadence: 'daily',
          retrieval_window: { lookback_days: 7, start_date: '2026-03-01' },
        },
      },
    });
    expect(up.status).toBe(200);
    const queued = await api(`${service.url}/api/flows/${up.body.datastream.id}/run`, { method: 'POST' });
    expect((await awaitRun(service, D, queued.body.id)).status).toBe('succeeded');
  });
  afterAll(async () => service?.close());

  it('splits a ratio KPI into rate and mix effects per channel that sum to the observed change', async () => {
    const e = await explain(R, {
      metric: 'roas',
      channel: '_total',
      first_date: X,
      last_date: X,
      baseline: { from: BASE[0]!, to: BASE.at(-1)!, seasonality: 'none' },
    });
    // By hand: R_base = 400/200 = 2, R_cur = 500/500 = 1.
    const d = e.decomposition;
    expect(d).toMatchObject({ method: 'rate_mix', breakdown: 'channel', numerator: 'revenue', denominator: 'spend' });
    close(d.baseline_value!, 2);
    close(d.current_value!, 1);
    close(d.change!, -1);
    close(sum(d.parts.map((p) => p.change)), -1);
    close(d.rate_effect! + d.mix_effect!, -1);
    const by = Object.fromEntries(d.parts.map((p) => [p.key, p]));
    // A: weight 0.5 → 0.2, rate 3 → 1.5: mix (−0.3)(2.25), rate (−1.5)(0.7)/2.
    close(by.A!.mix_effect!, -0.675);
    close(by.A!.rate_effect!, -0.525);
    // B: same rate, share 0.5 → 0.6: all mix. C: new (no baseline rate), all mix at its own rate.
    close(by.B!.mix_effect!, 0.1);
    close(by.B!.rate_effect!, 0);
    close(by.C!.mix_effect!, 0.1);
    close(by.C!.rate_effect!, 0);
    expect(by.C).toMatchObject({ baseline: null, baseline_weight: 0 });
    for (const p of d.parts) close(p.rate_effect! + p.mix_effect!, p.change);
    expect(d.parts[0]!.key).toBe('A');
    expect(d.parts.map((p) => p.key).sort()).toEqual(['A', 'B', 'C']);
    expect(e.periods).toMatchObject({
      current: { from: X, to: X, days: 1, days_with_data: 1 },
      baseline: { days: 20, days_with_data: 20, excluded_fired_days: 0 },
    });
    // The Skills whose business keys name the metric, the events of the day; no run wrote it.
    expect(e.skills.keys).toEqual(['kpi.roas']);
    expect(e.skills.matches).toEqual([
      {
        name: 'roas-drop',
        description: 'Why ROAS fell',
        version: 1,
        keys: ['kpi.roas'],
        next: { tool: 'get_procedure', arguments: { name: 'roas-drop' } },
      },
    ]);
    expect(e.context_events.map((x) => x.title)).toEqual(['Channel B push']);
    expect(e.data_quality).toEqual({
      verdict: 'no_checks',
      counts: { pass: 0, warn: 0, fail: 0, error: 0 },
      checks: [],
    });
  });

  it('splits an additive metric into each channel’s change of the daily mean', async () => {
    const e = await explain(R, {
      metric: 'spend',
      channel: '_total',
      first_date: X,
      last_date: X,
      baseline: { from: BASE[0]!, to: BASE.at(-1)!, seasonality: 'none' },
    });
    const d = e.decomposition;
    expect(d.method).toBe('additive');
    close(d.change!, 300);
    expect(d.parts.map((p) => [p.key, p.change, p.share_of_change])).toEqual([
      ['B', 200, 2 / 3],
      ['C', 100, 1 / 3],
      ['A', 0, 0],
    ]);
  });

  it('explains a fired channel anomaly by its campaigns, against the baseline the detector used', async () => {
    const list = await api(`${service.url}/api/anomalies?project_id=${D}&metric=spend&channel=paid_search`);
    const a = (list.body.anomalies as any[]).find((x) => x.date === '2026-05-15');
    expect(a).toBeDefined();
    const e = await explain(D, { metric: 'spend', channel: 'paid_search', first_date: a.date, last_date: a.date });
    // The observed change, from the series itself: the day's value minus the plain mean of the
    // detector's window without the series' fired days.
    const series = await api(
      `${service.url}/api/anomalies/series?project_id=${D}&metric=spend&channel=paid_search&from=${a.window.from}&to=${a.date}`,
    );
    const base = (series.body.points as any[]).filter((p) => p.date <= a.window.to && !p.fired);
    const expected = a.value - sum(base.map((p) => p.value)) / base.length;
    const d = e.decomposition;
    expect(d).toMatchObject({ method: 'additive', breakdown: 'campaign' });
    close(d.change!, expected);
    close(sum(d.parts.map((p) => p.change)), expected);
    expect(d.parts.length).toBeGreaterThan(1);
    expect(d.parts.every((p) => !['paid_search', '_total'].includes(p.key))).toBe(true);
    expect(e.anomaly).toMatchObject({ value: a.value, z: a.z, direction: 'spike', peak_date: a.date });
    expect(e.periods.baseline).toMatchObject({ from: a.window.from, to: a.window.to, days: base.length });
    // The run that wrote the day was checked: its checks are listed with the run's window.
    expect(e.data_quality.checks.length).toBeGreaterThanOrEqual(6);
    const c = e.data_quality.counts;
    expect(c.pass + c.warn + c.fail + c.error).toBe(e.data_quality.checks.length);
    for (const check of e.data_quality.checks) {
      expect(check.run_window.from <= a.date && a.date <= check.run_window.to).toBe(true);
    }
    expect(e.data_quality.verdict).toMatch(/^(passed|warnings|failed)$/);
  });

  it('decomposes ROAS of the total on real ingested data: rate + mix = R_cur − R_base from kpis_daily', async () => {
    const e = await explain(D, {
      metric: 'roas',
      channel: '_total',
      first_date: '2026-05-15',
      last_date: '2026-05-15',
    });
    const { from, to } = e.periods.baseline;
    const fired = await service.app.db.query<{ date: string }>(
      `SELECT date FROM anomalies_daily WHERE project_id = $1 AND metric = 'roas' AND channel = '_total' AND fired AND date BETWEEN $2 AND $3`,
      [D, from, to],
    );
    const [row] = await service.app.db.query<{ cur: number; base: number }>(
      `SELECT (sum(revenue) FILTER (WHERE date = '2026-05-15') / sum(spend) FILTER (WHERE date = '2026-05-15'))::float8 AS cur,
         (sum(revenue) FILTER (WHERE date BETWEEN $2 AND $3 AND NOT date = ANY($4::date[]))
           / sum(spend) FILTER (WHERE date BETWEEN $2 AND $3 AND NOT date = ANY($4::date[])))::float8 AS base
       FROM kpis_daily WHERE project_id = $1`,
      [D, from, to, fired.map((f) => f.date)],
    );
    const d = e.decomposition;
    close(d.current_value!, row!.cur);
    close(d.baseline_value!, row!.base);
    close(sum(d.parts.map((p) => p.rate_effect! + p.mix_effect!)), row!.cur - row!.base);
    close(d.rate_effect! + d.mix_effect!, row!.cur - row!.base);
  });
});
