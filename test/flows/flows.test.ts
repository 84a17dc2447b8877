import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { demoProvider, defaultSourceOutbound } from '../../src/modules/providers/index.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { connectModern } from '../support/mcp-clients.js';
import { awaitRun, createProject, rateOn, seedRates } from '../support/flows.js';

const P = 'proj_flows';

describe.each(STORES)('datastreams, runs and the models [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-05-18T12:00:00Z');
  let dsId: string;

  beforeAll(async () => {
    service = await startService(store, {
      clock,
      env: { CONNECTOR_SERVICE_URL: 'https://connectors.example.com/c/{connection_ref_id}' },
    });
    await createProject(service, P, 'USD', 'UTC');
    await seedRates(service, [
      ['USD', '2026-04-30', 1.08],
      ['GBP', '2026-04-30', 0.84],
      ['USD', '2026-05-08', 1.09],
      ['GBP', '2026-05-08', 0.85],
      ['USD', '2026-05-15', 1.1],
      ['GBP', '2026-05-15', 0.86],
    ]);
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'demo', connection_ref_id: 'demo-main', config: { campaigns: 10, seed: 7 } },
    });
    expect(conn.status).toBe(200);
  });
  afterAll(async () => service?.close());

  it('rejects a bad datastream with one errors[] entry per violation, storing nothing', async () => {
    const res = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'bad',
          connection_ref_id: 'nope',
          provider: 'facebook',
          cadence: '61 * * * *',
          retrieval_window: { lookback_days: 0 },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const paths = (res.body.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual([
      'definition.cadence',
      'definition.connection_ref_id',
      'definition.provider',
      'definition.retrieval_window.lookback_days',
    ]);
    const mismatch = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: 'bad', connection_ref_id: 'demo-main', provider: 'csv', cadence: '* * * *' },
      },
    });
    expect(mismatch.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'definition.cadence',
      'definition.provider',
    ]);
    expect(mismatch.body.errors.find((e: { path: string }) => e.path === 'definition.provider').message).toContain(
      'uses provider demo',
    );
    const unknownKind = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: { project_id: P, kind: 'pipeline', definition: {} },
    });
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.errors[0].path).toBe('kind');
    const report = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'report_definition',
        definition: {
          name: 'r',
          dataset: 'kpis_daily',
          metrics: ['roas', 'profit'],
          dimensions: ['campaign_id'],
          date_range: { relative: 'last_7_days' },
        },
      },
    });
    expect(report.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'definition.dimensions.0',
      'definition.metrics.1',
    ]);
    const unknownDataset = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'report_definition',
        definition: { name: 'r', dataset: 'orders', metrics: ['x'], date_range: { last_days: 7 } },
      },
    });
    expect(unknownDataset.body.errors).toEqual([
      { path: 'definition.dataset', message: expect.stringContaining('kpis_daily') },
    ]);
    const flows = await api(`${service.url}/api/flows?project_id=${P}`);
    expect(flows.body).toEqual({ datastreams: [], report_definitions: [] });
  });

  it('upserts idempotently; without a cadence it says schedule_source "default"', async () => {
    const definition = {
      name: 'Main',
      connection_ref_id: 'demo-main',
      provider: 'demo',
      retrieval_window: { lookback_days: 7, start_date: '2026-04-17' },
    };
    const first = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: { project_id: P, kind: 'datastream', definition },
    });
    expect(first.status).toBe(200);
    const ds = first.body.datastream;
    expect(ds).toMatchObject({
      name: 'Main',
      cadence: null,
      schedule_source: 'default',
      timezone: 'UTC',
      next_run_at: '2026-05-19T03:00:00.000Z',
    });
    const again = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: { project_id: P, kind: 'datastream', definition },
    });
    expect(again.body.datastream).toEqual(ds);
    const cron = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { ...definition, name: 'Berlin', cadence: '30 6 * * 1-5', timezone: 'Europe/Berlin' },
      },
    });
    // 06:30 in Berlin (UTC+2 in May) on the next weekday.
    expect(cron.body.datastream).toMatchObject({
      schedule_source: 'datastream',
      next_run_at: '2026-05-19T04:30:00.000Z',
    });
    const report = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'report_definition',
        definition: {
          name: 'Weekly ROAS',
          dataset: 'kpis_daily',
          metrics: ['roas', 'spend'],
          dimensions: ['channel'],
          date_range: { relative: 'last_7_days' },
        },
      },
    });
    expect(report.status).toBe(200);
    const flows = await api(`${service.url}/api/flows?project_id=${P}`);
    expect(flows.body.datastreams.map((d: { name: string }) => d.name)).toEqual(['Berlin', 'Main']);
    expect(flows.body.report_definitions[0].definition.metrics).toEqual(['roas', 'spend']);
    dsId = ds.id;
  });

  it('runs on demand: backfills from start_date, converts at the rate of the spend date, builds kpis_daily', async () => {
    const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
    expect(queued.status).toBe(202);
    const run = await awaitRun(service, P, queued.body.id);
    expect(run).toMatchObject({
      status: 'succeeded',
      window: { from: '2026-04-17', to: '2026-05-18' },
      rows_read: 320,
      error: null,
    });
    // Recompute the expected KPIs independently from the provider's records and the stored rates.
    const ctx = {
      config: { campaigns: 10, seed: 7, incidents: true },
      secrets: {},
      dataDir: '',
      clock,
      outbound: defaultSourceOutbound(),
    };
    const expected = new Map<
      string,
      { spend: number; revenue: number; clicks: number; impressions: number; conversions: number }
    >();
    for await (const r of demoProvider.fetch(ctx, { from: '2026-04-17', to: '2026-05-18' })) {
      const k = `${r.date}|${r.channel}`;
      const factor =
        r.currency === 'USD' ? 1 : (await rateOn(service, 'USD', r.date)) / (await rateOn(service, r.currency, r.date));
      const e = expected.get(k) ?? { spend: 0, revenue: 0, clicks: 0, impressions: 0, conversions: 0 };
      e.spend += r.spend * factor;
      e.revenue += r.revenue * factor;
      e.clicks += r.clicks;
      e.impressions += r.impressions;
      e.conversions += r.conversions;
      expected.set(k, e);
    }
    const rows = await service.app.db.query<Record<string, number | string>>(
      'SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel',
      [P],
    );
    expect(rows.length).toBe(expected.size);
    for (const row of rows) {
      const e = expected.get(`${row.date}|${row.channel}`)!;
      expect(row.currency).toBe('USD');
      expect(Number(row.spend)).toBeCloseTo(e.spend, 3);
      expect(Number(row.revenue)).toBeCloseTo(e.revenue, 3);
      expect(Number(row.clicks)).toBe(e.clicks);
      expect(Number(row.roas)).toBeCloseTo(e.revenue / e.spend, 4);
      expect(Number(row.ctr)).toBeCloseTo(e.clicks / e.impressions, 6);
    }
    // Every registered model's rows count (the evaluators' anomalies_daily joins the graph too).
    expect(run.rows_written).toBeGreaterThanOrEqual(320 + rows.length);
  });

  it('a rerun of the same window leaves the same rows; a later run re-reads only the lookback window', async () => {
    const before = await service.app.db.query('SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel', [
      P,
    ]);
    clock.advance(60_000);
    const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST', json: {} });
    const run = await awaitRun(service, P, queued.body.id);
    expect(run).toMatchObject({ status: 'succeeded', window: { from: '2026-05-12', to: '2026-05-18' }, rows_read: 70 });
    const after = await service.app.db.query('SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel', [
      P,
    ]);
    expect(after).toEqual(before);
    const runs = await api(`${service.url}/api/flows/runs?project_id=${P}&datastream_id=${dsId}`);
    expect(runs.body.runs.map((r: { id: string }) => r.id)[0]).toBe(queued.body.id);
    expect(runs.body.runs).toHaveLength(2);
  });

  it('a run that fails half-way leaves the datasets unchanged and records the error', async () => {
    const dir = service.app.config.dataDir;
    const lines = ['day,campaign,spend,clicks'];
    for (let i = 0; i < 12_000; i += 1) lines.push(`2026-05-${String(12 + (i % 7)).padStart(2, '0')},c${i},10.5,3`);
    lines.push('2026-05-14,c-bad,not-a-number,1');
    fs.writeFileSync(path.join(dir, 'export.csv'), lines.join('\n'));
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'csv',
        connection_ref_id: 'csv-export',
        config: {
          path: 'export.csv',
          mapping: { date: 'day', campaign_id: 'campaign', spend: 'spend', clicks: 'clicks' },
          defaults: { channel: 'affiliate', currency: 'USD' },
        },
      },
    });
    expect(conn.status).toBe(200);
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: 'CSV', connection_ref_id: 'csv-export', provider: 'csv', cadence: 'manual' },
      },
    });
    expect(ds.body.datastream.next_run_at).toBeNull();
    const before = await service.app.db.query('SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel', [
      P,
    ]);
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    const run = await awaitRun(service, P, queued.body.id, (r) => r.status === 'failed');
    expect(run.error).toBe('spend is not a number: "not-a-number"');
    expect(run.retries_exhausted).toBe(false);
    const after = await service.app.db.query('SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel', [
      P,
    ]);
    expect(after).toEqual(before);
    const conns = await api(`${service.url}/api/credentials/list?project_id=${P}`);
    const csv = conns.body.connections.find((c: { connection_ref_id: string }) => c.connection_ref_id === 'csv-export');
    expect(csv).toMatchObject({
      status: 'error',
      last_error: 'spend is not a number: "not-a-number"',
      integration_url: 'https://connectors.example.com/c/csv-export',
    });
  });

  it('run_datastream over MCP reports progress on its own response stream and answers the finished run', async () => {
    const client = await connectModern(service.url);
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'run_datastream', arguments: { project_id: P, datastream: 'Main' } },
      { onprogress: (p) => progress.push(p.message ?? '') },
    );
    expect(result.isError).toBeFalsy();
    const data = (result.structuredContent as { data: { run: { status: string; rows_read: number } } }).data;
    expect(data.run).toMatchObject({ status: 'succeeded', rows_read: 70 });
    expect(progress[0]).toMatch(/queued/);
    expect(progress.at(-1)).toMatch(/succeeded/);
    const list = await client.callTool({ name: 'list_datastreams', arguments: { project_id: P } });
    expect((list.structuredContent as { data: { datastreams: unknown[] } }).data.datastreams).toHaveLength(3);
    await client.close();
  });
  it('a run left running by a process that died does not block its datastream for good', async () => {
    // What a crash leaves behind: a running row whose job will never finish it.
    const startedLongAgo = new Date(clock.now().getTime() - 5 * 3600_000);
    await service.app.db.query(
      `INSERT INTO datastream_runs (id, project_id, datastream_id, status, trigger, window_from, window_to, attempts, queued_at, started_at)
       VALUES ('run_crashed', $1, $2, 'running', 'manual', '2026-05-12', '2026-05-18', 1, $3, $3)`,
      [P, dsId, startedLongAgo],
    );
    const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
    expect((await awaitRun(service, P, queued.body.id)).status).toBe('succeeded');
    const crashed = await awaitRun(service, P, 'run_crashed');
    expect(crashed).toMatchObject({
      status: 'failed',
      retries_exhausted: true,
      error: 'abandoned: the process running it stopped before it finished',
    });
  });
});
