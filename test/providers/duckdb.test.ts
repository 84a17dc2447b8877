import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/modules/providers/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { awaitRun, createProject } from '../support/flows.js';
import { api, startService, type RunningService } from '../support/service.js';
import { campaignDays, type CampaignDay, totalsByDay } from '../support/sources/campaign-days.js';
import { expectSameTotals, storedTotals } from '../support/sources/stored-totals.js';
import { STORES } from '../support/stores.js';

const P = 'proj_duckdb';
const TODAY = '2026-05-18';
const START = addDays(TODAY, -399);
const CAMPAIGNS = 5;
const mapping = {
  date: 'day',
  campaign_id: 'campaign_id',
  campaign_name: 'campaign_name',
  channel: 'channel',
  currency: 'currency',
  spend: 'spend',
  impressions: 'impressions',
  clicks: 'clicks',
  conversions: 'conversions',
  revenue: 'revenue',
};

const csvOf = (records: CampaignDay[]) =>
  `day,campaign_id,campaign_name,channel,currency,spend,impressions,clicks,conversions,revenue\n${records
    .map(
      (r) =>
        `${r.date},${r.campaign_id},${r.campaign_name},${r.channel},${r.currency},${(r.cost_micros / 1e6).toFixed(6)},${r.impressions},${r.clicks},${r.conversions},${r.revenue.toFixed(6)}`,
    )
    .join('\n')}\n`;

/** A Parquet file written by DuckDB itself from a CSV, with exact DECIMAL amounts. */
async function writeParquet(csvFile: string, parquetFile: string): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(
    `COPY (SELECT CAST(day AS DATE) AS day, campaign_id, campaign_name, channel, currency,
                  CAST(spend AS DECIMAL(18,6)) AS spend, impressions, clicks, conversions,
                  CAST(revenue AS DECIMAL(18,6)) AS revenue
             FROM read_csv('${csvFile}')) TO '${parquetFile}' (FORMAT parquet)`,
  );
  conn.closeSync();
  instance.closeSync();
}

