// One configuration of bench:sources, in a process of its own so its peak RSS is its own.
//   tsx bench/sources-run.ts <duckdb|bigquery|google_ads|meta_ads> <raw|pipeline> <rows>
// Prints one JSON line: { provider, mode, rows, seconds, rows_per_s, peak_rss_mb, requests }.
// `raw` reads the same loopback server with fetch + JSON.parse (duckdb: the engine's own stream);
// `pipeline` is a full datastream run of the provider into PostgreSQL through the service.
import '../src/platform/zod-runtime.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { createServiceApp } from '../src/app/service-app.js';
import { addDays, parseServiceAccount, signAssertion } from '../src/modules/providers/index.js';
import { ManualClock } from '../src/platform/clock.js';
import { loadConfig } from '../src/platform/config.js';
import { PostgresDatabase } from '../src/platform/db/postgres.js';
import { createLogger } from '../src/platform/logger.js';
import { startBigQueryServer } from '../test/support/sources/bigquery-server.js';
import { ADS, startGoogleAdsServer } from '../test/support/sources/google-ads-server.js';
import { META_ACCOUNT, startMetaServer } from '../test/support/sources/meta-server.js';

const [provider, mode, rowsArg] = process.argv.slice(2) as [string, 'raw' | 'pipeline', string];
const DAYS = 400;
const keyOf = (key: Record<string, string>) => {
  const parsed = parseServiceAccount(JSON.stringify(key));
  if (!('key' in parsed)) throw new Error(parsed.problem);
  return parsed.key;
};
const campaigns = Math.round(Number(rowsArg) / DAYS);
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TODAY = '2026-04-13';
const START = addDays(TODAY, -(DAYS - 1));
const clock = new ManualClock(`${TODAY}T15:00:00Z`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-bench-sources-'));

let requests = 0;
const logLines = { write(_line: string) {} };

// The raw reader reads each platform's documented JSON without schemas, as a plain client would.
async function json(url: string, init: RequestInit = {}): Promise<any> {
  requests += 1;
  const res = await fetch(url, init);
  return JSON.parse(await res.text());
}

/** The source, set up, and what a connection to it is. */
async function source(): Promise<{
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
  raw(): Promise<number>;
  served(): number;
  close(): Promise<void>;
}> {
  if (provider === 'duckdb') {
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    await conn.run(
      `COPY (SELECT DATE '${START}' + CAST(d AS INTEGER) AS day, 'c' || c AS campaign_id, 'Campaign ' || c AS campaign_name,
                    'search' AS channel, 'EUR' AS currency, CAST((d * 7919 + c * 104729) % 100000 AS DECIMAL(18,6)) / 1000 AS spend,
                    (d + c) % 5000 AS impressions, (d + c) % 300 AS clicks, ((d + c) % 17) + 0.5 AS conversions,
                    CAST((d * 31 + c) % 9973 AS DECIMAL(18,6)) / 100 AS revenue
               FROM range(${DAYS}) t1(d), range(${campaigns}) t2(c)) TO '${dataDir}/ads.parquet' (FORMAT parquet)`,
    );
    conn.closeSync();
    instance.closeSync();
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
    return {
      config: { path: 'ads.parquet', mapping },
      secrets: {},
      served: () => 0,
      async raw() {
        const i = await DuckDBInstance.create(':memory:', { threads: '1' });
        const c = await i.connect();
        const result = await c.stream(
          `SELECT * FROM read_parquet('${dataDir}/ads.parquet') WHERE day BETWEEN $from AND $to`,
          { from: START, to: TODAY },
        );
        let n = 0;
        for await (const rows of result.yieldRowObjectJson()) n += rows.length;
        c.closeSync();
        i.closeSync();
        return n;
      },
      close: async () => undefined,
    };
  }
  if (provider === 'bigquery') {
    const bq = await startBigQueryServer({ location: 'EU', project: 'bench-proj', now: () => clock.now() });
    bq.data = { from: START, to: TODAY, campaigns, version: () => 0 };
    const mapping = {
      date: 'day',
      campaign_id: 'campaign.id',
      campaign_name: 'campaign.name',
      channel: 'channel',
      currency: 'currency',
      spend: 'spend',
      impressions: 'impressions',
      clicks: 'clicks',
      conversions: 'conversions',
      revenue: 'revenue',
    };
    return {
      config: {
        api_base_url: bq.url,
        project: 'bench-proj',
        location: 'EU',
        query: 'SELECT * FROM t WHERE day BETWEEN @from AND @to',
        mapping,
        page_rows: 10_000,
      },
      secrets: { service_account_json: JSON.stringify(bq.key) },
      served: () => bq.requests.length,
      async raw() {
        // The access token as any client would get it, then the documented calls.
        const tokenAnswer = await json(`${bq.url}/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            assertion: await signAssertion(
              keyOf(bq.key),
              `${bq.url}/token`,
              'https://www.googleapis.com/auth/bigquery',
              clock.now(),
            ),
          }),
        });
        const headers = { authorization: `Bearer ${tokenAnswer.access_token}`, 'content-type': 'application/json' };
        const base = `${bq.url}/bigquery/v2/projects/bench-proj/queries`;
        const param = (name: string, value: string) => ({
          name,
          parameterType: { type: 'DATE' },
          parameterValue: { value },
        });
        let answer = await json(base, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            query: 'q',
            useLegacySql: false,
            location: 'EU',
            maxResults: 10_000,
            queryParameters: [param('from', START), param('to', TODAY)],
          }),
        });
        const job = answer.jobReference.jobId;
        while (!answer.jobComplete) answer = await json(`${base}/${job}?location=EU&maxResults=0`, { headers });
        answer = await json(`${base}/${job}?location=EU&maxResults=10000&formatOptions.useInt64Timestamp=true`, {
          headers,
        });
        let n = 0;
        for (;;) {
          n += answer.rows?.length ?? 0;
          if (!answer.pageToken) return n;
          answer = await json(
            `${base}/${job}?location=EU&maxResults=10000&formatOptions.useInt64Timestamp=true&pageToken=${answer.pageToken}`,
            { headers },
          );
        }
      },
      close: () => bq.close(),
    };
  }
  if (provider === 'google_ads') {
    const ads = await startGoogleAdsServer();
    ads.data = { from: START, to: TODAY, campaigns, version: () => 0 };
    return {
      config: {
        customer_id: ADS.customer,
        login_customer_id: ADS.manager,
        api_base_url: ads.url,
        token_url: `${ads.url}/token`,
      },
      secrets: {
        developer_token: ADS.developerToken,
        client_id: ADS.clientId,
        client_secret: ADS.clientSecret,
        refresh_token: ADS.refreshToken,
      },
      served: () => ads.reports,
      async raw() {
        const t = await json(`${ads.url}/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: ADS.refreshToken,
            client_id: ADS.clientId,
            client_secret: ADS.clientSecret,
          }),
        });
        const headers = {
          authorization: `Bearer ${t.access_token}`,
          'developer-token': ADS.developerToken,
          'login-customer-id': ADS.manager,
          'content-type': 'application/json',
        };
        let n = 0;
        for (let offset = 0; offset < DAYS; offset += 7) {
          const from = addDays(START, offset);
          const to = addDays(START, Math.min(DAYS - 1, offset + 6));
          const body = await json(`${ads.url}/v26/customers/${ADS.customer}/googleAds:searchStream`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ query: `SELECT x FROM campaign WHERE segments.date BETWEEN '${from}' AND '${to}'` }),
          });
          for (const batch of body) n += batch.results?.length ?? 0;
        }
        return n;
      },
      close: () => ads.close(),
    };
  }
  const meta = await startMetaServer();
  meta.data = { from: START, to: TODAY, campaigns, version: () => 0 };
  meta.usagePct = Number(process.env.BENCH_META_USAGE ?? 50);
  return {
    config: { ad_account_id: META_ACCOUNT, api_base_url: meta.url, page_size: 5000 },
    secrets: { access_token: meta.token },
    served: () => meta.requests.length,
    async raw() {
      let n = 0;
      for (let offset = 0; offset < DAYS; offset += 7) {
        const since = addDays(START, offset);
        const until = addDays(START, Math.min(DAYS - 1, offset + 6));
        let after: string | undefined;
        for (;;) {
          const url = new URL(`${meta.url}/v27.0/act_${META_ACCOUNT}/insights`);
          url.search = new URLSearchParams({
            level: 'campaign',
            time_increment: '1',
            time_range: JSON.stringify({ since, until }),
            limit: '5000',
            ...(after ? { after } : {}),
          }).toString();
          const body = await json(url.toString(), { headers: { authorization: `Bearer ${meta.token}` } });
          n += body.data.length;
          if (!body.paging?.next) break;
          after = body.paging.cursors.after;
        }
      }
      return n;
    },
    close: () => meta.close(),
  };
}

