// npm run bench:anomalies [-- --write] [--projects=100] [--channels=10] [--days=400]
//   [--stores=postgres,pglite] [--repeat=3] [--pglite-repeat=1]  (PGlite's bare pass: --repeat)
//   [--digest]  (an md5 of the full pass's rows: the same rows on both stores, or before and after a change)
//
// Anomaly surveillance at scale: kpis_daily with projects × channels × days rows; 9 metrics per
// channel plus each project's total make the series (100 × (10 + 1) × 9 = 9,900 series × 400 days
// ≈ 4 M points by default). Measures, per store:
//   bare   one window-function pass over the same points (avg and stddev_samp over the same
//          28-day RANGE frame, partitioned by project, channel and metric), aggregated so nothing
//          is shipped to the client: the cost of the statistics alone;
//   full   the real evaluation of every date of every project (one set-based statement per
//          project, writing every row of anomalies_daily with its z, thresholds and fired flag);
//   day    the incremental evaluation of one new day for every project (the after-ingestion path).
// PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
// --write replaces the "## anomalies" section of BENCHMARKS.md with the figures.
// zod configured as the CLI entry configures it, before any schema is built.
import '../src/platform/zod-runtime.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { PgliteDatabase } from '../src/platform/db/pglite.js';
import { PostgresDatabase } from '../src/platform/db/postgres.js';
import { evaluate, lookbackDays, METRICS, TOTAL_CHANNEL, effective } from '../src/modules/anomalies/index.js';
import type { EvaluationPhases } from '../src/modules/anomalies/index.js';
import { addDays } from '../src/platform/calendar.js';
import { readBenchmarkSection, writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const PROJECTS = Number(args.projects ?? 100);
const CHANNELS = Number(args.channels ?? 10);
const DAYS = Number(args.days ?? 400);
const STORES = String(args.stores ?? 'postgres,pglite').split(',');
const REPEAT = Number(args.repeat ?? 3);
/** PGlite runs in this process and takes minutes per pass at full size: fewer repeats there. */
const PGLITE_REPEAT = Number(args['pglite-repeat'] ?? 1);
const FIRST = '2025-01-01';
const settings = effective({});

interface Figures {
  store: string;
  points: number;
  series: number;
  load_s: number;
  bare_s: number;
  full_s: number;
  day_s: number;
  /** The same new day with no saved deques: the precedents and quiet days read back from the stored rows. */
  day_cold_s: number;
  one_s: number;
  rows: number;
  /** --digest: md5 of the full pass's rows as text, in key order. */
  digest?: string;
  fired: number;
  /** Where the best full and one-day passes spent their time (ms). */
  phases: { full: EvaluationPhases; day: EvaluationPhases };
}

const noPhases = (): EvaluationPhases => ({ delete: 0, read: 0, rule: 0, write: 0, episodes: 0 });
const rounded = (p: EvaluationPhases) =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Math.round(v)])) as unknown as EvaluationPhases;

const seconds = async (fn: () => Promise<unknown>) => {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
};

/** Deterministic synthetic KPIs (weekly shape + noise + rare incidents), generated in SQL. */
async function load(db: Database, days: number, from: string): Promise<void> {
  await db.query(
    `INSERT INTO kpis_daily (project_id, date, channel, currency, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr)
     SELECT p, d, c, 'USD', s, r, v, k, i, r / NULLIF(s, 0), s / NULLIF(v, 0), k::numeric / NULLIF(i, 0), v / NULLIF(k, 0)
     FROM (
       SELECT 'proj_b' || lpad(pi::text, 4, '0') AS p, $1::date + di AS d, 'ch' || ci AS c,
         round((100 + 20 * sin(di * 0.9) + 10 * ((hashint4(pi * 7919 + ci * 104729 + di) % 100) / 100.0)
           * CASE WHEN hashint4(pi + ci * 31 + di * 17) % 997 = 0 THEN 4 ELSE 1 END)::numeric, 2) AS s,
         round((400 + 50 * cos(di * 0.9) + 40 * ((hashint4(pi * 31 + ci * 7 + di) % 100) / 100.0))::numeric, 2) AS r,
         (20 + abs(hashint4(pi * 13 + ci + di * 3)) % 7)::numeric AS v,
         (900 + abs(hashint4(pi + ci * 5 + di * 11)) % 200)::bigint AS k,
         (30000 + abs(hashint4(pi * 3 + ci * 19 + di)) % 5000)::bigint AS i
       FROM generate_series(1, $2::int) pi, generate_series(1, $3::int) ci, generate_series(0, $4::int - 1) di
     ) g`,
    [from, PROJECTS, CHANNELS, days],
  );
}

