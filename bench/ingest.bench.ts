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
const SIZES = [685, 2740]; // × 365 days ≈ 250k and 1M rows

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
const results: Result[] = [];
for (const campaigns of SIZES) {
  results.push(run('postgres', 'copy', campaigns));
  results.push(run('postgres', 'pipeline', campaigns));
  results.push(run('pglite', 'pipeline', campaigns));
}

const copyAt = (rows: number) => results.find((r) => r.mode === 'copy' && r.rows === rows)!;
const fmt = (n: number) => n.toLocaleString('en-US');
const lines = [
  '| rows | what | seconds | rows/s | × COPY rate | peak RSS (MB) |',
  '|---:|---|---:|---:|---:|---:|',
  ...results.map((r) => {
    const label = r.mode === 'copy' ? 'PostgreSQL: plain `COPY` into one table (psql `\\copy`)' : `${r.store === 'pglite' ? 'PGlite (on disk)' : 'PostgreSQL'}: ingestion + both models`;
    const ratio = (r.rows_per_s / copyAt(r.rows).rows_per_s).toFixed(2);
    return `| ${fmt(r.rows)} | ${label} | ${r.seconds} | ${fmt(r.rows_per_s)} | ${r.mode === 'copy' ? '1.00' : ratio} | ${r.peak_rss_mb} |`;
  }),
];
const table = lines.join('\n');
process.stdout.write(`${table}\n`);

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
    // Analysis from the run recorded in the repository; revisit it when the figures move.
    '',
    'Reading it: on PostgreSQL the whole run (landing, conversion, both models, in one transaction after the landing) reaches',
    '0.46× the COPY rate at 1M rows in this run; runs on this shared machine ranged from 0.2× to 0.5× with the load. Where the',
    'time goes: the landing is a COPY of its own (≈ the baseline), and the model step is dominated by inserting 1M rows into',
    '`ad_performance_daily` with its primary key (the `GROUP BY` that sums duplicate campaign-days costs little; measured by',
    'removing it). PGlite is single-threaded WASM: ≈ 9k rows/s, a 120-day demo backfill (1,440 rows) takes a couple of seconds.',
    "Peak RSS stays flat as the window grows 4× (PostgreSQL ≈ +40 MB, PGlite ≈ +65 MB, most of it the generator's and",
    "driver's buffers): records stream through, the window is never held in memory.",
    '',
  ].join('\n');
  const re = /## ingest\n[\s\S]*?(?=\n## |$)/;
  fs.writeFileSync(file, re.test(text) ? text.replace(re, section) : `${text.trimEnd()}\n\n${section}`);
  process.stdout.write('BENCHMARKS.md updated (## ingest)\n');
}
