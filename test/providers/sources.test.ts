import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportOptions, MAX_RECORD_BYTES, readExport } from '../../src/modules/providers/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES, TEST_DATABASE_URL } from '../support/stores.js';
import { awaitRun, createProject, seedRates } from '../support/flows.js';

const P = 'proj_sources';

/** What readExport yields for `chunks`, or the message it stops with. */
async function read(chunks: (string | Buffer)[], options: Partial<ExportOptions> = {}) {
  const rows: unknown[] = [];
  try {
    const source = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
    for await (const row of readExport(source, { format: 'csv', delimiter: ',', ...options })) rows.push(row);
  } catch (error) {
    return { error: (error as Error).message };
  }
  return rows;
}

describe('export reader', () => {
  it('reads rows as spreadsheets do: short and long rows, bare quotes, any line end, chunk boundaries', async () => {
    expect(await read(['a, b ,c\r1\r1,2,3,4\r\n\r\nx"y"z,"q ""w""",\n'])).toEqual([
      { a: '1', b: '', c: '' },
      { a: '1', b: '2', c: '3' },
      { a: 'x"y"z', b: 'q "w"', c: '' },
    ]);
    // A BOM and a character split across chunks, and a header alone.
    const bytes = Buffer.from('\uFEFFname\nCaf\u00e9\n');
    expect(await read([bytes.subarray(0, 2), bytes.subarray(2, 10), bytes.subarray(10)])).toEqual([
      { name: 'Caf\u00e9' },
    ]);
    expect(await read(['a,b\n'])).toEqual([]);
    const be = Buffer.from('a\n\u00e9\n', 'utf16le').swap16();
    expect(await read([Buffer.from([0xfe, 0xff]), be])).toEqual([{ a: '\u00e9' }]);
  });

  it('refuses what it cannot read whole, saying where', async () => {
    expect(await read([Buffer.from([0x61, 0x0a, 0x62, 0xc3])])).toEqual({
      error: 'the export ends inside a UTF-8 character (truncated?)',
    });
    expect(await read(['{"a":1}\n', Buffer.from([0x7b, 0xff, 0x7d, 0x0a])], { format: 'jsonl' })).toMatchObject({
      error: expect.stringMatching(/^line 2 is not valid UTF-8/),
    });
    expect(await read(['{"a":1}\n', Buffer.alloc(MAX_RECORD_BYTES + 1, 0x20)], { format: 'jsonl' })).toMatchObject({
      error: expect.stringMatching(/^line 2 is longer than 1,048,576 bytes/),
    });
    expect(await read(['a\n"', 'x\n'.repeat(MAX_RECORD_BYTES)])).toEqual({
      error: 'row 2 grows past 1,048,576 bytes: does it open a quote that is never closed?',
    });
  });
});

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

  /** A header, then one 100 MB line written as the reader asks for it; counts what left. */
  const endlessSent = { bytes: 0, closed: Promise.resolve() };
  const endless = (res: http.ServerResponse) => {
    const total = 100 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    endlessSent.bytes = 0;
    endlessSent.closed = new Promise((resolve) => res.on('close', () => resolve()));
    const head = 'day,campaign,spend\n2';
    res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(head.length + total) });
    res.write(head);
    const more = () => {
      while (endlessSent.bytes < total && !res.destroyed) {
        endlessSent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  };
  /** The campaign-days stored for `campaign`, to show a failed run wrote none. */
  const stored = async (campaign: string) =>
    (
      await service.app.db.query<{ n: number }>(
        'SELECT count(*) AS n FROM ad_performance_daily WHERE project_id = $1 AND campaign_id = $2',
        [P, campaign],
      )
    )[0]!.n;
  const exportMapping = { date: 'day', campaign_id: 'campaign', campaign_name: 'name', spend: 'spend' };
  /** Writes `bytes` under DATA_DIR, connects it and runs a datastream over it. */
  const runFile = async (ref: string, bytes: string | Buffer, config: Record<string, unknown> = {}) => {
    fs.writeFileSync(path.join(service.app.config.dataDir, `${ref}.csv`), bytes);
    const conn = await connect(ref, 'csv', {
      path: `${ref}.csv`,
      mapping: exportMapping,
      defaults: { channel: 'search', currency: 'EUR' },
      ...config,
    });
    expect(conn.status).toBe(200);
    return runDatastream(ref, ref, 'csv');
  };

  beforeAll(async () => {
    service = await startService(store, { clock, env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
    await createProject(service, P, 'EUR');
    await seedRates(service, [['USD', '2026-05-15', 1.1]]);
    files = http.createServer((req, res) => {
      if (req.url === '/exports/endless.csv') {
        endless(res);
        return;
      }
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

  it('reads a BOM, CRLF line ends, quoted newlines and UTF-16 or Windows-1252 exports', async () => {
    const utf8 = '\uFEFFday,campaign,name,spend\r\n2026-05-18,bom,"Caf\u00e9\r\nline two, ""quoted""",4.5\r\n\r\n';
    expect(await runFile('bom', utf8)).toMatchObject({ status: 'succeeded', rows_read: 1 });
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('day\tcampaign\tname\tspend\r\n2026-05-18\tu16\tCaf\u00e9 \u20ac\t2\r\n', 'utf16le'),
    ]);
    expect(await runFile('u16', utf16, { delimiter: '\t' })).toMatchObject({ status: 'succeeded', rows_read: 1 });
    // Windows-1252: 0xE9 is é and 0x80 is €, which a UTF-8 reader would refuse.
    const cp1252 = Buffer.from([
      ...Buffer.from('day;campaign;name;spend\n2026-05-18;cp;Caf'),
      0xe9,
      0x20,
      0x80,
      ...Buffer.from(';3\n'),
    ]);
    expect(await runFile('cp', cp1252, { delimiter: ';', encoding: 'windows-1252' })).toMatchObject({
      status: 'succeeded',
      rows_read: 1,
    });
    const names = await service.app.db.query<{ campaign_id: string; campaign_name: string }>(
      "SELECT campaign_id, campaign_name FROM ad_performance_daily WHERE project_id = $1 AND campaign_id IN ('bom', 'u16', 'cp') ORDER BY campaign_id",
      [P],
    );
    expect(names).toEqual([
      { campaign_id: 'bom', campaign_name: 'Caf\u00e9\r\nline two, "quoted"' },
      { campaign_id: 'cp', campaign_name: 'Caf\u00e9 \u20ac' },
      { campaign_id: 'u16', campaign_name: 'Caf\u00e9 \u20ac' },
    ]);
  });

  it('refuses an unterminated quote and mixed encodings, naming the line, and stores nothing', async () => {
    const open = '"day",campaign,name,spend\n2026-05-18,q1,fine,1\n2026-05-18,q2,"never closed,2\n2026-05-18,q3,x,3\n';
    const unclosed = await runFile('unclosed', open);
    expect(unclosed).toMatchObject({
      status: 'failed',
      error: 'row 3 opens a quote that is never closed: the " takes in the rest of the file',
    });
    // Line 3 is Windows-1252 (0xE9) in a UTF-8 file.
    const mixed = Buffer.concat([
      Buffer.from('day,campaign,name,spend\n2026-05-18,m1,Caf\u00e9,1\n2026-05-18,m2,Caf'),
      Buffer.from([0xe9]),
      Buffer.from(',2\n'),
    ]);
    const refused = await runFile('mixed', mixed);
    expect(refused.status).toBe('failed');
    expect(refused.error).toBe(
      'line 3 is not valid UTF-8 (a mix of encodings?): save the export as UTF-8, or set "encoding" to the one it was ' +
        'written in (utf-16le, utf-16be, windows-1252)',
    );
    for (const campaign of ['q1', 'q2', 'q3', 'm1', 'm2']) expect(await stored(campaign)).toBe(0);
    const badDelimiter = await connect('quote-delimiter', 'csv', {
      path: 'x.csv',
      delimiter: '"',
      mapping: exportMapping,
      defaults: { channel: 'search', currency: 'EUR' },
    });
    expect(badDelimiter.body.errors).toEqual([
      { path: 'config.delimiter', message: 'must not be a quote or a line break' },
    ]);
  });

  it('stops reading at a 100 MB line, from a file or a URL, with a clear error', async () => {
    const tooLong = 'line 2 is longer than 1,048,576 bytes: is this an export, and are its format and delimiter right?';
    // A sparse file: a header, then 100 MB of one line (NUL bytes, which UTF-8 allows).
    const file = path.join(service.app.config.dataDir, 'huge.csv');
    fs.writeFileSync(file, 'day,campaign,name,spend\n');
    fs.truncateSync(file, 100 * 1024 * 1024);
    await connect('huge', 'csv', {
      path: 'huge.csv',
      mapping: exportMapping,
      defaults: { channel: 'search', currency: 'EUR' },
    });
    expect(await runDatastream('huge', 'huge', 'csv')).toMatchObject({ status: 'failed', error: tooLong });
    await connect('endless', 'csv', {
      url: filesUrl.replace('ads.csv', 'endless.csv'),
      mapping: { date: 'day', campaign_id: 'campaign', spend: 'spend' },
      defaults: { channel: 'search', currency: 'EUR' },
    });
    const verified = await api(`${service.url}/api/credentials/verify`, {
      method: 'POST',
      json: { project_id: P, provider: 'csv', connection_ref_id: 'endless' },
    });
    expect(verified.body).toMatchObject({ status: 'error', connectivity: { ok: false, reason: tooLong } });
    await endlessSent.closed;
    // The reader gave up after about a megabyte; what left the server beyond it is socket buffering.
    expect(endlessSent.bytes).toBeLessThan(16 * 1024 * 1024);
    expect(await runDatastream('endless', 'endless', 'csv')).toMatchObject({ status: 'failed', error: tooLong });
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
