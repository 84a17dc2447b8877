// One configuration of bench:ingest, in a process of its own so its peak RSS is its own.
//   tsx bench/ingest-run.ts <pglite|postgres> <pipeline|copy> <campaigns> <days>
// Prints one JSON line: { store, mode, rows, seconds, rows_per_s, peak_rss_mb[, phases] }; `phases`
// (pipeline only) is the run log's timing: landing, what follows it, each model's own statements.
// zod configured as the CLI entry configures it, before any schema is built.
import '../src/platform/zod-runtime.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createServiceApp } from '../src/app/service-app.js';
import { ManualClock } from '../src/platform/clock.js';
import { loadConfig } from '../src/platform/config.js';
import type { Database } from '../src/platform/db/database.js';
import { PGLITE_TEMPLATE } from '../src/platform/db/open.js';
import { PgliteDatabase } from '../src/platform/db/pglite.js';
import { PostgresDatabase } from '../src/platform/db/postgres.js';
import { createLogger } from '../src/platform/logger.js';
import { demoProvider, defaultSourceOutbound, addDays } from '../src/modules/providers/index.js';

const [store, mode, campaignsArg, daysArg] = process.argv.slice(2) as [
  'pglite' | 'postgres',
  'pipeline' | 'copy',
  string,
  string,
];
const campaigns = Number(campaignsArg);
const days = Number(daysArg);
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TODAY = '2026-04-13';
const clock = new ManualClock(`${TODAY}T15:00:00Z`);
const window = { from: addDays(TODAY, -(days - 1)), to: TODAY };

async function withSchema<T>(fn: (schema: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    return await fn(schema);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin.end();
  }
}

/** The run log's `ms` (IngestionService: read_and_land, models, per_model), caught from the log stream. */
let runMs: { read_and_land: number; models: number; per_model: Record<string, number> } | undefined;
const logLines = {
  write(line: string) {
    if (process.env.BENCH_LOG) process.stderr.write(line);
    if (!line.includes('datastream run succeeded')) return;
    runMs = (JSON.parse(line) as { ms: typeof runMs }).ms;
  },
};

/** The pipeline: demo provider → raw landing → ad_performance_daily → kpis_daily, through the jobs platform. */
async function pipeline(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-bench-'));
  const run = async (db: Database) => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      LOG_LEVEL: 'silent',
      PORT: '0',
    });
    const app = await createServiceApp({
      config,
      db,
      clock,
      logger: createLogger({ level: process.env.BENCH_LOG ?? 'info', destination: logLines }),
    });
    try {
      const ctx = app.systemContext();
      await app.services.projects.create(ctx, {
        id: 'proj_bench',
        name: 'bench',
        reporting_currency: 'USD',
        timezone: 'UTC',
      });
      // Rates for every day of the window (the bundled snapshot may or may not cover it).
      await db.query(
        `INSERT INTO fx_rates (currency, rate_date, rate_per_eur, source, fetched_at)
         SELECT c, d::date, CASE c WHEN 'USD' THEN 1.1 ELSE 0.86 END, 'bench', now()
         FROM unnest(ARRAY['USD','GBP']) c, generate_series($1::date, $2::date, '1 day') d ON CONFLICT DO NOTHING`,
        [window.from, window.to],
      );
      await app.services.credentials.upsert(ctx, {
        project_id: 'proj_bench',
        provider: 'demo',
        connection_ref_id: 'bench',
        config: { campaigns, seed: 1 },
      });
      const ds = await app.services.flows.upsert(ctx, {
        project_id: 'proj_bench',
        kind: 'datastream',
        definition: {
          name: 'bench',
          connection_ref_id: 'bench',
          provider: 'demo',
          cadence: 'manual',
          retrieval_window: { lookback_days: 1, start_date: window.from },
        },
      });
      if (ds.kind !== 'datastream') throw new Error('unexpected');
      // A serving process has its job platform running; its one-time start (pg-boss installs its
      // schema into the bench's fresh one) is not part of a run.
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
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  if (store === 'pglite') {
    // On disk, as `serve` runs it: data does not sit in the process's memory.
    const db = await PgliteDatabase.open({ dataDir: path.join(dataDir, 'pglite'), templateTarball: PGLITE_TEMPLATE });
    try {
      return await run(db);
    } finally {
      await db.close();
    }
  }
  return withSchema(async (schema) => {
    const db = new PostgresDatabase({ url: PG_URL, schema, maxConnections: 5 });
    try {
      return await run(db);
    } finally {
      await db.close();
    }
  });
}

/** The practical limit: the same rows, generated the same way, COPYed by psql into one plain table. */
async function copy(): Promise<number> {
  return withSchema(async (schema) => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(
      `CREATE TABLE ${schema}.copy_target (date date, campaign_id text, campaign_name text, channel text, currency char(3), spend numeric, impressions bigint, clicks bigint, conversions numeric, revenue numeric)`,
    );
    await admin.end();
    const started = performance.now();
    const psql = spawn('psql', [PG_URL, '-q', '-c', `\\copy ${schema}.copy_target FROM STDIN WITH (FORMAT csv)`], {
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    const done = new Promise<number>((resolve) => psql.once('exit', (code) => resolve(code ?? 1)));
    const ctx = {
      config: { campaigns, seed: 1, incidents: true },
      secrets: {},
      dataDir: '',
      clock,
      outbound: defaultSourceOutbound(),
    };
    let chunk = '';
    for await (const r of demoProvider.fetch(ctx, window)) {
      chunk += `${r.date},${r.campaign_id},"${r.campaign_name}",${r.channel},${r.currency},${r.spend},${r.impressions},${r.clicks},${r.conversions},${r.revenue}\n`;
      if (chunk.length > 1 << 20) {
        if (!psql.stdin.write(chunk)) await new Promise((resolve) => psql.stdin.once('drain', resolve));
        chunk = '';
      }
    }
    psql.stdin.end(chunk);
    if ((await done) !== 0) throw new Error('psql COPY failed');
    return (performance.now() - started) / 1000;
  });
}

const seconds = mode === 'copy' ? await copy() : await pipeline();
const rows = campaigns * days;
const s = (ms: number | undefined) => Number(((ms ?? 0) / 1000).toFixed(2));
const phases = runMs && {
  land_s: s(runMs.read_and_land),
  after_land_s: s(runMs.models),
  model_s: Object.fromEntries(Object.entries(runMs.per_model).map(([name, ms]) => [name, s(ms)])),
};
process.stdout.write(
  `${JSON.stringify({ store, mode, rows, seconds: Number(seconds.toFixed(2)), rows_per_s: Math.round(rows / seconds), peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), ...(phases ? { phases } : {}) })}\n`,
);
process.exit(0);
