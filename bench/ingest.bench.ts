// npm run bench:ingest [-- --write]
// The demo provider generating 1,000,000 daily rows (2,740 campaigns × 365 days), ingested end to
// end (raw landing + ad_performance_daily + kpis_daily, queued through the jobs platform) on PGlite
// and on PostgreSQL, side by side with a plain PostgreSQL COPY (psql \copy) of the same rows into
// one table, the practical limit. Each configuration runs in a process of its own, so peak RSS is
// its own; it is measured at 250k and 1M rows to show memory stays flat as the window grows.
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(import.meta.dirname, '..');
const write = process.argv.includes('--write');
const DAYS = 365;
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
// × 365 days ≈ 250k and 1M rows; `--rows=1000000` (comma-separated) for a quicker loop.
const SIZES = flag('rows')
  ?.split(',')
  .map((n) => Math.round(Number(n) / DAYS)) ?? [685, 2740];
// `--no-pglite` skips the PGlite rows (iterating on the PostgreSQL path); --write needs them.
const PGLITE = !process.argv.includes('--no-pglite');
if (write && (!PGLITE || flag('rows'))) throw new Error('--write records the full table: drop --rows and --no-pglite');

interface Result {
  store: string;
  mode: string;
  rows: number;
  seconds: number;
  rows_per_s: number;
  peak_rss_mb: number;
  /** Pipeline runs: the run log's timing (seconds). */
  phases?: { land_s: number; after_land_s: number; model_s: Record<string, number> };
}

function run(store: string, mode: string, campaigns: number): Result {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/ingest-run.ts'), store, mode, String(campaigns), String(DAYS)],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    },
  );
  const line = out.trim().split('\n').at(-1)!;
  const result = JSON.parse(line) as Result;
  process.stderr.write(`${JSON.stringify(result)}\n`);
  return result;
}

const loadBefore = os.loadavg()[0]!.toFixed(1);
// The machine is shared and its speed drifts by tens of percent within minutes, so the PostgreSQL
// pair (COPY, then the pipeline) runs several rounds back to back and each round gives a ratio; the
// table shows the median round. PGlite runs once per size (no ratio depends on it).
const ROUNDS = Number(flag('rounds') ?? 3);

