import { scoreOf, severityOf, type Severity } from './rule.stats.js';
import { type fitBaseline, frameOf, indexOfDay, referenceDay } from './rule.baseline.js';
import { FitScratch, sharedScratch } from './rule.fit.js';

import type { RuleParams, SeriesPoint } from './rule.params.js';

export { fitBaseline, frameOf, weeklyProfile } from './rule.baseline.js';
export {
  TERM_GAIN,
  TREND_MIN_POINTS,
  WEEKLY_MIN_PER_DAY,
  type RuleParams,
  type SeriesPoint,
  type Watch,
} from './rule.params.js';

/**
 * The detection rule for one series (project, metric, channel), as a sequential pass over its days:
 * each day is compared with a baseline built from earlier days only, and what fired before shapes
 * later baselines (exclusion, level-shift re-anchoring), which a set-based window pass cannot do.
 * Pure: no I/O, no clock. docs/api.md ("The detection rule") describes exactly this code.
 */

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
  /**
   * The days just before the range judged quietly (status ok) with a non-zero z, oldest first: at
   * most sustained_days − 1 consecutive days on one side, ending the day before the range (or
   * empty). What a sustained move of the range's first days adds up with. Absent: none.
   */
  quiet?: QuietDay[];
  /** Days of anomalies people confirmed (triaged acknowledged or resolved): never a precedent. */
  confirmed?: Set<number>;
  /**
   * Days inside the active window of a context event of an expected type (the project setting
   * `expected_event_types`), before and in the evaluated range: such a day does not fire (it is
   * explained by the event) and is left out of every later day's frame, the scale's included.
   * Absent: no event covers any day.
   */
  covered?: ReadonlyMap<number, CoveringEvent>;
}

/** The context event that covers a day (the first by event_date, then id, where several do). */
export interface CoveringEvent {
  id: string;
  title: string;
  event_type: string;
}

/** A deviation that can still be the largest of a later window: its day and |value − expected|. */
export interface Precedent {
  d: number;
  size: number;
}
export type Precedents = Record<'spike' | 'drop', Precedent[]>;

/** A day judged on a full baseline that passed no threshold (status ok), with its z. */
export interface QuietDay {
  d: number;
  z: number;
}

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
  /** Set by the project pass (detection.explained.ts): the fired series that explains this one. */
  explainedBy?: { channel: string; metric: string };
  /** The context event that explains a day that would have fired (status explained). */
  explainedByEvent?: CoveringEvent;
}

/**
 * The sustained z of day t (docs/api.md, step 7a): over the quiet days that end the day before t,
 * consecutive and on z's side, the largest |z_t + z_{t−1} + … + z_{t−k+1}| / √k for k = 2 … days,
 * with its sign; null when there is none.
 */
export function sustainedZ(quiet: readonly QuietDay[], t: number, z: number, days: number): number | null {
  let best: number | null = null;
  let sum = z;
  let k = 1;
  for (let q = quiet.length - 1; q >= 0 && k < days; q -= 1) {
    const e = quiet[q]!;
    if (e.d !== t - k || Math.sign(e.z) !== Math.sign(z)) break;
    sum += e.z;
    k += 1;
    const c = sum / Math.sqrt(k);
    if (best === null || Math.abs(c) > Math.abs(best)) best = c;
  }
  return best;
}