/** The yardstick: the same statistics over the same points, nothing written. */
function bareSql(): string {
  const unpivot = METRICS.map((m, i) => `(${i + 1}, s.${m}::float8)`).join(', ');
  return `
    WITH src AS (
      SELECT project_id, date, channel, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr FROM kpis_daily
      UNION ALL
      SELECT project_id, date, '${TOTAL_CHANNEL}', sum(spend), sum(revenue), sum(conversions), sum(clicks), sum(impressions),
        sum(revenue) / NULLIF(sum(spend), 0), sum(spend) / NULLIF(sum(conversions), 0), sum(clicks)::numeric / NULLIF(sum(impressions), 0), sum(conversions) / NULLIF(sum(clicks), 0)
      FROM kpis_daily GROUP BY project_id, date),
    points AS (
      SELECT s.project_id, s.channel, m.mi, m.value, s.date - DATE '2000-01-03' AS d
      FROM src s CROSS JOIN LATERAL (VALUES ${unpivot}) AS m(mi, value) WHERE m.value IS NOT NULL)
    SELECT count(*) AS n, sum(mean) AS m, sum(sd) AS s FROM (
      SELECT avg(value) OVER f AS mean, stddev_samp(value) OVER f AS sd FROM points
      -- The same partition keys as the evaluation (byte-order text, the metric's number): a fair yardstick.
      WINDOW f AS (PARTITION BY project_id COLLATE "C", channel COLLATE "C", mi ORDER BY d RANGE BETWEEN 28 PRECEDING AND 1 PRECEDING)) w`;
}