interface Row extends Result {
  ratio: number;
  ratios: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Row[] = [];
for (const campaigns of SIZES) {
  const pairs: { copy: Result; pipeline: Result }[] = [];
  for (let round = 0; round < ROUNDS; round += 1)
    pairs.push({ copy: run('postgres', 'copy', campaigns), pipeline: run('postgres', 'pipeline', campaigns) });
  const ratios = pairs.map((p) => p.pipeline.rows_per_s / p.copy.rows_per_s);
  const mid = pairs[ratios.indexOf(median(ratios))]!;
  rows.push({ ...mid.copy, ratio: 1, ratios: [] });
  rows.push({ ...mid.pipeline, ratio: median(ratios), ratios });
  if (PGLITE) {
    const pglite = run('pglite', 'pipeline', campaigns);
    rows.push({ ...pglite, ratio: pglite.rows_per_s / mid.copy.rows_per_s, ratios: [] });
  }
}
const results: Result[] = rows;

const fmt = (n: number) => n.toLocaleString('en-US');
const lines = [
  `| rows | what | seconds | rows/s | × COPY rate (median of ${ROUNDS} rounds; each round) | peak RSS (MB) |`,
  '|---:|---|---:|---:|---|---:|',
  ...rows.map((r) => {
    const label =
      r.mode === 'copy'
        ? 'PostgreSQL: plain `COPY` into one table (psql `\\copy`)'
        : `${r.store === 'pglite' ? 'PGlite (on disk)' : 'PostgreSQL'}: ingestion + both models`;
    const each = r.ratios.length ? ` (${r.ratios.map((x) => x.toFixed(2)).join(', ')})` : '';
    return `| ${fmt(r.rows)} | ${label} | ${r.seconds} | ${fmt(r.rows_per_s)} | ${r.ratio.toFixed(2)}${each} | ${r.peak_rss_mb} |`;
  }),
];
const table = lines.join('\n');
process.stdout.write(`${table}\n`);

/** The analysis paragraph, with every figure taken from this run (only the design notes are fixed text). */
function reading(): string {
  const at = (store: string, mode: string, rows: number) =>
    results.find((r) => r.store === store && r.mode === mode && r.rows === rows)!;
  const [small, large] = [results[0]!.rows, results.at(-1)!.rows];
  const ratio = (n: number) => rows.find((r) => r.store === 'postgres' && r.mode === 'pipeline' && r.rows === n)!.ratio;
  const largeRatio = ratio(large);
  const verdict = largeRatio >= 0.5 ? 'the goal of 0.5× is **met**' : 'the goal of 0.5× is **not met**';
  const rssGrowth = (store: string) =>
    at(store, 'pipeline', large).peak_rss_mb - at(store, 'pipeline', small).peak_rss_mb;
  const pg = at('postgres', 'pipeline', large);
  const ph = pg.phases!;
  const model = (name: string) => `${ph.model_s[name] ?? 0} s`;
  return [
    `Reading it: on PostgreSQL the whole run reaches **${largeRatio.toFixed(2)}×** the COPY rate at ${fmt(large)} rows in the median round`,
    `(${ratio(small).toFixed(2)}× at ${fmt(small)}): ${verdict} in this run.`,
    ...(ratio(small) < 0.5
      ? [
          `At ${fmt(small)} rows the run stays below 0.5×: what does not shrink with the window (the rates lookup before the first`,
          `chunk, \`kpis_daily\` and \`anomalies_daily\` after the last) weighs more against a ${at('postgres', 'copy', small).seconds} s COPY.`,
        ]
      : []),
    '',
    `Where the time goes (PostgreSQL, ${fmt(large)} rows, median round, from the run log): the landing took ${ph.land_s} s of the ${pg.seconds} s, in`,
    'chunks of 50,000 records, each a COPY of its own, committed. Meanwhile the model transaction, on a second connection, converted',
    `each landed chunk into \`ad_performance_daily\`: that model's statements took ${model('ad_performance_daily')} in all, the longest path of the run. It is`,
    'an insert into a logged table with a four-column key, so per row it costs more than the landing; on 2 cores it also shares',
    'the CPU with the landing (the Node process and its COPY) while that lasts. What remained after the landing took',
    `${ph.after_land_s} s: the chunks the conversion had not reached yet, then \`kpis_daily\` (${model('kpis_daily')}) and \`anomalies_daily\` (${model('anomalies_daily')}).`,
    '',
    'Design notes. `ad_performance_daily` copies raw rows one-to-one (converted at the rate of the spend date) and lets its key',
    'detect a source that repeats a campaign-day: that insert then rolls back to a savepoint and, once the run has landed, the',
    'grouped insert sums the duplicates (grouping every window cost about a quarter of the step). The rates are looked up before',
    'the first chunk, for every currency with rates and every day of the window; a chunk that writes fewer rows than it landed has',
    'a pair without a rate, and the run then fails with the same message as before. The Node side encodes the COPY text straight',
    'into Buffers (strings, their concatenation and UTF-8 conversion cost about three times as much and fed the garbage',
    'collector); JIT is off in the model transaction (a compilation cost more than the statements it sped up). `kpis_daily`',
    "aggregates with a hash instead of a sort that spilled to disk. The job platform's one-time start is outside the timed window,",
    'as it is for a serving process.',
    '',
    `PGlite is single-threaded WASM and keeps the sequential path (land, then build): ${fmt(at('pglite', 'pipeline', large).rows_per_s)} rows/s.`,
    `Peak RSS grows little as the window grows ${(large / small).toFixed(0)}× (PostgreSQL ${signed(rssGrowth('postgres'))} MB, PGlite`,
    `${signed(rssGrowth('pglite'))} MB): records stream through, the window is never held in memory.`,
    'Compare ratios, not seconds, across runs: the machine is shared and its speed varies between sessions.',
    '',
  ].join('\n');
}
const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

if (write) {
  const file = path.join(root, 'BENCHMARKS.md');
  const section = [
    '## ingest',
    '',
    `Command: \`npm run bench:ingest -- --write\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores shared with other work: load average ${loadBefore} at the start and ${os.loadavg()[0]!.toFixed(1)} at the end; Node ${process.version}, PostgreSQL 15 on loopback).`,
    '',
    'The demo provider generates the rows (2,740 campaigns × 365 days ≈ 1M, and 685 × 365 ≈ 250k). "Ingestion + both models" is',
    'one datastream run queued through pg-boss: stream from the provider into `raw_ad_records` and rebuild',
    "`ad_performance_daily` (currency conversion at the spend date's rate) and `kpis_daily` for the window in one transaction",
    '(plus any model other modules registered, e.g. `anomalies_daily`). On PostgreSQL the landing is a COPY per chunk of 50,000',
    'records and `ad_performance_daily` follows it chunk by chunk on a second connection; PGlite lands in `unnest` batches of',
    '5,000, then builds. The COPY line streams the same generated rows as CSV into one plain table: the practical limit for',
    'getting rows into PostgreSQL.',
    "Peak RSS is the Node process (for PGlite it includes the embedded database; PostgreSQL's server memory is not counted).",
    '',
    table,
    '',
    reading(),
    '',
  ].join('\n');
  writeBenchmarkSection(file, 'ingest', section);
  process.stdout.write('BENCHMARKS.md updated (## ingest)\n');
}
