import type { SqlExecutor } from '../../../platform/db/database.js';
import { daysBetween } from '../../../platform/calendar.js';
import {
  evaluateSeries,
  frameOf,
  type CoveringEvent,
  type EvaluatedPoint,
  type Precedents,
  type RuleParams,
  type SeriesPoint,
  type SeriesState,
} from './rule/rule.series.js';
import { METRICS, TOTAL_CHANNEL, type Metric } from '../anomalies.schemas.js';
import type { EffectiveSettings } from './detection.schemas.js';
import { explainAcrossSeries, RATIO_PARTS } from './detection.explained.js';
import { coveredDays } from './detection.events.js';
import {
  disableJit,
  readExpectedEvents,
  readmit,
  readPoints,
  rebuildEpisodes,
  replaceRange,
  type SourceRow,
} from './detection.repo.js';
import { dayNumber } from './detection.days.js';
import {
  key,
  quietEndingOn,
  readState,
  SAVED_DAYS,
  type SavedDeques,
  type SeriesKey,
  writeSavedState,
} from './detection.state.js';
import { openSink } from './detection.write.js';

/**
 * The evaluation's I/O around the rule (rule/rule.series.ts): points are read in bulk (kpis_daily
 * plus the project total, ratios recomputed from the summed parts), what earlier days left behind
 * (excluded days, level-shift anchors, runs of fired days) is read back from the few stored rows
 * that carry it, each series runs through the rule in memory, and the rows are written back
 * (detection.write.ts: a COPY on PostgreSQL, batches of column arrays on PGlite).
 */

/** How many days of history before `from` the evaluation of `from` needs. */
export function lookbackDays(s: EffectiveSettings): number {
  return frameOf(s).lookback;
}

export function ruleOf(s: EffectiveSettings, metric: Metric): RuleParams {
  const m = s.metrics.find((r) => r.metric === metric)!;
  return {
    baseline: s.baseline,
    seasonality: s.seasonality,
    window_days: s.window_days,
    seasonal_weeks: s.seasonal_weeks,
    exclude_anomalies: s.exclude_anomalies,
    level_shifts: s.level_shifts,
    level_shift_days: s.level_shift_days,
    precedent_days: s.precedent_days,
    precedent_margin: s.precedent_margin,
    precedent_margin_drop: s.precedent_margin_drop,
    sustained_days: s.sustained_days,
    threshold: m.threshold,
    direction: m.direction,
    min_relative_change: m.min_relative_change,
    min_abs_change: m.min_abs_change,
    min_training_days: m.min_training_days,
    min_volume: m.min_volume,
  };
}

export interface SeriesResult {
  project_id: string;
  channel: string;
  metric: Metric;
  rows: EvaluatedPoint[];
  readmitted: number[];
}

/** What one pass needs of the rules: the metrics it evaluates and each one's rule and volume metric. */
interface PassRules {
  metrics: Metric[];
  rules: Map<Metric, RuleParams>;
  volumeOf: Map<Metric, Metric | null>;
  fromD: number;
  /** Days from which (to the day before the last) the deques each day leaves are kept, to be saved. */
  keepFrom: number;
  toD: number;
  /** Per project, the days events of the expected types cover (detection.events.ts). */
  covered: Map<string, Map<number, CoveringEvent>>;
}

function passRules(s: EffectiveSettings, metrics: Metric[], from: string, to = from): PassRules {
  const toD = dayNumber(to);
  return {
    covered: new Map(),
    metrics,
    rules: new Map(metrics.map((m) => [m, ruleOf(s, m)])),
    volumeOf: new Map(metrics.map((m) => [m, s.metrics.find((r) => r.metric === m)!.volume_metric ?? null])),
    fromD: dayNumber(from),
    keepFrom: s.precedent_days > 0 ? toD - SAVED_DAYS + 1 : toD,
    toD,
  };
}

