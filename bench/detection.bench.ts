// npm run bench:detection [-- --write] [--stores=pglite,postgres] [--seeds=2] [--nab=false]
//   [--detections=days]
//
// How well anomaly surveillance finds what matters, on labelled series:
//   (a) synthetic marketing series from the seeded generator in bench/detection/synthetic.ts;
//   (b) when NAB_DIR points at a checkout of github:numenta/NAB, NAB's realAWSCloudwatch and
//       artificialWithAnomaly categories (its other categories are held out: never read here).
// Each point is one calendar day, ingested through a real datastream and evaluated by the real
// evaluator on each store (bench/detection/harness.ts); the detectors are evaluator settings, run
// side by side: the service's default rule, the previous rule, and an Elementary-style z-score.
// Scores: NAB's standard profile with NAB's own scorer (bench/detection/nab-scorer.ts, proved in
// test/bench/detection-nab-scorer.test.ts), per category and overall, and a window F1. NAB's
// published windowedGaussian and numenta detectors, rescored on the same categories from NAB's
// results/ folder, are the reference.
// PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
// --write replaces the "## detection" section of BENCHMARKS.md.
// zod configured as the CLI entry configures it, before any schema is built.
import '../src/platform/zod-runtime.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchSeries, type Detector, runOnStore, type StoreRun } from './detection/harness.js';
import { OPEN_CATEGORIES, nabDir, readNabFiles, rescorePublished } from './detection/nab-corpus.js';
import { type CorpusScore, scoreCorpus, scoreFile } from './detection/nab-scorer.js';
import { holidayPeriods, syntheticSeries } from './detection/synthetic.js';
import { addDays } from '../src/platform/calendar.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const STORES = String(args.stores ?? 'pglite,postgres').split(',');
const SEEDS = Number(args.seeds ?? 2);
const WITH_NAB = args.nab !== 'false';
/** auto: episodes where the store has them; days: every fired day (how runs before episodes counted). */
const DETECTION = args.detections === 'days' ? 'days' : 'auto';
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Volume guards off: the earlier rules had none. */
const NO_VOLUME_GUARD = {
  roas: { min_volume: 0 },
  cpa: { min_volume: 0 },
  cvr: { min_volume: 0 },
  ctr: { min_volume: 0 },
};
/**
 * The first rule (a 28-day mean, no seasonality, z over 3), spelled out so it
 * survives a change of defaults.
 */
const PREVIOUS_RULE = {
  window_days: 28,
  seasonality: 'none',
  threshold: 3,
  min_training_days: 14,
  min_relative_change: 0.05,
  direction: 'both',
  baseline: 'mean',
  exclude_anomalies: false,
  level_shifts: false,
  precedent_days: 0,
  sustained_days: 1,
  explain_related: false,
  // The events are there for every detector; the earlier rules had no use for them.
  expected_event_types: [],
  metrics: NO_VOLUME_GUARD,
};
const DETECTORS: Detector[] = [
  { name: 'default rule', settings: {} },
  // What the holidays recorded as context events contribute (NAB has none: the same as the default).
  { name: 'default rule, events ignored (`expected_event_types: []`)', settings: { expected_event_types: [] } },
  // The default before sustained moves and the side margins (2026-11-28, afternoon).
  {
    name: 'the default before (`sustained_days: 1, precedent_margin: 0.04`)',
    settings: { sustained_days: 1, precedent_margin: 0.04 },
  },
  { name: 'previous rule', settings: PREVIOUS_RULE },
  {
    // Elementary's volume/column anomaly tests: mean and standard deviation of the trailing
    // training period (14 days), anomaly_sensitivity 3, min_training_set_size 7, no other gate.
    name: 'Elementary-style z-score',
    settings: { ...PREVIOUS_RULE, window_days: 14, min_training_days: 7, min_relative_change: 0 },
  },
];

/** NAB's points become consecutive days from this date (the longest open file ends in 2012). */
const NAB_FIRST_DAY = '2000-01-01';

function nabSeries(dir: string): BenchSeries[] {
  return readNabFiles(dir, OPEN_CATEGORIES).map((f) => {
    const dayOf = new Map(f.timestamps.map((t, i) => [t, addDays(NAB_FIRST_DAY, i)]));
    return {
      name: f.relativePath,
      category: f.category,
      metric: 'spend',
      rows: f.values.map((v, i) => ({
        date: addDays(NAB_FIRST_DAY, i),
        spend: v,
        revenue: 0,
        conversions: 0,
        clicks: 0,
        impressions: 0,
      })),
      windows: f.windows.map(([a, b]) => [dayOf.get(String(a))!, dayOf.get(String(b))!] as [string, string]),
    };
  });
}

function score(series: BenchSeries[], detections: Map<string, string[]>): CorpusScore {
  return scoreCorpus(
    series.map((s) => {
      const fired = new Set(detections.get(s.name) ?? []);
      return scoreFile(
        s.rows.map((r) => r.date),
        s.rows.map((r) => fired.has(r.date)),
        s.windows,
      );
    }),
  );
}

const nabDirectory = WITH_NAB ? nabDir() : undefined;
/**
 * The synthetic series with their holidays (synthetic.ts holiday()) as context events of type
 * holiday, one per holiday or period, as a team would record them.
 */