async function pipeline(src: Awaited<ReturnType<typeof source>>): Promise<number> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = new PostgresDatabase({ url: PG_URL, schema, maxConnections: 5 });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    LOG_LEVEL: 'silent',
    PORT: '0',
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const app = await createServiceApp({
    config,
    db,
    clock,
    logger: createLogger({ level: 'info', destination: logLines }),
  });
  try {
    const ctx = app.systemContext();
    await app.services.projects.create(ctx, {
      id: 'proj_bench',
      name: 'bench',
      reporting_currency: 'EUR',
      timezone: 'UTC',
    });
    await app.services.credentials.upsert(ctx, {
      project_id: 'proj_bench',
      provider,
      connection_ref_id: 'bench',
      config: src.config,
      secrets: src.secrets,
    });
    const ds = await app.services.flows.upsert(ctx, {
      project_id: 'proj_bench',
      kind: 'datastream',
      definition: {
        name: 'bench',
        connection_ref_id: 'bench',
        provider,
        cadence: 'manual',
        retrieval_window: { lookback_days: 1, start_date: START },
      },
    });
    if (ds.kind !== 'datastream') throw new Error('unexpected');
    await app.jobs.start();
    const started = performance.now();
    const queued = await app.services.flows.runNow(ctx, ds.datastream.id);
    for (;;) {
      const r = (await app.services.flows.getRun(queued.id))!;
      if (r.status === 'succeeded') break;
      if (r.status === 'failed') throw new Error(`run failed: ${r.error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return (performance.now() - started) / 1000;
  } finally {
    await app.close();
    await db.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin.end();
  }
}

const src = await source();
let seconds: number;
let rows = campaigns * DAYS;
if (mode === 'raw') {
  const started = performance.now();
  rows = await src.raw();
  seconds = (performance.now() - started) / 1000;
} else {
  seconds = await pipeline(src);
  requests = src.served();
}
await src.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({ provider, mode, rows, seconds: Number(seconds.toFixed(2)), rows_per_s: Math.round(rows / seconds), peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), requests })}\n`,
);
process.exit(0);
