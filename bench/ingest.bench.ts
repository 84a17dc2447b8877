// npm run bench:ingest [-- --write]
// The demo provider generating 1,000,000 daily rows (2,740 campaigns × 365 days), ingested end to
// end (raw landing + ad_performance_daily + kpis_daily, queued through the jobs platform) on PGlite
// and on PostgreSQL, side by side with a plain PostgreSQL COPY (psql \copy) of the same rows into
// one table, the practical limit. Each configuration runs in a process of its own, so peak RSS is
// its own; it is measured at 250k and 1M rows to show memory stays flat as the window grows.
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const write = process.argv.includes('--write');
const DAYS = 365;
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
// × 365 days ≈ 250k and 1M rows; `--rows=1000000` (comma-separated) for a quicker loop.
const SIZES = flag('rows')?.split(',').map((n) => Math.round(Number(n) / DAYS)) ?? [685, 2740];
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
}

function run(store: string, mode: string, campaigns: number): Result {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/ingest-run.ts'), store, mode, String(campaigns), String(DAYS)], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
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
  for (let round = 0; round < ROUNDS; round += 1) pairs.push({ copy: run('postgres', 'copy', campaigns), pipeline: run('postgres', 'pipeline', campaigns) });
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
    const label = r.mode === 'copy' ? 'PostgreSQL: plain `COPY` into one table (psql `\\copy`)' : `${r.store === 'pglite' ? 'PGlite (on disk)' : 'PostgreSQL'}: ingestion + both models`;
    const each = r.ratios.length ? ` (${r.ratios.map((x) => x.toFixed(2)).join(', ')})` : '';
    return `| ${fmt(r.rows)} | ${label} | ${r.seconds} | ${fmt(r.rows_per_s)} | ${r.ratio.toFixed(2)}${each} | ${r.peak_rss_mb} |`;
  }),
];
const table = lines.join('\n');
process.stdout.write(`${table}\n`);

/** The analysis paragraph, with every figure taken from this run (only the design notes are fixed text). */
function reading(): string {
  const at = (store: string, mode: string, rows: number) => results.find((r) => r.store === store && r.mode === mode && r.rows === rows)!;
  const [small, large] = [results[0]!.rows, results.at(-1)!.rows];
  const ratio = (n: number) => rows.find((r) => r.store === 'postgres' && r.mode === 'pipeline' && r.rows === n)!.ratio;
  const largeRatio = ratio(large);
  const verdict = largeRatio >= 0.5 ? 'the goal of 0.5× is **met**' : 'the goal of 0.5× is **not met**';
  const rssGrowth = (store: string) => at(store, 'pipeline', large).peak_rss_mb - at(store, 'pipeline', small).peak_rss_mb;
  return [
    `Reading it: on PostgreSQL the whole run reaches **${largeRatio.toFixed(2)}×** the COPY rate at ${fmt(large)} rows in the median round`,
    `(${ratio(small).toFixed(2)}× at ${fmt(small)}): ${verdict} in this run. The landing is a COPY of its own (≈ the baseline);`,
    'the rest is the model step in one transaction. `ad_performance_daily` first copies the raw rows one-to-one (converted',
    'to the reporting currency) into a table whose only index is its key, `(project_id, date, datastream_id, campaign_id)`;',
    'only when a source repeats a campaign-day does that insert fail, roll back to a savepoint and run the grouped insert that',
    'sums the duplicates (grouping every window cost about a quarter of the step). `kpis_daily` aggregates',
    'with a hash instead of a sort that spilled to disk. The job platform\'s one-time start is outside the timed window, as',
    `it is for a serving process. PGlite is single-threaded WASM: ${fmt(at('pglite', 'pipeline', large).rows_per_s)} rows/s.`,
    `Peak RSS grows little as the window grows ${(large / small).toFixed(0)}× (PostgreSQL ${signed(rssGrowth('postgres'))} MB, PGlite`,
    `${signed(rssGrowth('pglite'))} MB, most of it the generator's and driver's buffers): records stream through, the window is never held in memory.`,
    'Compare ratios, not seconds, across runs: the machine is shared and its speed varies between sessions.',
    '',
  ].join('\n');
}
const signed = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

if (write) {
  const file = path.join(root, 'BENCHMARKS.md');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const section = [
    '## ingest',
    '',
    `Command: \`npm run bench:ingest -- --write\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores shared with other work: load average ${loadBefore} at the start and ${os.loadavg()[0]!.toFixed(1)} at the end; Node ${process.version}, PostgreSQL 15 on loopback).`,
    '',
    'The demo provider generates the rows (2,740 campaigns × 365 days ≈ 1M, and 685 × 365 ≈ 250k). "Ingestion + both models" is',
    'one datastream run queued through pg-boss: stream from the provider into `raw_ad_records` (COPY on PostgreSQL, `unnest`',
    'batches of 5,000 on PGlite), then `ad_performance_daily` (currency conversion at the spend date\'s rate) and `kpis_daily`',
    'rebuilt for the window in one transaction (plus any model other modules registered, e.g. `anomalies_daily`). The COPY line',
    'streams the same generated rows as CSV into one plain table: the practical limit for getting rows into PostgreSQL.',
    'Peak RSS is the Node process (for PGlite it includes the embedded database; PostgreSQL\'s server memory is not counted).',
    '',
    table,
    '',
    reading(),
    '',
  ].join('\n');
  const re = /## ingest\n[\s\S]*?(?=\n## |$)/;
  fs.writeFileSync(file, re.test(text) ? text.replace(re, section) : `${text.trimEnd()}\n\n${section}`);
  process.stdout.write('BENCHMARKS.md updated (## ingest)\n');
}
