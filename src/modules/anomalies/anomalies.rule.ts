import {
  kruskalWallisH,
  mean,
  median,
  robustScale,
  scoreOf,
  severityOf,
  stddevSamp,
  WEEKLY_H_CRITICAL,
  type Severity,
} from './anomalies.stats.js';

/**
 * The detection rule for one series (project, metric, channel), as a sequential pass over its days:
 * each day is compared with a baseline built from earlier days only, and what fired before shapes
 * later baselines (exclusion, level-shift re-anchoring), which a set-based window pass cannot do.
 * Pure: no I/O, no clock. docs/api.md ("The detection rule") describes exactly this code.
 */

export type Baseline = 'robust' | 'mean';
export type Seasonality = 'auto' | 'none' | 'day_of_week';
export type Watch = 'spike' | 'drop' | 'both';

export interface RuleParams {
  baseline: Baseline;
  seasonality: Seasonality;
  window_days: number;
  seasonal_weeks: number;
  exclude_anomalies: boolean;
  level_shifts: boolean;
  level_shift_days: number;
  threshold: number;
  direction: Watch;
  min_relative_change: number;
  min_abs_change: number;
  min_training_days: number;
  /** Null: no volume guard (the metric is not a ratio, or the guard is off). */
  min_volume: number | null;
  /** Days of same-side deviations a new anomaly must beat (0: no precedent check). */
  precedent_days: number;
}

/** A day of the series: d is the day number (days since Monday 2000-01-03, so d mod 7 is the weekday). */
export interface SeriesPoint {
  d: number;
  value: number;
  /** The count behind a ratio (conversions, clicks, impressions); null for other metrics. */
  volume: number | null;
}

/** What the days before the evaluated range left behind (read back from stored rows). */
export interface SeriesState {
  /** Days left out of baselines (fired, low volume, triaged expected or false positive). */
  excluded: Set<number>;
  /** The first day of the level the baseline re-anchored on, while it is inside the frame. */
  anchor: number | null;
  /** The current run of consecutive fired days on one side. */
  run: Run | null;
  /**
   * Per side, the deviations a new anomaly must beat: the days before the range whose |value −
   * expected| is larger than that of every later day before the range (only those can be the
   * largest of a later window), oldest first. Absent: none (a first evaluation).
   */
  precedents?: Precedents;
  /** Days of anomalies people confirmed (triaged acknowledged or resolved): never a precedent. */
  confirmed?: Set<number>;
}

/** A deviation that can still be the largest of a later window: its day and |value − expected|. */
export interface Precedent {
  d: number;
  size: number;
}
export type Precedents = Record<'spike' | 'drop', Precedent[]>;

interface Run {
  start: number;
  last: number;
  side: 'spike' | 'drop';
}

export type Status = 'ok' | 'fired' | 'precedented' | 'explained' | 'insufficient_training' | 'insufficient_volume';
export type Kind = 'spike' | 'drop' | 'level_shift';

export interface EvaluatedPoint {
  d: number;
  value: number;
  /** The baseline's expected value for the day (the mean with `baseline: mean`). */
  expected: number | null;
  /** The baseline's scale (σ-equivalent). */
  scale: number | null;
  n: number;
  windowFrom: number;
  windowTo: number;
  /** Which terms the baseline used: robust|mean, +trend, +weekly, or day_of_week. */
  model: string;
  z: number | null;
  rel: number | null;
  direction: 'spike' | 'drop' | null;
  fired: boolean;
  status: Status;
  score: number;
  severity: Severity | null;
  kind: Kind | null;
  excluded: boolean;
  anchor: number | null;
  runDays: number;
  /** The largest same-side deviation of the precedent window (null: none, or the check is off). */
  precedent: number | null;
  /** Set by the project pass (anomalies.explained.ts): the fired series that explains this one. */
  explainedBy?: { channel: string; metric: string };
}

/** A trend term is kept only when it cuts the residual scale to at most this share. */
export const TERM_GAIN = 0.6;
/** A trend term needs this many baseline points; a weekly profile needs 3 per weekday. */
export const TREND_MIN_POINTS = 10;
export const WEEKLY_MIN_PER_DAY = 3;

/**
 * The frame of the level and scale (preceding..nearest days before t, every step-th day) and, with
 * `auto`, the weekly window the weekly profile is judged on (7 × seasonal_weeks days).
 */
export function frameOf(p: Pick<RuleParams, 'seasonality' | 'window_days' | 'seasonal_weeks'>) {
  if (p.seasonality === 'day_of_week')
    return { preceding: 7 * p.seasonal_weeks, nearest: 7, step: 7, lookback: 7 * p.seasonal_weeks };
  const weekly = p.seasonality === 'auto' ? 7 * p.seasonal_weeks : 0;
  return { preceding: p.window_days, nearest: 1, step: 1, lookback: Math.max(p.window_days, weekly) };
}

interface Fit {
  expected: number;
  scale: number | null;
  model: string;
}