const synthetic: BenchSeries[] = syntheticSeries(SEEDS).map((s) => ({
  ...s,
  events: holidayPeriods(s.rows[0]!.date, s.rows.at(-1)!.date).map((h) => ({ event_type: 'holiday', ...h })),
}));
const series: BenchSeries[] = [...synthetic, ...(nabDirectory ? nabSeries(nabDirectory) : [])];
const groups: [string, string[]][] = [
  ['synthetic', ['synthetic']],
  ...(nabDirectory
    ? ([
        ['realAWSCloudwatch', ['realAWSCloudwatch']],
        ['artificialWithAnomaly', ['artificialWithAnomaly']],
        ['NAB, both categories', [...OPEN_CATEGORIES]],
      ] as [string, string[]][])
    : []),
];
log(
  `series: ${series.length} (${series.reduce((a, s) => a + s.rows.length, 0).toLocaleString('en-US')} days); NAB: ${
    nabDirectory ?? (WITH_NAB ? 'NAB_DIR not set' : 'off')
  }`,
);

const runs: StoreRun[] = [];
for (const store of STORES) runs.push(await runOnStore(store, series, DETECTORS, log, DETECTION));

// The stores must agree day for day: one evaluator, two engines.
const disagreements: string[] = [];
for (const d of DETECTORS) {
  const [first, ...others] = runs.map((r) => r.detectors.find((x) => x.name === d.name)!);
  for (const other of others)
    for (const s of series)
      if ((first.detections.get(s.name) ?? []).join() !== (other.detections.get(s.name) ?? []).join())
        disagreements.push(`${d.name}: ${s.name}`);
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const pct = (n: number) => `${(100 * n).toFixed(0)}%`;
const lines: string[] = [];
const run = runs[0];
for (const [label, categories] of groups) {
  const inGroup = series.filter((s) => categories.includes(s.category));
  const windows = inGroup.reduce((a, s) => a + s.windows.length, 0);
  const days = inGroup.reduce((a, s) => a + s.rows.length, 0);
  lines.push(
    `**${label}** (${inGroup.length} series, ${days.toLocaleString('en-US')} days, ${windows} labelled windows)`,
    '',
    '| detector | NAB standard | window F1 | windows found | precision | fires / 1,000 days |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const d of run.detectors) {
    const c = score(inGroup, d.detections);
    lines.push(
      `| ${d.name} | ${fmt(c.normalized)} | ${fmt(c.f1, 3)} | ${c.detectedWindows} / ${windows} (${pct(c.recall)}) | ${pct(c.precision)} | ${fmt(c.firesPer1000)} |`,
    );
  }
  if (nabDirectory && label !== 'synthetic') {
    for (const detector of ['windowedGaussian', 'numenta']) {
      const c = rescorePublished(nabDirectory, detector, categories).corpus;
      lines.push(
        `| NAB's published ${detector} (its results/, 5-minute points) | ${fmt(c.normalized)} | ${fmt(c.f1, 3)} | ${c.detectedWindows} / ${windows} (${pct(c.recall)}) | ${pct(c.precision)} | ${fmt(c.firesPer1000)} |`,
      );
    }
  }
  lines.push('');
}

const dropped = run.detectors.filter((d) => d.dropped.length);
const timings = runs
  .map(
    (r) =>
      `${r.store}: ingestion ${fmt(r.ingest_s)} s; re-evaluation ${Object.entries(r.evaluate_s)
        .map(([k, v]) => `${k} ${fmt(v)} s`)
        .join(', ')}`,
  )
  .join('; ');
const section = [
  '## detection',
  '',
  `Command: \`NAB_DIR=<checkout of github:numenta/NAB> npm run bench:detection -- --write${args.stores ? ` --stores=${args.stores}` : ''}\` ` +
    `(${new Date().toISOString().slice(0, 10)}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ` +
    `load average ${os.loadavg()[0].toFixed(1)} at the end, shared).`,
  '',
  `Each point is one calendar day, ingested through a real datastream (csv provider) and evaluated by the real evaluator ` +
    `(the operator's re-evaluation with each detector as the project's settings) on ${runs.map((r) => r.store).join(' and ')}. ` +
    `A detection is ${run.detection === 'episodes' ? 'the first day of each anomaly (episode)' : DETECTION === 'days' ? 'each fired day (--detections=days)' : 'each fired day (this revision has no anomaly episodes)'}. ` +
    `Scores: NAB's standard profile with NAB's scorer, reproduced (A_TP 1, A_FP −0.11, A_FN −1, 15% probation; null = 0, perfect = 100), ` +
    'normalized per row group; window F1 from windows found (≥ 1 detection) and precision (detections inside a window / all, after probation). ' +
    `Stores: ${disagreements.length ? `**differ** on ${disagreements.length} series (${disagreements.slice(0, 5).join('; ')})` : 'identical detections on every series'}. ${timings}.`,
  '',
  ...(dropped.length
    ? [
        `Settings this revision's evaluator does not have yet were left out: ${dropped
          .map((d) => `${d.name}: ${d.dropped.join(', ')}`)
          .join('; ')}. Until the new rule lands, "default rule" and "previous rule" are the same rule.`,
        '',
      ]
    : []),
  ...lines,
];
process.stdout.write(`${section.join('\n')}\n`);
if (args.write === 'true') {
  writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), 'detection', section.join('\n'));
  log('BENCHMARKS.md: ## detection replaced');
}
process.exit(0);