describe.each(STORES)('duckdb provider [%s]', (store) => {
  let service: RunningService;
  let dataDir = '';
  const clock = new ManualClock(`${TODAY}T09:00:00Z`);
  const connect = (ref: string, config: Record<string, unknown>) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'duckdb', connection_ref_id: ref, config, secrets: {} },
    });
  const verify = async (ref: string) =>
    (
      await api(`${service.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'duckdb', connection_ref_id: ref },
      })
    ).body;
  const datastream = async (ref: string) => {
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: ref,
          connection_ref_id: ref,
          provider: 'duckdb',
          cadence: 'manual',
          retrieval_window: { lookback_days: 7, start_date: START },
        },
      },
    });
    expect(ds.status).toBe(200);
    return ds.body.datastream.id as string;
  };
  const run = async (id: string) => {
    const queued = await api(`${service.url}/api/flows/${id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id);
  };

  beforeAll(async () => {
    service = await startService(store, { clock });
    dataDir = service.app.config.dataDir;
    await createProject(service, P, 'EUR');
  });
  afterAll(async () => {
    await service?.close();
  });

  it('backfills 400 days from Parquet with every date once and exact totals, then re-reads its lookback', async () => {
    const records = campaignDays(START, TODAY, CAMPAIGNS);
    fs.writeFileSync(path.join(dataDir, 'pq.csv'), csvOf(records));
    fs.mkdirSync(path.join(dataDir, 'pq'), { recursive: true });
    await writeParquet(path.join(dataDir, 'pq.csv'), path.join(dataDir, 'pq', 'ads.parquet'));
    expect((await connect('pq', { path: 'pq/ads.parquet', mapping })).status).toBe(200);
    expect(await verify('pq')).toMatchObject({
      status: 'active',
      token_check: { ok: true, reason: 'no credentials needed' },
      connectivity: { ok: true, reason: '1 file; the query ran and its first row maps' },
    });
    const id = await datastream('pq');
    const first = await run(id);
    expect(first).toMatchObject({ status: 'succeeded', window: { from: START, to: TODAY } });
    expect(first.rows_read).toBe(records.length);
    expectSameTotals(await storedTotals(service, P), totalsByDay(records));

    // The source restates its last 3 days: the lookback run replaces them and nothing else.
    const restated = campaignDays(START, TODAY, CAMPAIGNS, (d) => (d > addDays(TODAY, -3) ? 1 : 0));
    fs.writeFileSync(path.join(dataDir, 'pq.csv'), csvOf(restated));
    await writeParquet(path.join(dataDir, 'pq.csv'), path.join(dataDir, 'pq', 'ads.parquet'));
    const second = await run(id);
    expect(second).toMatchObject({ status: 'succeeded', window: { from: addDays(TODAY, -6), to: TODAY } });
    expect(second.rows_read).toBe(7 * CAMPAIGNS);
    expectSameTotals(await storedTotals(service, P), totalsByDay(restated));
    expect(totalsByDay(restated).get(TODAY)!.spend).not.toBe(totalsByDay(records).get(TODAY)!.spend);
  });

  it('reads CSV and JSON files, a two-file glob, and its own query with $from and $to', async () => {
    const days = campaignDays(addDays(TODAY, -1), TODAY, 2).map((r) => ({ ...r, campaign_id: `g${r.campaign_id}` }));
    fs.mkdirSync(path.join(dataDir, 'multi'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'multi', 'a.csv'), csvOf(days.slice(0, 2)));
    fs.writeFileSync(path.join(dataDir, 'multi', 'b.csv'), csvOf(days.slice(2)));
    expect((await connect('glob', { path: 'multi/*.csv', mapping })).status).toBe(200);
    expect(await verify('glob')).toMatchObject({
      status: 'active',
      connectivity: { reason: '2 files; the query ran and its first row maps' },
    });
    const json = days.map((r) => ({ d: r.date, c: { id: `j${r.campaign_id}` }, cost: r.cost_micros / 1e6 }));
    fs.writeFileSync(path.join(dataDir, 'ads.jsonl'), json.map((r) => JSON.stringify(r)).join('\n'));
    const config = {
      path: 'ads.jsonl',
      query: 'SELECT d, c.id AS cid, sum(cost) AS spend FROM source WHERE d BETWEEN $from AND $to GROUP BY ALL',
      mapping: { date: 'd', campaign_id: 'cid', spend: 'spend' },
      defaults: { channel: 'files', currency: 'EUR' },
    };
    expect((await connect('json', config)).status).toBe(200);
    const globRun = await run(await datastream('glob'));
    expect(globRun).toMatchObject({ status: 'succeeded', rows_read: 4 });
    const jsonRun = await run(await datastream('json'));
    expect(jsonRun).toMatchObject({ status: 'succeeded', rows_read: 4 });
    const stored = await service.app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ad_performance_daily WHERE project_id = $1 AND campaign_id LIKE 'jg%'",
      [P],
    );
    expect(Number(stored[0]!.n)).toBe(4);
  });

  it('refuses configurations that leave DATA_DIR or are not one SELECT, naming the field', async () => {
    const base = { mapping, format: 'csv' };
    for (const [config, field] of [
      [{ ...base, path: '../outside.csv' }, 'config.path'],
      [{ ...base, path: '/etc/passwd' }, 'config.path'],
      [{ ...base, path: 'file:///etc/passwd' }, 'config.path'],
      [{ ...base, path: 'a.csv', query: 'SELECT * FROM source' }, 'config.query'],
      [{ ...base, path: 'a.csv', query: 'SELECT * FROM source WHERE $from < $to; SELECT 2' }, 'config.query'],
    ] as const) {
      const res = await connect('bad', config);
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
  });

  it('keeps every query inside its files: other paths, ATTACH, COPY, SET, INSTALL, query() all fail', async () => {
    fs.writeFileSync(path.join(dataDir, 'ok.csv'), csvOf(campaignDays(TODAY, TODAY, 1)));
    fs.writeFileSync(path.join(dataDir, 'secret.csv'), 'secret\nhush\n');
    const outside = fs.mkdtempSync(path.join(path.dirname(dataDir), 'ch-outside-'));
    fs.writeFileSync(path.join(outside, 'x.csv'), 'a\n1\n');
    const w = '/* $from $to */';
    const attacks: [string, RegExp][] = [
      [`SELECT * FROM read_csv('/etc/passwd') ${w}`, /Permission Error|disabled/],
      [`SELECT * FROM read_csv('${path.join(outside, 'x.csv')}') ${w}`, /Permission Error|disabled/],
      [`SELECT * FROM read_csv('${path.join(dataDir, 'secret.csv')}') ${w}`, /Permission Error|disabled/],
      [`SELECT * FROM read_text('${dataDir}/../${path.basename(outside)}/x.csv') ${w}`, /Permission Error|disabled/],
      [`SELECT * FROM glob('/*') ${w}`, /Permission Error|disabled/],
      [`ATTACH '${path.join(dataDir, 'x.duckdb')}' AS x ${w}`, /one read-only SELECT|Permission/],
      [`COPY (SELECT * FROM source) TO '${path.join(dataDir, 'out.csv')}' ${w}`, /one read-only SELECT|Permission/],
      [`EXPORT DATABASE '${path.join(dataDir, 'exp')}' ${w}`, /one read-only SELECT|Permission/],
      [`SET enable_external_access = true ${w}`, /one read-only SELECT|locked/],
      [`INSTALL httpfs ${w}`, /one read-only SELECT/],
      [`SELECT * FROM query('COPY (SELECT 1) TO ''${path.join(dataDir, 'q.csv')}''') ${w}`, /SELECT|Permission/],
      [`SELECT * FROM read_csv('http://127.0.0.1:1/x.csv') ${w}`, /Permission Error|disabled/],
      [`CREATE TABLE t AS SELECT * FROM source ${w}`, /one read-only SELECT/],
    ];
    for (const [query, reason] of attacks) {
      const res = await connect('attack', { path: 'ok.csv', query, mapping });
      expect(res.status, query).toBe(200);
      const outcome = await verify('attack');
      expect(outcome.status, query).toBe('error');
      expect(outcome.connectivity.reason, query).toMatch(reason);
      expect(outcome.connectivity.reason, query).not.toContain(dataDir);
    }
    for (const left of ['out.csv', 'x.duckdb', 'exp', 'q.csv'])
      expect(fs.existsSync(path.join(dataDir, left))).toBe(false);
    // The same refusal in a run: it fails with the sandbox's reason and stores nothing.
    await connect('attack', { path: 'ok.csv', query: `COPY (SELECT * FROM source) TO 'out.csv' ${w}`, mapping });
    const failed = await run(await datastream('attack'));
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error).toMatch(/one read-only SELECT|Permission Error/);
    expect(fs.existsSync(path.join(dataDir, 'out.csv'))).toBe(false);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('refuses a path through a symlink when the connection is saved or updated, naming config.path', async () => {
    fs.mkdirSync(path.join(dataDir, 'links'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'links', 'real.csv'), csvOf(campaignDays(TODAY, TODAY, 1)));
    fs.symlinkSync('/etc/hostname', path.join(dataDir, 'links', 'evil.csv'));
    fs.symlinkSync('/etc', path.join(dataDir, 'etc'));
    const cases: [string, RegExp][] = [
      ['links/evil.csv', /goes through a symlink \(links\/evil\.csv\)/],
      ['etc/hostname', /goes through a symlink \(etc\)/],
      ['etc/*.conf', /goes through a symlink \(etc\)/],
      ['links/*.csv', /leaves DATA_DIR or is not a regular file \(symlink\?\): links\/evil\.csv/],
    ];
    expect((await connect('link-ok', { path: 'links/real.csv', mapping, format: 'csv' })).status).toBe(200);
    for (const [p, reason] of cases) {
      const created = await connect('link-new', { path: p, mapping, format: 'csv' });
      expect(created.status, p).toBe(400);
      expect(created.body.errors, p).toEqual([{ path: 'config.path', message: expect.stringMatching(reason) }]);
      const updated = await connect('link-ok', { path: p, mapping, format: 'csv' });
      expect(updated.status, p).toBe(400);
      expect(updated.body.errors[0].path, p).toBe('config.path');
    }
  });

  it('refuses at run time symlinks that appeared after the connection was saved, and missing files', async () => {
    fs.mkdirSync(path.join(dataDir, 'later'), { recursive: true });
    const cases: [string, RegExp][] = [
      ['later/evil.csv', /path leaves DATA_DIR or is not a regular file \(symlink\?\): later\/evil\.csv/],
      ['later/etc/hostname', /path leaves DATA_DIR/],
      ['missing.csv', /file not found: missing\.csv/],
      ['nothing/*.parquet', /no file matches path/],
    ];
    for (const [i, [p]] of cases.entries())
      expect((await connect(`later-${i}`, { path: p, mapping, format: 'csv' })).status, p).toBe(200);
    fs.symlinkSync('/etc/hostname', path.join(dataDir, 'later', 'evil.csv'));
    fs.symlinkSync('/etc', path.join(dataDir, 'later', 'etc'));
    for (const [i, [p, reason]] of cases.entries()) {
      const outcome = await verify(`later-${i}`);
      expect(outcome, p).toMatchObject({ status: 'error', connectivity: { ok: false } });
      expect(outcome.connectivity.reason, p).toMatch(reason);
    }
  });
});
