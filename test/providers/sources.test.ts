import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES, TEST_DATABASE_URL } from '../support/stores.js';
import { awaitRun, createProject, seedRates } from '../support/flows.js';

const P = 'proj_sources';

describe.each(STORES)('csv / jsonl exports and the postgres provider [%s]', (store) => {
  let service: RunningService;
  let files: http.Server;
  let filesUrl = '';
  const clock = new ManualClock('2026-05-18T09:00:00Z');
  const exportCsv =
    'Day;Campaign;Name;Cost;Clicks\n2026-05-17;a1;"Spring; sale ""A""";12.5;10\n2026-05-18;a1;"Spring; sale ""A""";7.5;4\n2026-01-01;old;out of window;99;1\n';

  const connect = (ref: string, provider: string, config: unknown, secrets?: unknown) =>
    api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider, connection_ref_id: ref, config, ...(secrets ? { secrets } : {}) },
    });
  const runDatastream = async (name: string, ref: string, provider: string) => {
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name, connection_ref_id: ref, provider, cadence: 'manual' },
      },
    });
    expect(ds.status).toBe(200);
    const queued = await api(`${service.url}/api/flows/${ds.body.datastream.id}/run`, { method: 'POST' });
    return awaitRun(service, P, queued.body.id);
  };

  beforeAll(async () => {
    service = await startService(store, { clock });
    await createProject(service, P, 'EUR');
    await seedRates(service, [['USD', '2026-05-15', 1.1]]);
    files = http.createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer export-token') {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv' }).end(exportCsv);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/exports/ads.csv`;
  });
  afterAll(async () => {
    await service?.close();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('reads a CSV over http(s) with a bearer token, quoted fields and a custom delimiter', async () => {
    const config = {
      url: filesUrl,
      delimiter: ';',
      mapping: { date: 'Day', campaign_id: 'Campaign', campaign_name: 'Name', spend: 'Cost', clicks: 'Clicks' },
      defaults: { channel: 'search', currency: 'USD' },
    };
    await connect('csv-url-bad', 'csv', config, { bearer_token: 'wrong' });
    const bad = await api(`${service.url}/api/credentials/verify`, {
      method: 'POST',
      json: { project_id: P, provider: 'csv', connection_ref_id: 'csv-url-bad' },
    });
    expect(bad.body).toMatchObject({
      status: 'error',
      connectivity: { ok: false, reason: 'HTTP 401 from the export URL (credentials refused)' },
    });
    await connect('csv-url', 'csv', config, { bearer_token: 'export-token' });
    const ok = await api(`${service.url}/api/credentials/verify`, {
      method: 'POST',
      json: { project_id: P, provider: 'csv', connection_ref_id: 'csv-url' },
    });
    expect(ok.body).toMatchObject({ status: 'active', connectivity: { ok: true } });
    const run = await runDatastream('CSV url', 'csv-url', 'csv');
    expect(run).toMatchObject({ status: 'succeeded', rows_read: 2 });
    const rows = await service.app.db.query<{
      campaign_name: string;
      spend: number;
      spend_source: number;
      currency: string;
    }>(
      "SELECT campaign_name, spend, spend_source, currency FROM ad_performance_daily WHERE project_id = $1 AND campaign_id = 'a1' ORDER BY date",
      [P],
    );
    expect(rows.map((r) => [r.campaign_name, Number(r.spend_source), Number(r.spend), r.currency])).toEqual([
      ['Spring; sale "A"', 12.5, Number((12.5 / 1.1).toFixed(6)), 'EUR'],
      ['Spring; sale "A"', 7.5, Number((7.5 / 1.1).toFixed(6)), 'EUR'],
    ]);
  });

  it('reads JSON Lines from a path under DATA_DIR and refuses paths outside it', async () => {
    const lines = [
      { d: '2026-05-18', c: { id: 'j1' }, ch: 'email', cur: 'EUR', m: { spend: 3, rev: 9 } },
      { d: '2026-05-18', c: { id: 'j1' }, ch: 'email', cur: 'EUR', m: { spend: 2, rev: 1 } },
    ];
    fs.writeFileSync(
      path.join(service.app.config.dataDir, 'ads.jsonl'),
      lines.map((l) => JSON.stringify(l)).join('\n'),
    );
    const mapping = {
      date: 'd',
      campaign_id: 'c.id',
      channel: 'ch',
      currency: 'cur',
      spend: 'm.spend',
      revenue: 'm.rev',
    };
    const outside = await connect('jsonl-escape', 'csv', { path: '../etc/passwd', mapping });
    expect(outside.body.errors).toEqual([{ path: 'config.path', message: 'must be a relative path inside DATA_DIR' }]);
    expect((await connect('jsonl', 'csv', { path: 'ads.jsonl', mapping })).status).toBe(200);
    const run = await runDatastream('JSONL', 'jsonl', 'csv');
    expect(run.status).toBe('succeeded');
    const kpi = await service.app.db.query<{
      spend: number;
      revenue: number;
      roas: number;
      cpa: number | null;
      ctr: number | null;
    }>("SELECT spend, revenue, roas, cpa, ctr FROM kpis_daily WHERE project_id = $1 AND channel = 'email'", [P]);
    // Two source rows of one campaign-day add up; ratios with a zero denominator are null.
    expect(kpi.map((k) => [Number(k.spend), Number(k.revenue), Number(k.roas), k.cpa, k.ctr])).toEqual([
      [5, 10, 2, null, null],
    ]);
    // The model first copies rows across one to one; the duplicate campaign-day trips the key, that
    // attempt is rolled back to its savepoint, and the summing statement writes one canonical row.
    const canonical = await service.app.db.query<{ spend_source: number; revenue_source: number }>(
      "SELECT spend_source, revenue_source FROM ad_performance_daily WHERE project_id = $1 AND campaign_id = 'j1'",
      [P],
    );
    expect(canonical.map((c) => [Number(c.spend_source), Number(c.revenue_source)])).toEqual([[5, 10]]);
  });

  it.runIf(TEST_DATABASE_URL)('reads a warehouse with a parameterized query in a READ ONLY transaction', async () => {
    const schema = `wh_${store}_${process.pid}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      await admin.query(
        `CREATE TABLE ${schema}.spend (day date, cid text, network text, cur text, cost numeric, conv int)`,
      );
      await admin.query(
        `INSERT INTO ${schema}.spend SELECT d::date, 'w' || g, 'tv', 'EUR', g * 1.5, g FROM generate_series('2026-05-01'::date, '2026-05-18'::date, '1 day') d, generate_series(1, 4) g`,
      );
      const secrets = { connection_string: TEST_DATABASE_URL };
      const mapping = {
        date: 'day',
        campaign_id: 'cid',
        channel: 'network',
        currency: 'cur',
        spend: 'cost',
        conversions: 'conv',
      };
      await connect(
        'wh',
        'postgres',
        {
          query: `SELECT * FROM ${schema}.spend WHERE day BETWEEN $1 AND $2 AND cost > $3`,
          params: [2],
          mapping,
          batch_size: 100,
        },
        secrets,
      );
      const verified = await api(`${service.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'postgres', connection_ref_id: 'wh' },
      });
      expect(verified.body).toMatchObject({ status: 'active', token_check: { ok: true }, connectivity: { ok: true } });
      const run = await runDatastream('Warehouse', 'wh', 'postgres');
      // lookback 7 days (05-12..05-18), cost > 2 keeps g = 2, 3, 4.
      expect(run).toMatchObject({ status: 'succeeded', rows_read: 21 });
      // nextval() writes: the READ ONLY transaction refuses it (SQLSTATE 25006).
      await admin.query(`CREATE SEQUENCE ${schema}.seq`);
      const writer = `SELECT s.*, nextval('${schema}.seq') AS n FROM ${schema}.spend s WHERE day BETWEEN $1 AND $2`;
      await connect('wh-write', 'postgres', { query: writer, mapping }, secrets);
      const refused = await runDatastream('Writer', 'wh-write', 'postgres');
      expect(refused.status).toBe('failed');
      expect(refused.error).toBe('the query tried to write; only read-only queries are allowed');
      expect(Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.spend`)).rows[0].n)).toBe(72);
      const wrongPassword = TEST_DATABASE_URL!.replace('postgres://postgres@', 'postgres://nobody:bad@');
      await connect(
        'wh-auth',
        'postgres',
        { query: `SELECT * FROM ${schema}.spend WHERE day BETWEEN $1 AND $2`, mapping },
        { connection_string: wrongPassword },
      );
      const auth = await api(`${service.url}/api/credentials/verify`, {
        method: 'POST',
        json: { project_id: P, provider: 'postgres', connection_ref_id: 'wh-auth' },
      });
      expect(auth.body.status).toBe('error');
      expect(auth.body.token_check.ok).toBe(false);
      expect(JSON.stringify(auth.body)).not.toContain('bad@');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