/**
 * The weekly profile of day t (offsets per weekday from the level), or null: judged on every day
 * of the weekly window, excluded days included (a weekly pattern is a property of the calendar,
 * and a fired weekend must not hide the weekends that explain it; per-weekday medians keep one
 * incident from moving the profile). Kept when each weekday has 3 days and Kruskal–Wallis's H over
 * the seven weekday groups reaches the 1% critical value of χ² with 6 degrees of freedom.
 */
export function weeklyProfile(days: number[], values: number[], p: Pick<RuleParams, 'baseline'>): number[] | null {
  const groups: number[][] = Array.from({ length: 7 }, () => []);
  for (let i = 0; i < values.length; i += 1) groups[mod7(days[i]!)]!.push(values[i]!);
  if (!groups.every((g) => g.length >= WEEKLY_MIN_PER_DAY)) return null;
  if (kruskalWallisH(groups) < WEEKLY_H_CRITICAL) return null;
  const loc = p.baseline === 'robust' ? median : mean;
  const level = loc(values);
  return groups.map((g) => loc(g) - level);
}

/**
 * The baseline of day t from its frame (days and values not excluded) and, with auto, the weekly
 * profile. The robust scale is measured on every day of the frame, excluded days included
 * (`all`): the MAD already ignores a few outliers, while leaving out the days that fired would cut
 * the tails off the noise, shrink the scale and make the rule fire more and more.
 */
export function fitBaseline(
  days: number[],
  values: number[],
  t: number,
  p: RuleParams,
  profile: number[] | null,
  all?: { days: number[]; values: number[] },
): Fit {
  const loc = p.baseline === 'robust' ? median : mean;
  const scaleOf = (ys: number[]) => {
    const l = loc(ys);
    return p.baseline === 'robust' ? robustScale(ys.map((y) => y - l)) : stddevSamp(ys);
  };
  let model = p.baseline === 'robust' ? 'robust' : 'mean';
  if (p.seasonality === 'day_of_week') model += '+day_of_week';
  if (profile) model += '+weekly';
  const offset = (d: number) => (profile ? profile[mod7(d)]! : 0);
  let ys = values.map((v, i) => v - offset(days[i]!));
  let slope = 0;
  if (p.seasonality === 'auto' && ys.length >= TREND_MIN_POINTS) {
    const base = scaleOf(ys) ?? 0;
    const half = ys.length >> 1;
    const span = loc(days.slice(ys.length - half)) - loc(days.slice(0, half));
    const b = span > 0 ? (loc(ys.slice(ys.length - half)) - loc(ys.slice(0, half))) / span : 0;
    // Each point projected to day t along the trend: their level is then the expected value.
    const projected = ys.map((y, i) => y + b * (t - days[i]!));
    if (base > 0 && (scaleOf(projected) ?? 0) <= TERM_GAIN * base) {
      ys = projected;
      slope = b;
      model += '+trend';
    }
  }
  const level = loc(ys);
  if (p.baseline === 'robust' && all && all.values.length > ys.length) {
    const residuals = all.values.map((v, i) => v - offset(all.days[i]!) + slope * (t - all.days[i]!) - level);
    return { expected: level + offset(t), scale: robustScale(residuals), model };
  }
  return { expected: level + offset(t), scale: scaleOf(ys), model };
}

const mod7 = (d: number) => ((d % 7) + 7) % 7;

/** The largest deviation of days ≥ since (the front of the deque, after dropping older days). */
export function largestSince(deque: Precedent[], since: number): number | null {
  while (deque.length && deque[0]!.d < since) deque.shift();
  return deque.length ? deque[0]!.size : null;
}

/**
 * Adds a day to a side's deque: days it equals or beats can never be the largest of a later window
 * again, so they go (sizes stay strictly decreasing, oldest first; the deque stays short).
 */
export function pushPrecedent(deque: Precedent[], d: number, size: number): void {
  while (deque.length && deque[deque.length - 1]!.size <= size) deque.pop();
  deque.push({ d, size });
}

/**
 * Evaluates the points with d ≥ from (earlier points are history only), updating `state` as it
 * goes. Answers the evaluated points and the days before `from` a level shift took back into the
 * baseline (their stored rows must stop being excluded).
 */