async function run(store: string): Promise<Figures> {
  let db: Database;
  let drop = async () => {};
  if (store === 'postgres') {
    const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL for the PostgreSQL run');
    const schema = `bench_anom_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await admin.end();
    db = new PostgresDatabase({ url, schema, maxConnections: 2 });
    drop = async () => {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    };
  } else {
    // A fresh initdb (not the build's template): the bench does not depend on a rebuilt template.
    db = await PgliteDatabase.open();
    drop = () => db.close();
  }
  try {
    await migrate(db);
    const load_s = await seconds(() => load(db, DAYS, FIRST));
    if (store === 'postgres') await db.query('ANALYZE kpis_daily');
    const projects = (await db.query<{ p: string }>('SELECT DISTINCT project_id AS p FROM kpis_daily ORDER BY 1')).map(
      (r) => r.p,
    );
    const last = addDays(FIRST, DAYS - 1);
    let points = 0;
    // The machine is shared: each figure is the best of REPEAT runs (the least disturbed one).
    const repeat = store === 'pglite' ? PGLITE_REPEAT : REPEAT;
    const best = async (fn: () => Promise<unknown>, before?: () => Promise<unknown>, times = repeat) => {
      let min = Infinity;
      for (let i = 0; i < times; i += 1) {
        await before?.();
        min = Math.min(min, await seconds(fn));
      }
      return min;
    };
    // The yardstick is taken REPEAT times on both stores: it is cheap next to PGlite's full pass,
    // and one PGlite bare pass measured 37 s in one run and 53 s in the next, moving the ratio.
    const bare_s = await best(
      async () => {
        // The same session settings as the evaluation (JIT off: see anomalies.repo.ts).
        points = await db.transaction(async (tx) => {
          await tx.query('SET LOCAL jit = off');
          await tx.query("SET LOCAL work_mem = '64MB'");
          return Number((await tx.query<{ n: number }>(bareSql()))[0]!.n);
        });
      },
      undefined,
      REPEAT,
    );
    let rows = 0;
    let fired = 0;
    const phases = { full: noPhases(), day: noPhases() };
    let bestFull = Infinity;
    // Projects that share settings are evaluated together: one pass reads many of them.
    const full_s = await best(
      async () => {
        const p = noPhases();
        const t = process.hrtime.bigint();
        const r = await db.transaction((tx) =>
          evaluate(tx, projects, FIRST, last, addDays(FIRST, -lookbackDays(settings)), settings, p),
        );
        const took = Number(process.hrtime.bigint() - t);
        if (took < bestFull) [bestFull, phases.full] = [took, rounded(p)];
        rows = r.rows;
        fired = r.fired;
      },
      () => db.query('TRUNCATE anomalies_daily'),
    );
    // --digest: one hash of every written row (as text, in key order), to show that two commits or
    // the two stores wrote the same rows; off by default, it reads the whole table once more.
    const digest = args.digest
      ? (
          await db.query<{ h: string }>(
            `SELECT md5(string_agg(a::text, '|' ORDER BY project_id, channel, metric, date)) AS h FROM anomalies_daily a`,
          )
        )[0]!.h
      : undefined;
    // One new day arrives for every project: append it, then evaluate only that date.
    const next = addDays(last, 1);
    await db.query(
      `INSERT INTO kpis_daily SELECT project_id, $2::date, channel, currency, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr FROM kpis_daily WHERE date = $1`,
      [last, next],
    );
    let bestDay = Infinity;
    const day_s = await best(async () => {
      const p = noPhases();
      const t = process.hrtime.bigint();
      await db.transaction((tx) =>
        evaluate(tx, projects, next, next, addDays(next, -lookbackDays(settings)), settings, p),
      );
      const took = Number(process.hrtime.bigint() - t);
      if (took < bestDay) [bestDay, phases.day] = [took, rounded(p)];
    });
    // The after-ingestion path: one project's new day (what a run triggers), averaged over 10 projects.
    const sample = projects.slice(0, 10);
    const one_s =
      (await best(async () => {
        for (const p of sample)
          await db.transaction((tx) => evaluate(tx, p, next, next, addDays(next, -lookbackDays(settings)), settings));
      })) / sample.length;
    // The read-back path: the first evaluation after an upgrade, or after more than SAVED_DAYS
    // without one, finds no saved deques and reads the precedent window's rows (a window function
    // over up to precedent_days of rows per series; here the whole history the bench holds).
    const day_cold_s = await best(
      () =>
        db.transaction((tx) => evaluate(tx, projects, next, next, addDays(next, -lookbackDays(settings)), settings)),
      () => db.query('DELETE FROM anomaly_precedent_state'),
    );
    return {
      store,
      points,
      series: projects.length * (CHANNELS + 1) * METRICS.length,
      load_s,
      bare_s,
      full_s,
      day_s,
      day_cold_s,
      one_s,
      rows,
      fired,
      ...(digest ? { digest } : {}),
      phases,
    };
  } finally {
    await drop();
  }
}

const results: Figures[] = [];
for (const store of STORES) {
  process.stdout.write(`${store}: ${PROJECTS} projects × ${CHANNELS} channels × ${DAYS} days…\n`);
  const f = await run(store);
  results.push(f);
  process.stdout.write(`${JSON.stringify(f)}\n`);
}

const fmt = (n: number) => n.toFixed(2);
const phaseText = (p: EvaluationPhases) =>
  Object.entries(p)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
const file = path.join(root, 'BENCHMARKS.md');
const COLD_LINE = '- one new day, all series, with no saved deques';
const PHASES_LINE = '- where the time went (ms;';
// A run of one store keeps the other store's row (and its note) from the previous --write.
const previous = readBenchmarkSection(file, 'anomalies');
const keptRows = previous
  .split('\n')
  .filter((l) => /^\| (postgres|pglite) \|/.test(l) && !results.some((r) => l.startsWith(`| ${r.store} |`)));
const keptStores = keptRows.map((l) => l.split('|')[1]!.trim());
/** A kept store's part of one of the previous section's lines (`<store> <figures>`, in `sep`-joined parts). */
function keptParts(prefix: string, sep: string): string[] {
  const line = previous.split('\n').find((l) => l.startsWith(prefix));
  if (!line) return [];
  const figures = line.slice(line.indexOf('): ') + 3).replace(/\.$/, '');
  return figures.split(sep).filter((part) => keptStores.some((store) => part.startsWith(`${store} `)));
}
const table = [
  '| store | series | points | bare window pass | full evaluation (rows written) | full / bare | one new day, all series | one new day, one project |',
  '|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.store} | ${r.series.toLocaleString('en-US')} | ${r.points.toLocaleString('en-US')} | ${fmt(r.bare_s)} s | ${fmt(r.full_s)} s (${r.rows.toLocaleString('en-US')}, ${r.fired} fired) | ${(r.full_s / r.bare_s).toFixed(2)}× | ${fmt(r.day_s)} s | ${(r.one_s * 1000).toFixed(0)} ms |`,
  ),
  ...keptRows,
];
process.stdout.write(`\n${table.join('\n')}\n`);

