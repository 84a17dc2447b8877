import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { awaitRun, createProject, seedRates } from '../support/flows.js';

const P = 'proj_pipe';

/** Polls a REST read (bounded by attempts) until `ok` holds. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 3000; i += 1) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never held');
}

describe.each(STORES)('after ingestion: surveillance, data quality, facts, insights, MCP tools [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  let dsId: string;
  const seen: string[] = [];
  let legacy: Awaited<ReturnType<typeof connectLegacy>>['client'];

  const insightOn = async (date: string) =>
    (await api(`${service.url}/api/insights?project_id=${P}&date=${date}`)).body?.insights?.[0];

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P, 'USD', 'UTC');
    await seedRates(service, [
      ['USD', '2026-02-27', 1.08],
      ['GBP', '2026-02-27', 0.84],
      ['USD', '2026-05-15', 1.1],
      ['GBP', '2026-05-15', 0.86],
    ]);
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'demo', connection_ref_id: 'demo-main', config: { campaigns: 10, seed: 7 } },
    });
    expect(conn.status).toBe(200);
    const up = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'Main',
          connection_ref_id: 'demo-main',
          provider: 'demo',
          cadence: 'daily',
          retrieval_window: { lookback_days: 7, start_date: '2026-03-01' },
        },
      },
    });
    expect(up.status).toBe(200);
    dsId = up.body.datastream.id;
    ({ client: legacy } = await connectLegacy(service.url));
    legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    await legacy.subscribeResource({ uri: `insight://${P}/latest` });
    await legacy.subscribeResource({ uri: `anomalies://${P}/recent` });
    await legacy.ping();
  });
  afterAll(async () => {
    await legacy?.close();
    await service?.close();
  });

  it('a run evaluates anomalies, checks quality, publishes facts and composes the insights', async () => {
    const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
    const run = await awaitRun(service, P, queued.body.id);
    expect(run.status).toBe('succeeded');
    const insight = await until(
      () => insightOn('2026-05-15'),
      (i) => i !== undefined,
    );
    // The demo injects a paid_search spend spike three days before today.
    const fired = await api(`${service.url}/api/anomalies?project_id=${P}&metric=spend&channel=paid_search`);
    expect(fired.body.since).toBe('2026-04-18');
    expect(fired.body.anomalies.map((a: any) => `${a.date}:${a.direction}`)).toContain('2026-05-15:spike');
    expect(insight.record.anomalies.map((a: any) => `${a.metric}/${a.channel}`)).toContain('spend/paid_search');
    // KPI deltas against kpis_daily itself.
    const totals = await service.app.db.query<{ date: string; spend: number }>(
      `SELECT date, sum(spend)::float8 AS spend FROM kpis_daily WHERE project_id = $1 AND date IN ('2026-05-08', '2026-05-14', '2026-05-15') GROUP BY date ORDER BY date`,
      [P],
    );
    const [w, p, d] = totals.map((t) => t.spend);
    const spend = insight.record.kpis.find((k: any) => k.metric === 'spend');
    expect(spend.value).toBeCloseTo(d!, 4);
    expect(spend.day_over_day_pct).toBeCloseTo(((d! - p!) / p!) * 100, 3);
    expect(spend.week_over_week_pct).toBeCloseTo(((d! - w!) / w!) * 100, 3);
    expect(insight.narrative_md).toContain(
      `**Spend**: ${d!.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`,
    );
    expect(insight.narrative_md).toContain('**Anomalies (');
    expect(insight.version).toBe(1);
    expect(insight.inputs_hash).toMatch(/^[0-9a-f]{64}$/);

    const dq = await until(
      () => api(`${service.url}/api/dq/status?project_id=${P}`),
      (r) => r.body.ledger?.length >= 6,
    );
    expect(dq.body.ledger.map((c: any) => c.monitor).sort()).toEqual([
      'currency_coverage',
      'duplicates',
      'freshness',
      'null_rate',
      'schema_drift',
      'volume',
    ]);
    for (const c of dq.body.ledger)
      expect(c).toMatchObject({
        run_id: run.id,
        datastream_id: dsId,
        status: expect.stringMatching(/^(pass|warn|fail|error)$/),
      });
    expect(dq.body.ledger.find((c: any) => c.monitor === 'freshness')).toMatchObject({ status: 'pass', observed: 0 });
    expect(dq.body.health.freshness).toEqual([
      { datastream_id: dsId, name: 'Main', last_date: '2026-05-18', lag_days: 0 },
    ]);

    const facts = await until(
      () =>
        service.app.db.query<{ type: string }>('SELECT DISTINCT type FROM facts WHERE project_id = $1 ORDER BY type', [
          P,
        ]),
      (rows) => rows.length >= 4,
    );
    expect(facts.map((f) => f.type)).toEqual(
      expect.arrayContaining(['anomaly.detected', 'dataset.transformed', 'datastream.ingested', 'insight.composed']),
    );
    await until(
      async () => seen,
      (s) => s.includes(`insight://${P}/latest`) && s.includes(`anomalies://${P}/recent`),
    );
  });

  it('recomposes only the day whose inputs changed when late context arrives', async () => {
    const ev = await api(`${service.url}/api/context/events`, {
      method: 'POST',
      json: {
        project_id: P,
        event_type: 'outage',
        title: 'Checkout down',
        event_date: '2026-05-15',
        impact_window_days: 0,
      },
    });
    expect(ev.status).toBe(201);
    const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
    expect((await awaitRun(service, P, queued.body.id)).status).toBe('succeeded');
    const again = await until(
      () => insightOn('2026-05-15'),
      (i) => i.version === 2,
    );
    expect(again.record.context_events.map((e: any) => e.title)).toEqual(['Checkout down']);
    expect(again.narrative_md).toContain('outage: Checkout down');
    expect((await insightOn('2026-05-13')).version).toBe(1);
  });

  it('serves the data tools and resources over MCP', async () => {
    // The second run's monitors write their checks after the run succeeds, in the after-run
    // pipeline, and its recomposed insight can land first: wait for both runs' checks.
    await until(
      () => api(`${service.url}/api/dq/status?project_id=${P}`),
      (r) => r.body.health?.checks_last_7_days === 12,
    );
    const client = await connectModern(service.url);
    const insight = (await client.callTool({ name: 'get_daily_insight', arguments: { date: '2026-05-15' } })) as any;
    expect(insight.isError).toBeFalsy();
    expect(insight.structuredContent.data).toMatchObject({ date: '2026-05-15', version: 2 });
    expect(insight.content[0].text.split('\n').length).toBeLessThanOrEqual(30);
    const kpis = (await client.callTool({ name: 'get_kpis', arguments: {} })) as any;
    expect(kpis.structuredContent.data.period).toEqual({ from: '2026-05-11', to: '2026-05-17', days: 7 });
    expect(kpis.structuredContent.data.previous_period).toEqual({ from: '2026-05-04', to: '2026-05-10' });
    expect(kpis.structuredContent.data.kpis.find((k: any) => k.metric === 'spend').current).toBeGreaterThan(0);
    const anomalies = (await client.callTool({
      name: 'get_anomalies',
      arguments: { metric: 'spend', direction: 'spike' },
    })) as any;
    // The list may be withheld from structuredContent (it is long); the app payload has it whole.
    const listed = anomalies._meta['service.app_payload'].data.anomalies as any[];
    expect(listed.length).toBeGreaterThan(0);
    for (const a of listed)
      expect(a).toMatchObject({
        id: expect.stringMatching(/^anom_/),
        metric: 'spend',
        direction: 'spike',
        fired: true,
      });
    const dq = (await client.callTool({ name: 'get_data_quality', arguments: {} })) as any;
    expect(dq.structuredContent.data.health.checks_last_7_days).toBe(12);
    // The ledger may be withheld from structuredContent (it is long); the app payload has it whole.
    const ledgerOf = (r: any) => r._meta['service.app_payload'].data.ledger as { check_id: string }[];
    expect(ledgerOf(dq)).toHaveLength(12);
    expect(dq.structuredContent.data.next_cursor).toBeNull();
    // The ledger pages: the summary says where the older entries are.
    const first = (await client.callTool({ name: 'get_data_quality', arguments: { limit: 5 } })) as any;
    expect(ledgerOf(first)).toHaveLength(5);
    const cursor = first.structuredContent.data.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect(first.content[0].text).toContain(`cursor "${cursor}"`);
    const rest = (await client.callTool({ name: 'get_data_quality', arguments: { limit: 50, cursor } })) as any;
    expect(ledgerOf(rest)).toHaveLength(7);
    const seen = [...ledgerOf(first), ...ledgerOf(rest)].map((c) => c.check_id);
    expect(new Set(seen).size).toBe(12);
    const bad = (await client.callTool({ name: 'get_anomalies', arguments: { metric: 'height' } })) as any;
    expect(bad.isError).toBe(true);
    const latest = await client.readResource({ uri: `insight://${P}/latest` });
    expect(JSON.parse((latest.contents[0] as any).text)).toMatchObject({ project_id: P, date: '2026-05-18' });
    const recent = await client.readResource({ uri: `anomalies://${P}/recent` });
    expect(JSON.parse((recent.contents[0] as any).text).anomalies.length).toBeGreaterThan(0);
    await client.close();
  });
  const daysFrom = (first: string, last: string) => {
    const out: string[] = [];
    for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000)
      out.push(new Date(t).toISOString().slice(0, 10));
    return out;
  };

  it('runs a saved report definition with bounded rows (REST and run_report)', async () => {
    const def = {
      name: 'Channels',
      dataset: 'kpis_daily',
      metrics: ['spend', 'roas'],
      dimensions: ['channel'],
      filters: [{ dimension: 'channel', op: 'in', value: ['paid_search', 'display'] }],
      date_range: { from: '2026-05-10', to: '2026-05-16' },
    };
    expect(
      (
        await api(`${service.url}/api/flows/upsert`, {
          method: 'POST',
          json: { project_id: P, kind: 'report_definition', definition: def },
        })
      ).status,
    ).toBe(200);
    const res = await api(`${service.url}/api/reports/run?project_id=${P}&name=Channels`);
    expect(res.status).toBe(200);
    const expected = await service.app.db.query<{ channel: string; spend: number; roas: number }>(
      `SELECT channel, sum(spend)::float8 AS spend, (sum(revenue) / sum(spend))::float8 AS roas FROM kpis_daily
       WHERE project_id = $1 AND date BETWEEN '2026-05-10' AND '2026-05-16' AND channel IN ('paid_search', 'display') GROUP BY channel ORDER BY channel`,
      [P],
    );
    expect(res.body).toMatchObject({
      range: { from: '2026-05-10', to: '2026-05-16' },
      columns: ['channel', 'spend', 'roas'],
      row_count: 2,
      truncated: false,
    });
    expect(res.body.rows.map((r: any) => r.channel)).toEqual(expected.map((e) => e.channel));
    res.body.rows.forEach((r: any, i: number) => {
      expect(r.spend).toBeCloseTo(expected[i]!.spend, 6);
      expect(r.roas).toBeCloseTo(expected[i]!.roas, 6);
    });
    const client = await connectModern(service.url);
    const cut = (await client.callTool({ name: 'run_report', arguments: { name: 'Channels', limit: 1 } })) as any;
    expect(cut.structuredContent.data).toMatchObject({ row_count: 1, truncated: true });
    const missing = (await client.callTool({ name: 'run_report', arguments: { name: 'Nope' } })) as any;
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toContain('report_not_found');
    await client.close();
    const anomalyReport = {
      name: 'Spikes',
      dataset: 'anomalies_daily',
      metrics: ['value', 'score'],
      dimensions: ['date', 'metric', 'channel'],
      filters: [
        { dimension: 'severity', op: 'neq', value: 'none' },
        { dimension: 'direction', op: 'eq', value: 'spike' },
      ],
      date_range: { last_days: 30 },
    };
    expect(
      (
        await api(`${service.url}/api/flows/upsert`, {
          method: 'POST',
          json: { project_id: P, kind: 'report_definition', definition: anomalyReport },
        })
      ).status,
    ).toBe(200);
    const spikes = await api(`${service.url}/api/reports/run?project_id=${P}&name=Spikes&limit=500`);
    expect(spikes.status).toBe(200);
    expect(spikes.body.range).toEqual({ from: '2026-04-18', to: '2026-05-17' });
    const fired = await api(`${service.url}/api/anomalies?project_id=${P}&direction=spike&limit=500`);
    // An anomaly is a run of consecutive fired days: every day from its first to its last fired.
    const firedKeys = (fired.body.anomalies as any[])
      .flatMap((a) => daysFrom(a.first_date, a.last_date).map((date) => `${date}/${a.metric}/${a.channel}`))
      .filter((k) => k.slice(0, 10) <= '2026-05-17' && k.slice(0, 10) >= '2026-04-18')
      .sort();
    expect(spikes.body.rows.map((r: any) => `${r.date}/${r.metric}/${r.channel}`).sort()).toEqual(firedKeys);
  });
  it('pages the data-quality ledger newest first and filters by status', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api(`${service.url}/api/dq/status?project_id=${P}&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.ledger.length).toBeLessThanOrEqual(5);
      seen.push(...res.body.ledger.map((c: any) => c.check_id));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(12);
    const all = await api(`${service.url}/api/dq/status?project_id=${P}&limit=500`);
    expect(all.body.ledger.map((c: any) => c.check_id)).toEqual(seen);
    const passes = await api(`${service.url}/api/dq/status?project_id=${P}&status=pass&limit=500`);
    expect(passes.body.ledger.every((c: any) => c.status === 'pass')).toBe(true);
    expect(passes.body.ledger.length).toBe(all.body.ledger.filter((c: any) => c.status === 'pass').length);
    const bad = await api(`${service.url}/api/dq/status?project_id=${P}&cursor=garbage`);
    expect(bad.status).toBe(400);
  });

  it("publishes a run's facts once when two after-run jobs for it run at once", async () => {
    const db = service.app.db;
    const [{ run_id: runId }] = await db.query<{ run_id: string }>(
      'SELECT run_id FROM evaluator_outbox WHERE project_id = $1 ORDER BY created_at DESC LIMIT 1',
      [P],
    );
    const ingestedFacts = async () =>
      Number(
        (
          await db.query<{ n: number }>(
            `SELECT count(*) AS n FROM facts WHERE type = 'datastream.ingested' AND payload->>'run_id' = $1`,
            [runId!],
          )
        )[0]!.n,
      );
    const before = await ingestedFacts();
    // As if the run had just committed: every replica signals it, and two jobs got through.
    await db.query('UPDATE evaluator_outbox SET processed_at = NULL, claimed_until = NULL WHERE run_id = $1', [runId]);
    const pipeline = service.app.services.evaluators.pipeline;
    await Promise.all([pipeline.afterRun(runId!), pipeline.afterRun(runId!)]);
    expect(await ingestedFacts()).toBe(before + 1);
    const [outbox] = await db.query<{ processed: boolean }>(
      'SELECT processed_at IS NOT NULL AS processed FROM evaluator_outbox WHERE run_id = $1',
      [runId],
    );
    expect(outbox!.processed).toBe(true);
    // Settled: a late third job does nothing.
    await pipeline.afterRun(runId!);
    expect(await ingestedFacts()).toBe(before + 1);
  });
});