/** Every metric of one (project, channel) run of source rows through the rule, into `out`. */
function evaluateGroup(
  source: SourceRow[],
  i: number,
  j: number,
  pass: PassRules,
  states: Map<string, SeriesState>,
  out: SeriesResult[],
  seen?: SeriesKey[],
): void {
  const first = source[i]!;
  for (const metric of pass.metrics) {
    const volumeMetric = pass.volumeOf.get(metric)!;
    const points: SeriesPoint[] = [];
    for (let k = i; k < j; k += 1) {
      const r = source[k]!;
      const value = r[metric];
      if (value === null) continue;
      points.push({ d: Number(r.d), value, volume: volumeMetric ? (r[volumeMetric] ?? 0) : null });
    }
    const k = key(first.project_id, first.channel, metric);
    let state = states.get(k);
    if (!state) {
      state = { excluded: new Set<number>(), anchor: null, run: null };
      states.set(k, state);
    }
    // The deques are then the state's own: what the pass leaves in them is saved for the next day.
    state.precedents ??= { spike: [], drop: [] };
    const covered = pass.covered.get(first.project_id);
    if (covered) state.covered = covered;
    // The deques and quiet days after each of the range's last days but the last (the final state
    // is that one).
    const days: SavedDeques[] = [];
    const afterDay = seen
      ? (d: number, q: Precedents) => {
          if (d >= pass.keepFrom && d < pass.toD)
            days.push({
              d,
              precedents: { spike: [...q.spike], drop: [...q.drop] },
              quiet: quietEndingOn(state.quiet, d),
            });
        }
      : undefined;
    const r = evaluateSeries(points, pass.fromD, pass.rules.get(metric)!, state, { afterDay });
    if (r.rows.length || r.readmitted.length)
      out.push({ project_id: first.project_id, channel: first.channel, metric, ...r });
    const finite = r.rows.every(
      (x) => Number.isFinite(x.value) && (x.expected === null || Number.isFinite(x.expected)),
    );
    seen?.push({ project_id: first.project_id, channel: first.channel, metric, state, finite, days });
  }
}

/** The (project, channel, metric) of every series the source rows hold, for readState. */
function* seriesOf(source: SourceRow[], metrics: Metric[]): Generator<[string, string, string]> {
  for (let i = 0; i < source.length; ) {
    const j = runEnd(source, i, sameGroup);
    for (const m of metrics) yield [source[i]!.project_id, source[i]!.channel, m];
    i = j;
  }
}

/** The end (exclusive) of the run of source rows from i that share `same`'s key. */
function runEnd(source: SourceRow[], i: number, same: (a: SourceRow, b: SourceRow) => boolean): number {
  let j = i + 1;
  while (j < source.length && same(source[j]!, source[i]!)) j += 1;
  return j;
}
const sameGroup = (a: SourceRow, b: SourceRow) => a.project_id === b.project_id && a.channel === b.channel;

/** The days of [historyFrom, to] that events of the settings' expected types cover, per project. */
async function readCovered(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  to: string,
  s: EffectiveSettings,
): Promise<Map<string, Map<number, CoveringEvent>>> {
  return coveredDays(await readExpectedEvents(db, projectIds, s.expected_event_types, historyFrom, to));
}

/** Runs every enabled series of the points through the rule (nothing written). */
export async function computeSeries(
  db: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  historyFrom: string,
  s: EffectiveSettings,
  only?: { channel: string; metric: Metric },
): Promise<SeriesResult[]> {
  // One series also needs the series that can explain it (detection.explained.ts): a ratio's
  // parts, and every channel of the metric for the total.
  const explainers = only && s.explain_related ? [only.metric, ...(RATIO_PARTS[only.metric] ?? [])] : [];
  const source = await readPoints(
    db,
    projectIds,
    historyFrom,
    to,
    only && !(s.explain_related && only.channel === TOTAL_CHANNEL) ? only.channel : null,
  );
  const enabled = (m: Metric) => s.metrics.find((r) => r.metric === m)!.enabled;
  const metrics = METRICS.filter((m) =>
    only ? m === only.metric || (explainers.includes(m) && enabled(m)) : enabled(m),
  );
  const pass = passRules(s, metrics, from);
  pass.covered = await readCovered(db, projectIds, historyFrom, to, s);
  const series = [...seriesOf(source, metrics)];
  const states = await readState(db, projectIds, series, historyFrom, from, to, s.precedent_days, s.sustained_days);
  const out: SeriesResult[] = [];
  for (let i = 0; i < source.length; ) {
    const j = runEnd(source, i, sameGroup);
    evaluateGroup(source, i, j, pass, states, out);
    i = j;
  }
  if (s.explain_related)
    for (const project of projectIds) explainAcrossSeries(out.filter((r) => r.project_id === project));
  return only ? out.filter((r) => r.channel === only.channel && r.metric === only.metric) : out;
}