export function evaluateSeries(
  points: readonly SeriesPoint[],
  from: number,
  p: RuleParams,
  state: SeriesState,
): { rows: EvaluatedPoint[]; readmitted: number[] } {
  const { preceding, nearest, step, lookback } = frameOf(p);
  const rows: EvaluatedPoint[] = [];
  const readmitted: number[] = [];
  const byDay = new Map<number, EvaluatedPoint>();
  // A run still open before the range was excluded day by day, whatever later readmitted it.
  if (state.run && p.exclude_anomalies)
    for (let d = state.run.start; d <= state.run.last; d += 1) state.excluded.add(d);
  const precedents: Precedents = state.precedents ?? { spike: [], drop: [] };
  let lo = 0;
  for (let i = 0; i < points.length; i += 1) {
    const pt = points[i]!;
    const t = pt.d;
    if (t < from) continue;
    while (lo < i && points[lo]!.d < t - lookback) lo += 1;
    const anchor = state.anchor !== null && state.anchor > t - preceding ? state.anchor : null;
    const days: number[] = [];
    const values: number[] = [];
    const weekDays: number[] = [];
    const weekValues: number[] = [];
    const allDays: number[] = [];
    const allValues: number[] = [];
    for (let j = lo; j < i; j += 1) {
      const q = points[j]!;
      if (p.seasonality === 'auto') {
        weekDays.push(q.d);
        weekValues.push(q.value);
      }
      if (t - q.d > preceding || t - q.d < nearest || (t - q.d) % step !== 0) continue;
      if (anchor !== null && q.d < anchor) continue;
      allDays.push(q.d);
      allValues.push(q.value);
      if (state.excluded.has(q.d)) continue;
      days.push(q.d);
      values.push(q.value);
    }
    const n = values.length;
    const minTraining = anchor !== null ? Math.min(p.min_training_days, p.level_shift_days) : p.min_training_days;
    const profile = p.seasonality === 'auto' ? weeklyProfile(weekDays, weekValues, p) : null;
    const fit = n >= 1 ? fitBaseline(days, values, t, p, profile, { days: allDays, values: allValues }) : null;
    const expected = fit?.expected ?? null;
    // A scale within float noise of 0 is a flat baseline: no z (the relative change decides).
    const scale = fit?.scale ?? null;
    const flat = scale === null || expected === null || scale <= 1e-9 * Math.max(1, Math.abs(expected));
    const z = !flat ? (pt.value - expected!) / scale! : null;
    const rel = expected !== null && expected !== 0 ? (pt.value - expected) / Math.abs(expected) : null;
    const direction = expected === null || pt.value === expected ? null : pt.value > expected ? 'spike' : 'drop';
    const lowVolume = p.min_volume !== null && (pt.volume ?? 0) < p.min_volume;
    const bigEnough =
      rel === null
        ? expected !== null && pt.value !== expected && Math.abs(pt.value - expected) >= p.min_abs_change
        : Math.abs(rel) >= p.min_relative_change;
    const pastThreshold =
      z !== null
        ? (p.direction !== 'drop' && z >= p.threshold) || (p.direction !== 'spike' && z <= -p.threshold)
        : (p.direction !== 'drop' && direction === 'spike') || (p.direction !== 'spike' && direction === 'drop');
    const trained = n >= minTraining && expected !== null;
    // A move that continues yesterday's anomaly on the same side belongs to it: only a new anomaly
    // must beat the precedent (else a level shift could never reach level_shift_days).
    const continuing = state.run !== null && state.run.last === t - 1 && state.run.side === direction;
    const deviation = expected === null ? 0 : Math.abs(pt.value - expected);
    const precedent =
      direction && p.precedent_days > 0 ? largestSince(precedents[direction], t - p.precedent_days) : null;
    const unprecedented = continuing || precedent === null || deviation > precedent;
    const candidate = trained && !lowVolume && bigEnough && pastThreshold;
    const fired = candidate && unprecedented;
    const score = expected === null ? 0 : scoreOf(z, pt.value !== expected);
    const row: EvaluatedPoint = {
      d: t,
      value: pt.value,
      expected,
      scale: fit ? scale : null,
      n,
      windowFrom: anchor ?? t - preceding,
      windowTo: t - nearest,
      model: fit?.model ?? (p.baseline === 'robust' ? 'robust' : 'mean'),
      z,
      rel,
      direction,
      fired,
      status: lowVolume
        ? 'insufficient_volume'
        : !trained
          ? 'insufficient_training'
          : fired
            ? 'fired'
            : candidate
              ? 'precedented'
              : 'ok',
      score,
      severity: fired ? severityOf(score) : null,
      kind: fired ? direction : null,
      // Low-volume ratios are noise: kept out of later baselines as fired days are.
      excluded: lowVolume || (fired && p.exclude_anomalies),
      anchor,
      runDays: 0,
      precedent,
    };
    if (row.excluded) state.excluded.add(t);
    if (fired && direction) {
      const r = state.run;
      state.run =
        r && r.side === direction && r.last === t - 1 ? { ...r, last: t } : { start: t, last: t, side: direction };
      row.runDays = state.run.last - state.run.start + 1;
      if (p.level_shifts && row.runDays >= p.level_shift_days) {
        // A sustained move: one level shift, and the baseline starts again on the new level,
        // the run's days included.
        row.kind = 'level_shift';
        state.anchor = state.run.start;
        for (let d = state.run.start; d <= t; d += 1) {
          state.excluded.delete(d);
          const earlier = byDay.get(d);
          if (earlier) earlier.excluded = false;
          else if (d < from) readmitted.push(d);
        }
        row.excluded = false;
        row.anchor = state.anchor;
        // The run is spent: the next days start a new one (what a later evaluation reads back).
        row.runDays = 0;
        state.run = null;
      }
    } else state.run = null;
    // Every day judged on a full baseline is a deviation this series has made, fired or not
    // (a recurring spike is what the series does), unless people confirmed it was an incident.
    if (trained && !lowVolume && direction && !state.confirmed?.has(t))
      pushPrecedent(precedents[direction], t, deviation);
    rows.push(row);
    byDay.set(t, row);
  }
  return { rows, readmitted };
}
