import { kruskalWallisH, mean, median, robustScale, stddevSamp, WEEKLY_H_CRITICAL } from './rule.stats.js';
import {
  type Fit,
  mod7,
  type RuleParams,
  type SeriesPoint,
  TERM_GAIN,
  TREND_MIN_POINTS,
  WEEKLY_MIN_PER_DAY,
} from './rule.params.js';

/**
 * The baseline of one day as docs/api.md ("The detection rule") spells it out, on plain arrays:
 * the frame, the weekly profile and the fit. The rule runs rule.fit.ts instead, which gives
 * the same numbers on reused buffers; these stay the reference it is tested against and the path
 * for a series that one cannot take (a non-finite value, days out of order).
 */

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

/** The index of the point of day d in rising days, or −1. */
export function indexOfDay(points: readonly SeriesPoint[], d: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.d < d) lo = mid + 1;
    else hi = mid;
  }
  return lo < points.length && points[lo]!.d === d ? lo : -1;
}

/** The frame, weekly profile and fit of day t as the docs spell them out, on plain arrays. */
export function referenceDay(
  points: readonly SeriesPoint[],
  lo: number,
  i: number,
  t: number,
  anchor: number | null,
  p: RuleParams,
  excluded: Set<number>,
  covered?: ReadonlyMap<number, unknown>,
) {
  const { preceding, nearest, step } = frameOf(p);
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
    if (covered?.has(q.d)) continue;
    allDays.push(q.d);
    allValues.push(q.value);
    if (excluded.has(q.d)) continue;
    days.push(q.d);
    values.push(q.value);
  }
  const profile = p.seasonality === 'auto' ? weeklyProfile(weekDays, weekValues, p) : null;
  const fit =
    values.length >= 1 ? fitBaseline(days, values, t, p, profile, { days: allDays, values: allValues }) : null;
  return { n: values.length, profile, fit };
}
