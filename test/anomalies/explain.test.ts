import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject } from '../support/flows.js';
import { days, writeKpis, type KpiPoint } from '../support/kpis.js';
import { connectModern } from '../support/mcp-clients.js';

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
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();

/**
 * The baseline's mean per day as the explanation defines it (docs/api.md): each anomaly day against
 * the baseline days of its weekday when the detector's baseline was weekly, else all of them.
 */
function baselineMean(cur: string[], base: { date: string; value: number }[], weekly: boolean): number {
  if (!weekly) return sum(base.map((b) => b.value)) / base.length;
  return (
    sum(
      cur.map((d) => {
        const same = base.filter((b) => weekday(b.date) === weekday(d));
        return sum(same.map((b) => b.value)) / same.length;
      }),
    ) / cur.length
  );
}
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
    // The run's data-quality checks are written by the after-run job: wait for them (bounded).
    for (let i = 0; i < 600; i += 1) {
      const dq = await api(`${service.url}/api/dq/status?project_id=${D}`);
      if (dq.body.ledger?.length >= 6) break;
      await new Promise((r) => setTimeout(r, 100));
    }
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
      baseline: { days: 20, days_with_data: 20, excluded_days: 0 },
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

  it('GET /api/anomalies/{id}/explain: a channel anomaly by its campaigns, against the detector’s baseline', async () => {
    const list = await api(`${service.url}/api/anomalies?project_id=${D}&metric=spend&channel=paid_search`);
    const a = (list.body.anomalies as any[]).find((x) => x.first_date <= '2026-05-15' && '2026-05-15' <= x.last_date);
    expect(a?.id).toMatch(/^anom_/);
    const res = await api(`${service.url}/api/anomalies/${a.id}/explain`);
    expect(res.status).toBe(200);
    const e = res.body;
    expect(e.project_id).toBe(D);
    expect(e.anomaly).toMatchObject({ id: a.id, metric: 'spend', channel: 'paid_search', first_date: a.first_date });
    // The observed change, from the detector's stored rows of the series: the anomaly days' mean
    // value minus the plain mean of its window without the days it excluded from baselines.
    const rows = await service.app.db.query<{ date: string; value: number; excluded: boolean; model: string }>(
      `SELECT date, value, excluded, model FROM anomalies_daily WHERE project_id = $1 AND metric = 'spend' AND channel = 'paid_search'
         AND date BETWEEN $2 AND $3 ORDER BY date`,
      [D, e.periods.baseline.from, a.last_date],
    );
    const base = rows.filter((r) => r.date <= e.periods.baseline.to && r.date < a.first_date && !r.excluded);
    const cur = rows.filter((r) => r.date >= a.first_date);
    const weekly = /weekly/.test(cur[0]!.model);
    expect(e.periods.baseline.weighting).toBe(weekly ? 'same_weekday' : 'equal');
    const expected =
      sum(cur.map((r) => r.value)) / cur.length -
      baselineMean(
        cur.map((r) => r.date),
        base,
        weekly,
      );
    const d = e.decomposition;
    expect(d).toMatchObject({ method: 'additive', breakdown: 'campaign' });
    close(d.change, expected);
    close(sum(d.parts.map((p: any) => p.change)), expected);
    expect(d.parts.length).toBeGreaterThan(1);
    expect(d.parts.every((p: any) => !['paid_search', '_total'].includes(p.key))).toBe(true);
    expect(e.periods.baseline).toMatchObject({ days: base.length, days_with_data: base.length });
    // The run that wrote the days was checked: its checks are listed with the run's window.
    expect(e.data_quality.checks.length).toBeGreaterThanOrEqual(6);
    const c = e.data_quality.counts;
    expect(c.pass + c.warn + c.fail + c.error).toBe(e.data_quality.checks.length);
    for (const check of e.data_quality.checks)
      expect(check.run_window.from <= a.last_date && a.first_date <= check.run_window.to).toBe(true);
    expect(e.data_quality.verdict).toMatch(/^(passed|warnings|failed)$/);
    expect(e.currency).toBe('USD');
  });

  it('an unknown id is a 404 problem and an isError tool answer that says how to recover', async () => {
    const missing = 'anom_000000000000000000000000';
    const res = await api(`${service.url}/api/anomalies/${missing}/explain`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('anomaly_not_found');
    const bad = await api(`${service.url}/api/anomalies/not-an-id/explain`);
    expect(bad.status).toBe(400);
    const client = await connectModern(service.url);
    try {
      const r = (await client.callTool({
        name: 'explain_anomaly',
        arguments: { project_id: D, anomaly_id: missing },
      })) as { isError?: boolean; content: { type: string; text: string }[] };
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/^anomaly_not_found/);
      expect(r.content[0]!.text).toContain('get_anomalies');
      // An id of another project than the one named is not found there either; without a
      // project_id the id's own project is used, though the caller sees several.
      const some = (await api(`${service.url}/api/anomalies?project_id=${D}&since=2026-03-01&limit=1`)).body
        .anomalies[0];
      const elsewhere = (await client.callTool({
        name: 'explain_anomaly',
        arguments: { project_id: R, anomaly_id: some.id },
      })) as { isError?: boolean; content: { type: string; text: string }[] };
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.content[0]!.text).toMatch(/^anomaly_not_found/);
      const own = (await client.callTool({ name: 'explain_anomaly', arguments: { anomaly_id: some.id } })) as {
        isError?: boolean;
        structuredContent: { meta: { project_id: string }; data: { anomaly: { id: string } } };
      };
      expect(own.isError).toBeFalsy();
      expect(own.structuredContent.meta.project_id).toBe(D);
      expect(own.structuredContent.data.anomaly.id).toBe(some.id);
    } finally {
      await client.close();
    }
  });

  it('explain_anomaly: a bounded summary, the whole explanation in structuredContent and the app channel', async () => {
    const list = await api(`${service.url}/api/anomalies?project_id=${D}&since=2026-03-01&channel=_total&limit=500`);
    const a = (list.body.anomalies as any[])[0];
    expect(a).toBeDefined();
    const client = await connectModern(service.url, undefined, { apps: true });
    try {
      const r = (await client.callTool({
        name: 'explain_anomaly',
        arguments: { project_id: D, anomaly_id: a.id },
      })) as any;
      expect(r.isError).toBeFalsy();
      const lines = (r.content[0].text as string).split('\n');
      expect(lines.length).toBeLessThanOrEqual(30);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(200);
      expect(lines[0]).toContain(a.id);
      expect(lines.some((l) => l.startsWith('Largest contributions by channel'))).toBe(true);
      const full = r._meta['service.app_payload'];
      expect(full.meta).toMatchObject({ tool: 'explain_anomaly', project_id: D });
      expect(full.data.anomaly.id).toBe(a.id);
      const d = full.data.decomposition;
      expect(d.breakdown).toBe('channel');
      close(sum(d.parts.map((p: any) => p.change)), d.change);
      const rest = await api(`${service.url}/api/anomalies/${a.id}/explain`);
      const { project_id: _, ...restData } = rest.body;
      expect(full.data).toEqual(restData);
    } finally {
      await client.close();
    }
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
      `SELECT date FROM anomalies_daily WHERE project_id = $1 AND metric = 'roas' AND channel = '_total' AND excluded AND date BETWEEN $2 AND $3`,
      [D, from, to],
    );
    const [row] = await service.app.db.query<{ cur: number; base: number }>(
      `SELECT (sum(revenue) FILTER (WHERE date = '2026-05-15') / sum(spend) FILTER (WHERE date = '2026-05-15'))::float8 AS cur,
         (sum(revenue) FILTER (WHERE date BETWEEN $2 AND $3 AND NOT date = ANY($4::date[]) AND same)
           / sum(spend) FILTER (WHERE date BETWEEN $2 AND $3 AND NOT date = ANY($4::date[]) AND same))::float8 AS base
       FROM (SELECT *, (NOT $5 OR extract(dow FROM date) = extract(dow FROM DATE '2026-05-15')) AS same FROM kpis_daily) k
       WHERE project_id = $1`,
      [D, from, to, fired.map((f) => f.date), e.periods.baseline.weighting === 'same_weekday'],
    );
    const d = e.decomposition;
    close(d.current_value!, row!.cur);
    close(d.baseline_value!, row!.base);
    close(sum(d.parts.map((p) => p.rate_effect! + p.mix_effect!)), row!.cur - row!.base);
    close(d.rate_effect! + d.mix_effect!, row!.cur - row!.base);
  });
});
