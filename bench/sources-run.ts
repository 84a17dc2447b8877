// One configuration of bench:sources, in a process of its own so its peak RSS is its own.
//   tsx bench/sources-run.ts <duckdb|bigquery|google_ads|meta_ads> <raw|pipeline> <rows> [postgres|pglite]
// Prints one JSON line: { provider, mode, store, rows, seconds, rows_per_s, peak_rss_mb, requests, source_wait_ms }.
// `raw` reads the same loopback server with fetch + JSON.parse (duckdb: the engine's own stream);
// `pipeline` is a full datastream run of the provider into the store through the service. The
// platform's server runs in a forked process (sources-server.ts): its CPU and memory are its own.
// BENCH_CPU_PROF=1 writes a CPU profile of this process (.cpuprofile, for Chrome DevTools) to
// BENCH_CPU_PROF_DIR (default the system temp directory) and names it on stderr.
import '../src/platform/zod-runtime.js';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { createServiceApp } from '../src/app/service-app.js';
import { addDays, parseServiceAccount, signAssertion } from '../src/modules/providers/index.js';
import { ManualClock } from '../src/platform/clock.js';
import { loadConfig } from '../src/platform/config.js';
import type { Database } from '../src/platform/db/database.js';
import { PGLITE_TEMPLATE } from '../src/platform/db/open.js';
import { PgliteDatabase } from '../src/platform/db/pglite.js';
import { PostgresDatabase } from '../src/platform/db/postgres.js';
import { createLogger } from '../src/platform/logger.js';
import { ADS } from '../test/support/sources/google-ads-server.js';
import { META_ACCOUNT } from '../test/support/sources/meta-server.js';
import type { ServerReady } from './sources-server.js';

const [provider, mode, rowsArg, storeArg] = process.argv.slice(2) as [string, 'raw' | 'pipeline', string, string?];
const store = storeArg === 'pglite' ? 'pglite' : 'postgres';
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
/** What the run waited on its source (rate limits, usage-header pauses), from the run's own record. */
let sourceWaitMs = 0;
/** The run log's phase timings (IngestionService's `ms`), caught from the log stream. */
let runMs: { read_and_land: number; models: number; per_model: Record<string, number> } | undefined;
const logLines = {
  write(line: string) {
    if (line.includes('datastream run succeeded')) runMs = (JSON.parse(line) as { ms: typeof runMs }).ms;
  },
};

/** The platform's loopback server in a process of its own; `requests` asks it what it answered. */
async function forkServer(): Promise<ServerReady & { requests(): Promise<number>; close(): Promise<void> }> {
  const child = fork(
    path.join(import.meta.dirname, 'sources-server.ts'),
    [provider, START, TODAY, String(campaigns), clock.now().toISOString(), process.env.BENCH_META_USAGE ?? '50'],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = <T>(kind: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { kind?: string }) => {
        if (m?.kind !== kind) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(m as T);
      };
      const onExit = (code: number | null) => reject(new Error(`the ${provider} server exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next<ServerReady>('ready');
  return {
    ...ready,
    async requests() {
      const stats = next<{ requests: number }>('stats');
      child.send('stats');
      return (await stats).requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

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
  served(): Promise<number>;
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
      served: async () => 0,
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
    const bq = await forkServer();
    const key = bq.key!;
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
      secrets: { service_account_json: JSON.stringify(key) },
      served: () => bq.requests(),
      async raw() {
        // The access token as any client would get it, then the documented calls.
        const tokenAnswer = await json(`${bq.url}/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            assertion: await signAssertion(
              keyOf(key),
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
    const ads = await forkServer();
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
      served: () => ads.requests(),
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
  const meta = await forkServer();
  const token = meta.token!;
  return {
    config: { ad_account_id: META_ACCOUNT, api_base_url: meta.url, page_size: 5000 },
    secrets: { access_token: token },
    served: () => meta.requests(),
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
          const body = await json(url.toString(), { headers: { authorization: `Bearer ${token}` } });
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

/** A fresh store: a schema of its own on PostgreSQL, or PGlite on disk as `serve` runs it. */
async function openStore(): Promise<{ db: Database; drop(): Promise<void> }> {
  if (store === 'pglite') {
    const db = await PgliteDatabase.open({ dataDir: path.join(dataDir, 'pglite'), templateTarball: PGLITE_TEMPLATE });
    return { db, drop: () => db.close() };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = new PostgresDatabase({ url: PG_URL, schema, maxConnections: 5 });
  return {
    db,
    async drop() {
      await db.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
      await admin.end();
    },
  };
}

async function pipeline(src: Awaited<ReturnType<typeof source>>): Promise<number> {
  const { db, drop } = await openStore();
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
      if (r.status === 'succeeded') {
        sourceWaitMs = Number(r.source_wait_ms);
        break;
      }
      if (r.status === 'failed') throw new Error(`run failed: ${r.error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return (performance.now() - started) / 1000;
  } finally {
    await app.close();
    await drop();
  }
}

/** BENCH_CPU_PROF=1: profiles `fn` with the inspector and writes the profile where it says. */
async function profiled<T>(fn: () => Promise<T>): Promise<T> {
  if (!process.env.BENCH_CPU_PROF) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const dir = process.env.BENCH_CPU_PROF_DIR ?? os.tmpdir();
    const file = path.join(dir, `sources-${provider}-${mode}-${store}-${rowsArg}-${Date.now()}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    process.stderr.write(`CPU profile: ${file}\n`);
    session.disconnect();
  }
}

const src = await source();
let seconds: number;
let rows = campaigns * DAYS;
if (mode === 'raw') {
  const started = performance.now();
  rows = await profiled(() => src.raw());
  seconds = (performance.now() - started) / 1000;
} else {
  seconds = await profiled(() => pipeline(src));
  requests = await src.served();
}
await src.close();
fs.rmSync(dataDir, { recursive: true, force: true });
const s = (ms: number | undefined) => Number(((ms ?? 0) / 1000).toFixed(2));
const phases = runMs && {
  land_s: s(runMs.read_and_land),
  after_land_s: s(runMs.models),
  model_s: Object.fromEntries(Object.entries(runMs.per_model).map(([name, ms]) => [name, s(ms)])),
};
process.stdout.write(
  `${JSON.stringify({ provider, mode, store, rows, seconds: Number(seconds.toFixed(2)), rows_per_s: Math.round(rows / seconds), peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), requests, source_wait_ms: sourceWaitMs, ...(phases ? { phases } : {}) })}\n`,
);
process.exit(0);