if (args.write) {
  const stores = results.map((r) => r.store).join(', ');
  const section = [
    '## anomalies',
    '',
    `Command: \`npm run bench:anomalies -- --write\` (${PROJECTS} projects × ${CHANNELS} channels × ${DAYS} days of kpis_daily; 9 metrics per channel plus each project's total).`,
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0]!.toFixed(1)} (shared) for ${stores}. Best of ${REPEAT} runs per figure on PostgreSQL; on PGlite best of ${REPEAT} for the bare pass, ${PGLITE_REPEAT} for the others.`,
    ...(keptRows.length
      ? [
          `The ${keptRows.map((l) => l.split('|')[1]!.trim()).join(', ')} row is kept from the previous --write (same command, that store only).`,
        ]
      : []),
    '',
    ...table,
    '',
    '- bare: one `avg` + `stddev_samp` window pass (same 28-day RANGE frame, same unpivot, project totals and partition keys) over the same table, aggregated in the database: the statistics alone, nothing written.',
    '- full: every date of every project through the real evaluation (`evaluate` in src/modules/anomalies/anomalies.evaluate.ts, as the service calls it: points and state read per pass of up to 8,000 project-days, the rule per series in TypeScript, the rows written by binary COPY on PostgreSQL while the next project is computed and on PGlite by one INSERT of a binary array of row composites per 20,000 rows, then the episodes), every row of `anomalies_daily`.',
    '- one new day, all series: the new date of every project in one evaluation (one pass: 56 days of points, the state rows, the precedent deques and quiet days the full pass saved); one project: what one ingestion run triggers (mean of 10).',
    `${COLD_LINE} (the precedents and quiet days read back from the stored rows, as the first evaluation after an upgrade or after more than seven days without one does; here over the ${DAYS} days the bench holds, of the ${settings.precedent_days} the read-back may span): ${[...keptParts(COLD_LINE, ', '), ...results.map((r) => `${r.store} ${fmt(r.day_cold_s)} s`)].join(', ')}.`,
    `${PHASES_LINE} best full pass / best one-day pass; rule = the rule, the explained pass and encoding the rows, write = waiting for the store): ${[...keptParts(PHASES_LINE, '; '), ...results.map((r) => `${r.store} ${phaseText(r.phases.full)} / ${phaseText(r.phases.day)}`)].join('; ')}.`,
    '',
  ].join('\n');
  writeBenchmarkSection(file, 'anomalies', section);
  process.stdout.write(`wrote the "## anomalies" section of ${path.relative(process.cwd(), file)}\n`);
}
