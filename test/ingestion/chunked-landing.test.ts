import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelScope } from '../../src/modules/models/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { until } from '../support/scratch-database.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { awaitRun, createProject, seedRates, type Run } from '../support/flows.js';

const P = 'proj_chunks';
const TODAY = '2026-05-18';
const day = (n: number) => `2026-05-${String(n).padStart(2, '0')}`;
const mapping = { date: 'day', campaign_id: 'cid', currency: 'cur', spend: 'cost', clicks: 'clicks', revenue: 'value' };

class Rollback extends Error {}

/**
 * On PostgreSQL a run lands in chunks and ad_performance_daily converts each landed chunk while
 * the next one lands (ChunkedCopyLander + ModelGraph.followLanding); PGlite lands the run and then
 * builds (ModelGraph.buildAll). A tiny chunk size makes every run here span many chunks. Each
 * result is checked against the whole-run build over the same raw rows, run in a transaction that
 * is rolled back, so the two paths must agree row for row.
 */
describe.each(STORES)('a landing in many chunks [%s]', (store) => {
  let service: RunningService;
  let files: http.Server;
  let filesUrl = '';
  /** What the fake export server answers next (the failure test switches it). */
  let serve: (res: http.ServerResponse) => void = () => undefined;
  const clock = new ManualClock(`${TODAY}T09:00:00Z`);

  const dataDir = () => service.app.config.dataDir;
  const writeJsonl = (name: string, rows: unknown[]) =>
    fs.writeFileSync(path.join(dataDir(), name), rows.map((r) => JSON.stringify(r)).join('\n'));
  const datastream = async (
    name: string,
    ref: string,
    config: Record<string, unknown>,
    secrets?: unknown,
  ): Promise<string> => {
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'csv',
        connection_ref_id: ref,
        config: { mapping, defaults: { channel: 'search' }, ...config },
        ...(secrets ? { secrets } : {}),
      },
    });
    expect(conn.status).toBe(200);
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name,
          connection_ref_id: ref,
          provider: 'csv',
          cadence: 'manual',
          retrieval_window: { lookback_days: 18 },
        },
      },
    });
    expect(ds.status).toBe(200);
    return ds.body.datastream.id as string;
  };
  const run = async (dsId: string, until?: (r: Run) => boolean): Promise<Run> => {
    const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
    expect(queued.status).toBe(202);
    return awaitRun(service, P, queued.body.id, until);
  };
  const adRows = (dsId: string) =>
    service.app.db.query(
      'SELECT * FROM ad_performance_daily WHERE project_id = $1 AND datastream_id = $2 ORDER BY date, campaign_id',
      [P, dsId],
    );
  const kpiRows = () =>
    service.app.db.query('SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel', [P]);
  const chunksOf = async (runId: string) =>
    Number(
      (
        await service.app.db.query<{ n: number }>(
          'SELECT count(DISTINCT chunk) AS n FROM raw_ad_records WHERE run_id = $1',
          [runId],
        )
      )[0]!.n,
    );

  /** ad_performance_daily and kpis_daily as the whole-run build writes them from the run's raw rows. */
  async function wholeRunBuild(r: Run): Promise<{ ad: unknown[]; kpis: unknown[] }> {
    const scope: ModelScope = {
      projectId: P,
      datastreamId: r.datastream_id,
      runId: r.id,
      from: r.window.from,
      to: r.window.to,
      reportingCurrency: 'EUR',
    };
    let built: { ad: unknown[]; kpis: unknown[] } | undefined;
    await service.app.db
      .transaction(async (tx) => {
        await service.app.services.ingestion.models.buildAll(tx, scope);
        built = {
          ad: await tx.query(
            'SELECT * FROM ad_performance_daily WHERE project_id = $1 AND datastream_id = $2 ORDER BY date, campaign_id',
            [P, r.datastream_id],
          ),
          kpis: await tx.query('SELECT * FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel', [P]),
        };
        throw new Rollback();
      })
      .catch((error) => {
        if (!(error instanceof Rollback)) throw error;
      });
    return built!;
  }

  beforeAll(async () => {
    service = await startService(store, { clock, env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
    service.app.services.ingestion.landingChunkRows = 7;
    await createProject(service, P, 'EUR');
    await seedRates(service, [
      ['USD', '2026-04-30', 1.08],
      ['USD', '2026-05-08', 1.09],
      ['GBP', '2026-04-30', 0.84],
      ['GBP', '2026-05-11', 0.85],
      // Published from 05-10 on only: earlier spend in QQQ cannot be converted.
      ['QQQ', '2026-05-10', 3.5],
    ]);
    files = http.createServer((_req, res) => serve(res));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/export.csv`;
  });
  afterAll(async () => {
    await service?.close();
    files?.closeAllConnections();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('converts every chunk: the rows and sums equal the whole-run build', async () => {
    const rows = [];
    for (let d = 1; d <= 18; d += 1) {
      for (let c = 1; c <= 5; c += 1)
        rows.push({
          day: day(d),
          cid: `c${c}`,
          cur: ['USD', 'EUR', 'GBP'][c % 3],
          cost: 10.25 * c + d / 100,
          clicks: c * d,
          value: 3.3 * c * d,
        });
    }
    writeJsonl('many.jsonl', rows);
    const dsId = await datastream('Many chunks', 'many', { path: 'many.jsonl' });
    const r = await run(dsId);
    expect(r).toMatchObject({ status: 'succeeded', rows_read: 90, error: null });
    // 90 records in chunks of 7: 13 COPY statements on PostgreSQL, one landing on PGlite.
    expect(await chunksOf(r.id)).toBe(store === 'postgres' ? 13 : 1);
    const ad = await adRows(dsId);
    expect(ad).toHaveLength(90);
    expect({ ad, kpis: await kpiRows() }).toEqual(await wholeRunBuild(r));
    // Spot check against the rates themselves: c2 (GBP) on 05-12 at 0.85 per EUR.
    const c2 = ad.find((a) => a.campaign_id === 'c2' && a.date === day(12))!;
    expect(Number(c2.spend)).toBeCloseTo((20.5 + 0.12) / 0.85, 6);
  });

  it('sums a campaign-day whose rows land in different chunks', async () => {
    const rows = [];
    for (let d = 1; d <= 6; d += 1)
      for (let c = 1; c <= 4; c += 1)
        rows.push({ day: day(d), cid: `d${c}`, cur: 'USD', cost: c + d, clicks: 1, value: 2 * c });
    // The same campaign-days again, several chunks later (an ad group's rows).
    rows.push({ day: day(1), cid: 'd1', cur: 'USD', cost: 0.5, clicks: 4, value: 1.25 });
    rows.push({ day: day(2), cid: 'd3', cur: 'GBP', cost: 7, clicks: 2, value: 0 });
    writeJsonl('dupes.jsonl', rows);
    const dsId = await datastream('Duplicates', 'dupes', { path: 'dupes.jsonl' });
    const r = await run(dsId);
    expect(r).toMatchObject({ status: 'succeeded', rows_read: 26 });
    if (store === 'postgres') expect(await chunksOf(r.id)).toBe(4);
    const ad = await adRows(dsId);
    expect(ad).toHaveLength(24);
    const d1 = ad.find((a) => a.campaign_id === 'd1' && a.date === day(1))!;
    expect([Number(d1.spend_source), Number(d1.clicks), Number(d1.revenue_source)]).toEqual([2.5, 5, 3.25]);
    // Converted row by row, then summed: 2 USD at 1.08 per EUR, 0.5 USD likewise.
    expect(Number(d1.spend)).toBeCloseTo(2.5 / 1.08, 6);
    const d3 = ad.find((a) => a.campaign_id === 'd3' && a.date === day(2))!;
    expect(Number(d3.spend)).toBeCloseTo(5 / 1.08 + 7 / 0.84, 6);
    expect({ ad, kpis: await kpiRows() }).toEqual(await wholeRunBuild(r));
  });

  it('two datastreams of one project run side by side; kpis_daily adds up both', async () => {
    // The project lock is taken after the landing (the chunk-by-chunk conversion writes only its own
    // datastream's rows), so both runs land and convert at once and queue only for kpis_daily.
    const ids: string[] = [];
    for (const side of ['left', 'right']) {
      const rows = [];
      for (let d = 1; d <= 18; d += 1)
        for (let c = 1; c <= 4; c += 1)
          rows.push({
            day: day(d),
            cid: `${side}${c}`,
            cur: side === 'left' ? 'USD' : 'GBP',
            cost: c * d,
            clicks: c,
            value: d,
          });
      writeJsonl(`${side}.jsonl`, rows);
      ids.push(await datastream(`Side ${side}`, side, { path: `${side}.jsonl` }));
    }
    const queued = await Promise.all(ids.map((id) => api(`${service.url}/api/flows/${id}/run`, { method: 'POST' })));
    const done = await Promise.all(queued.map((q) => awaitRun(service, P, q.body.id)));
    expect(done.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    const expected = await service.app.db.query(
      `SELECT date, channel, sum(spend) AS spend, sum(revenue) AS revenue, sum(clicks) AS clicks FROM ad_performance_daily
       WHERE project_id = $1 GROUP BY date, channel ORDER BY date, channel`,
      [P],
    );
    const kpis = await service.app.db.query(
      'SELECT date, channel, spend, revenue, clicks FROM kpis_daily WHERE project_id = $1 ORDER BY date, channel',
      [P],
    );
    expect(kpis).toEqual(expected);
    for (const id of ids) expect(await adRows(id)).toHaveLength(72);
  });

  /** Rows with two currencies lacking rates, the earliest such date of one landing chunks after a later one. */
  const missingRateRows = () => {
    const rows: Record<string, unknown>[] = [];
    for (let d = 1; d <= 18; d += 1) rows.push({ day: day(d), cid: 'm2', cur: 'GBP', cost: d });
    rows.push({ day: day(8), cid: 'q1', cur: 'QQQ', cost: 1 }); // no QQQ rate before 05-10
    for (let d = 1; d <= 10; d += 1) rows.push({ day: day(d), cid: 'm3', cur: 'USD', cost: d });
    rows.push({ day: day(14), cid: 'x1', cur: 'XYZ', cost: 1 }); // no XYZ rate at all
    rows.push({ day: day(3), cid: 'q2', cur: 'QQQ', cost: 1 }); // QQQ's first date without a rate, chunks later
    rows.push({ day: day(12), cid: 'q3', cur: 'QQQ', cost: 1 }); // converts
    return rows;
  };
  const MISSING =
    'no exchange rate to convert to EUR for QQQ on 2026-05-03, XYZ on 2026-05-14 (none published on or before that date); load rates and retry';

  it('names the missing rates exactly as the whole-run build does', async () => {
    writeJsonl('rates.jsonl', missingRateRows());
    const dsId = await datastream('Missing rates', 'rates', { path: 'rates.jsonl' });
    const before = await kpiRows();
    const r = await run(dsId);
    expect(r.error).toBe(MISSING);
    expect(await adRows(dsId)).toEqual([]);
    expect(await kpiRows()).toEqual(before);
  });

  it('names them too when a duplicate campaign-day sent the run to the summing path first', async () => {
    // The duplicate is in the first chunk: PostgreSQL stops converting chunk by chunk there, and
    // must still find the missing rates of every later chunk.
    writeJsonl('rates-dupe.jsonl', [
      { day: day(2), cid: 'm1', cur: 'USD', cost: 1 },
      { day: day(2), cid: 'm1', cur: 'USD', cost: 2 },
      ...missingRateRows(),
    ]);
    const dsId = await datastream('Missing rates after a duplicate', 'rates-dupe', { path: 'rates-dupe.jsonl' });
    const r = await run(dsId);
    expect(r.error).toBe(MISSING);
    expect(await adRows(dsId)).toEqual([]);
  });

  it('a record the database refuses, chunks into the landing, fails the run and changes nothing', async () => {
    const rows = [];
    for (let d = 1; d <= 6; d += 1)
      for (let c = 1; c <= 5; c += 1) rows.push({ day: day(d), cid: `n${c}`, cur: 'USD', cost: c });
    // A NUL character: JSON carries it, PostgreSQL text cannot (SQLSTATE 22021), in the fourth chunk.
    rows.splice(24, 0, { day: day(3), cid: 'n\u0000ul', cur: 'USD', cost: 1 });
    writeJsonl('nul.jsonl', rows);
    const dsId = await datastream('NUL', 'nul', { path: 'nul.jsonl' });
    const before = await kpiRows();
    const r = await run(dsId);
    expect(r.status).toBe('failed');
    expect(r.error).toBe('internal error while reading the source (SQLSTATE 22021); the service log has details');
    expect(await adRows(dsId)).toEqual([]);
    expect(await kpiRows()).toEqual(before);
  });

  it.runIf(store === 'postgres')(
    'a source failing after chunks were converted leaves the datasets as they were',
    async () => {
      const header = 'day,cid,cur,cost,clicks,value\n';
      const good = (d: number, c: number) => `${day(d)},f${c},USD,${c * 1.5 + d},${c},${d * 2.25}\n`;
      serve = (res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        let body = header;
        for (let d = 1; d <= 18; d += 1) for (let c = 1; c <= 20; c += 1) body += good(d, c);
        res.end(body);
      };
      const dsId = await datastream('Export', 'export', { url: filesUrl }, { bearer_token: 'unused' });
      const first = await run(dsId);
      expect(first).toMatchObject({ status: 'succeeded', rows_read: 360 });
      const adBefore = await adRows(dsId);
      const kpisBefore = await kpiRows();
      expect(adBefore).toHaveLength(360);

      // Second run: 300 rows (43 chunks), then the export stalls until the model transaction has
      // visibly written converted rows (ad_performance_daily grows on disk while they are still
      // uncommitted), then a row that cannot be read.
      const size = async () =>
        Number(
          (await service.app.db.query<{ n: number }>("SELECT pg_relation_size('ad_performance_daily') AS n"))[0]!.n,
        );
      const sizeBefore = await size();
      let grew = 0;
      serve = (res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        let body = header;
        for (let i = 0; i < 300; i += 1) body += good(1 + (i % 18), 1 + Math.floor(i / 18));
        res.write(body);
        void until(size, (n) => n > sizeBefore, 400).then((n) => {
          grew = n - sizeBefore;
          res.end(`${day(5)},f99,USD,oops,1,1\n`);
        });
      };
      const failed = await run(dsId, (x) => x.status === 'failed');
      expect(failed.error).toBe('spend is not a number: "oops"');
      expect(grew).toBeGreaterThan(0);
      expect(await adRows(dsId)).toEqual(adBefore);
      expect(await kpiRows()).toEqual(kpisBefore);

      // Retried with a good export, the run succeeds and writes the same rows as before.
      serve = (res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        let body = header;
        for (let d = 1; d <= 18; d += 1) for (let c = 1; c <= 20; c += 1) body += good(d, c);
        res.end(body);
      };
      const retried = await run(dsId);
      expect(retried.status).toBe('succeeded');
      expect(await adRows(dsId)).toEqual(adBefore);
      expect(await kpiRows()).toEqual(kpisBefore);
    },
  );
});