/** Adds day t's quiet z (or ends the quiet run: z null) to the list, keeping its last days − 1 days. */
export function pushQuiet(quiet: QuietDay[], t: number, z: number | null, days: number): void {
  if (z === null || z === 0 || days <= 1) {
    quiet.length = 0;
    return;
  }
  const last = quiet[quiet.length - 1];
  if (last && (last.d !== t - 1 || Math.sign(last.z) !== Math.sign(z))) quiet.length = 0;
  quiet.push({ d: t, z });
  while (quiet.length > days - 1) quiet.shift();
}

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
  options: {
    /** Every day through rule.baseline.ts, the oracle the buffered path is tested against. */
    reference?: boolean;
    /** Called after each evaluated day with the precedent deques as they stand (not a copy). */
    afterDay?: (d: number, precedents: Precedents) => void;
  } = {},
): { rows: EvaluatedPoint[]; readmitted: number[] } {
  const { preceding, nearest, step, lookback } = frameOf(p);
  const rows: EvaluatedPoint[] = [];
  const readmitted: number[] = [];
  const byDay = new Map<number, EvaluatedPoint>();
  // A run still open before the range was excluded day by day, whatever later readmitted it.
  if (state.run && p.exclude_anomalies)
    for (let d = state.run.start; d <= state.run.last; d += 1) state.excluded.add(d);
  const precedents: Precedents = state.precedents ?? { spike: [], drop: [] };
  const quiet: QuietDay[] = state.quiet ?? [];
  state.quiet = quiet;
  const passes = (v: number) =>
    (p.direction !== 'drop' && v >= p.threshold) || (p.direction !== 'spike' && v <= -p.threshold);
  // Series of finite values on rising days (all real ones) take the buffered path, which gives the
  // same numbers; anything else keeps the reference functions below.
  const fast = !options.reference && FitScratch.accepts(points) ? sharedScratch : null;
  fast?.begin(lookback + 1);
  // The excluded flag of each point (a Set lookup per frame day per day cost more than the rest).
  const out = fast ? new Uint8Array(points.length) : null;
  // 2: a day an event covers, out of the scale's frame too (a known effect is not noise).
  const covered = state.covered;
  if (out)
    for (let j = 0; j < points.length; j += 1)
      out[j] = covered?.has(points[j]!.d) ? 2 : state.excluded.has(points[j]!.d) ? 1 : 0;
  let lo = 0;
  for (let i = 0; i < points.length; i += 1) {
    const pt = points[i]!;
    const t = pt.d;
    if (t < from) continue;
    while (lo < i && points[lo]!.d < t - lookback) lo += 1;
    const anchor = state.anchor !== null && state.anchor > t - preceding ? state.anchor : null;
    let n: number;
    let profile: number[] | null;
    let fit: ReturnType<typeof fitBaseline> | null;
    if (fast && out) {
      let nAll = 0;
      n = 0;
      for (let j = lo; j < i; j += 1) {
        const q = points[j]!;
        if (t - q.d > preceding || t - q.d < nearest || (t - q.d) % step !== 0) continue;
        if (anchor !== null && q.d < anchor) continue;
        if (out[j] === 2) continue;
        fast.ad[nAll] = q.d;
        fast.av[nAll] = q.value;
        nAll += 1;
        if (out[j]) continue;
        fast.fd[n] = q.d;
        fast.fv[n] = q.value;
        n += 1;
      }
      profile = p.seasonality === 'auto' ? fast.weekly(points, lo, i, p) : null;
      fit = n >= 1 ? fast.fit(n, nAll, t, p, profile) : null;
    } else {
      const f = referenceDay(points, lo, i, t, anchor, p, state.excluded, covered);
      n = f.n;
      profile = f.profile;
      fit = f.fit;
    }
    const minTraining = anchor !== null ? Math.min(p.min_training_days, p.level_shift_days) : p.min_training_days;
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
    // A move that lasts: days each short of the threshold whose z add up past it (Σz/√k is a z of
    // its own when the days are independent) are one anomaly seen over several days.
    const sustained = z !== null && p.sustained_days > 1 ? sustainedZ(quiet, t, z, p.sustained_days) : null;
    const pastThreshold =
      z !== null
        ? passes(z) || (sustained !== null && passes(sustained))
        : (p.direction !== 'drop' && direction === 'spike') || (p.direction !== 'spike' && direction === 'drop');
    const trained = n >= minTraining && expected !== null;
    // A move that continues yesterday's anomaly on the same side belongs to it: only a new anomaly
    // must beat the precedent (else a level shift could never reach level_shift_days).
    const continuing = state.run !== null && state.run.last === t - 1 && state.run.side === direction;
    const deviation = expected === null ? 0 : Math.abs(pt.value - expected);
    const precedent =
      direction && p.precedent_days > 0 ? largestSince(precedents[direction], t - p.precedent_days) : null;
    // A deviation within the margin of the largest one is the same deviation again: a record by a
    // hair is what a noisy series sets every few hundred days, not news.
    // Spikes have the larger margin: a series' upside is unbounded and a spiky one sets records by a
    // hair, while a drop is bounded by the level (a second outage to zero beats the first only by
    // the growth in between).
    const margin = direction === 'drop' ? p.precedent_margin_drop : p.precedent_margin;
    const unprecedented = continuing || precedent === null || deviation > precedent * (1 + margin);
    const candidate = trained && !lowVolume && bigEnough && pastThreshold;
    // A known calendar effect or a planned push the team recorded is not news: the day would fire
    // but the event explains it.
    const event = state.covered?.get(t);
    const wouldFire = candidate && unprecedented;
    const fired = wouldFire && !event;
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
            : wouldFire
              ? 'explained'
              : candidate
                ? 'precedented'
                : 'ok',
      score,
      severity: fired ? severityOf(score) : null,
      kind: fired ? direction : null,
      // Low-volume ratios are noise: kept out of later baselines as fired days are. Days an event
      // covers are left out whether they would fire or not, of the scale's frame too: a holiday
      // week's lift below the threshold would otherwise raise the level and the scale of the
      // weeks after it (the post-holiday level shift of the synthetic series went unseen).
      excluded: lowVolume || event !== undefined || (fired && p.exclude_anomalies),
      anchor,
      runDays: 0,
      precedent,
    };
    if (wouldFire && event) row.explainedByEvent = event;
    pushQuiet(quiet, t, row.status === 'ok' ? z : null, p.sustained_days);
    if (row.excluded) {
      state.excluded.add(t);
      if (out && out[i] !== 2) out[i] = 1;
    }
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
          if (out) {
            const j = indexOfDay(points, d);
            if (j >= 0) out[j] = 0;
          }
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
    // Days an event explains count too: a swing this large came with a holiday once, so the same
    // swing without one is not news either (measured: docs/api.md, "Defaults and why").
    if (trained && !lowVolume && direction && !state.confirmed?.has(t))
      pushPrecedent(precedents[direction], t, deviation);
    rows.push(row);
    byDay.set(t, row);
    options.afterDay?.(t, precedents);
  }
  return { rows, readmitted };
}