/**
 * Project-days of points per pass (projects × days read): bounds the memory of a re-evaluation of
 * many projects (about 17 projects of 400 days a pass), while one new day of every project is one
 * pass, a handful of statements whatever the number of projects.
 */
const PASS_PROJECT_DAYS = 8_000;

/** Lets queued I/O run (the COPY's bytes reach the server) between two stretches of computing. */
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Where a pass spent its time (milliseconds, summed over passes), for bench:anomalies. */
export interface EvaluationPhases {
  delete: number;
  read: number;
  rule: number;
  write: number;
  episodes: number;
}

/**
 * Replaces the rows of [from, to] with a fresh evaluation, for one project or for several that
 * share the same settings, then rebuilds the anomalies (episodes) those days touch. Each pass reads
 * its projects' points and state, then computes project by project and hands each project's rows
 * to the writer (a COPY on PostgreSQL, which inserts them while the next project is computed).
 */
export async function evaluate(
  tx: SqlExecutor,
  project: string | string[],
  from: string,
  to: string,
  historyFrom: string,
  s: EffectiveSettings,
  phases?: EvaluationPhases,
): Promise<{ rows: number; fired: number }> {
  const projectIds = Array.isArray(project) ? project : [project];
  await disableJit(tx);
  let at = performance.now();
  const lap = (phase: keyof EvaluationPhases) => {
    const now = performance.now();
    if (phases) phases[phase] += now - at;
    at = now;
  };
  await replaceRange(tx, projectIds, from, to);
  lap('delete');
  const pass = passRules(
    s,
    METRICS.filter((m) => s.metrics.find((r) => r.metric === m)!.enabled),
    from,
    to,
  );
  // One query for every project of the evaluation: the days its events cover, history included
  // (they stay out of the frames of the range's days).
  pass.covered = await readCovered(tx, projectIds, historyFrom, to, s);
  const perPass = Math.max(1, Math.floor(PASS_PROJECT_DAYS / (daysBetween(historyFrom, to) + 1)));
  const streaming = tx.copyIn !== undefined;
  const back: [string, string, string, number][] = [];
  let rows = 0;
  let fired = 0;
  for (let c = 0; c < projectIds.length; c += perPass) {
    const chunk = projectIds.slice(c, c + perPass);
    const source = await readPoints(tx, chunk, historyFrom, to, null);
    const series = [...seriesOf(source, pass.metrics)];
    const states = await readState(tx, chunk, series, historyFrom, from, to, s.precedent_days, s.sustained_days);
    const seen: SeriesKey[] = [];
    lap('read');
    const sink = openSink(tx, s);
    for (let i = 0; i < source.length; ) {
      const results: SeriesResult[] = [];
      const end = runEnd(source, i, (a, b) => a.project_id === b.project_id);
      while (i < end) {
        const j = runEnd(source, i, sameGroup);
        evaluateGroup(source, i, j, pass, states, results, seen);
        i = j;
        if (streaming) {
          lap('rule');
          await yieldToIo();
          lap('write');
        }
      }
      if (s.explain_related) explainAcrossSeries(results);
      lap('rule');
      for (const r of results) {
        for (const d of r.readmitted) back.push([r.project_id, r.channel, r.metric, d]);
        const wait = sink.add(r);
        if (wait) {
          lap('rule');
          await wait;
          lap('write');
        }
      }
      lap('rule');
    }
    const w = await sink.end();
    await writeSavedState(tx, chunk, from, to, s.precedent_days, s.sustained_days, seen);
    lap('write');
    rows += w.rows;
    fired += w.fired;
  }
  await readmit(tx, back);
  lap('write');
  await rebuildEpisodes(tx, projectIds, from, to);
  lap('episodes');
  return { rows, fired };
}
