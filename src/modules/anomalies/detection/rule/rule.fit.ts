import {
  medianOf,
  meanOf,
  robustScaleAroundMedian,
  robustScaleOf,
  robustScaleSorted,
  sortsBefore,
  stddevOf,
} from './rule.select.js';
import { type Fit, mod7, type RuleParams, TERM_GAIN, TREND_MIN_POINTS, WEEKLY_MIN_PER_DAY } from './rule.params.js';
import { WEEKLY_H_CRITICAL } from './rule.stats.js';

/**
 * The per-day work of the rule (rule.series.ts: the frame, the weekly profile, the baseline fit)
 * on buffers allocated once and reused by every day of every series, giving the same numbers as
 * weeklyProfile and fitBaseline bit for bit (the rule keeps those for series this cannot take).
 *
 * - The weekly window slides by a day at a time, so it is kept sorted (a point in, the old ones
 *   out, binary search and a shift of ~56 values): the Kruskal–Wallis ranks and every median of
 *   the weekly test then come from one linear scan instead of a sort per day.
 * - The frame's medians are selections in a scratch buffer (rule.select.ts): the frame's
 *   values move with the weekly offsets and the trend, so no sorted order carries over there.
 */

/** What weeklyProfile, fitBaseline and the frame need of the rule's settings. */
export type FitParams = Pick<RuleParams, 'baseline' | 'seasonality'>;

export interface FitPoint {
  d: number;
  value: number;
}

const same = (x: number, y: number) => x === y && (x !== 0 || 1 / x === 1 / y);

/**
 * The buffers of one evaluation pass. Single-threaded and synchronous per series, so one instance
 * serves every series of the process (`shared`).
 */
export class FitScratch {
  /** Frame (not excluded) days and values, then every frame day (`all`), in day order. */
  fd = new Float64Array(64);
  fv = new Float64Array(64);
  ad = new Float64Array(64);
  av = new Float64Array(64);
  private ys = new Float64Array(64);
  private proj = new Float64Array(64);
  private res = new Float64Array(64);
  private tmp = new Float64Array(64);
  private dev = new Float64Array(64);
  /** The weekly window, sorted, with each value's weekday; [wlo, whi) its point indices. */
  private wv = new Float64Array(64);
  private wg = new Int8Array(64);
  private wn = 0;
  private wlo = 0;
  private whi = 0;
  private readonly count = new Int32Array(7);
  private readonly rankSum = new Float64Array(7);
  private readonly profile = new Array<number>(7).fill(0);

  /** A series this path gives the reference's numbers for: finite values on strictly rising whole days. */
  static accepts(points: readonly FitPoint[]): boolean {
    for (let i = 0; i < points.length; i += 1) {
      const p = points[i]!;
      if (!Number.isFinite(p.value) || !Number.isInteger(p.d)) return false;
      if (i > 0 && !(p.d > points[i - 1]!.d)) return false;
    }
    return true;
  }

  /** Sizes the buffers for windows of up to `capacity` points and empties the weekly window. */
  begin(capacity: number): void {
    if (this.fd.length < capacity) {
      const size = capacity + 16;
      this.fd = new Float64Array(size);
      this.fv = new Float64Array(size);
      this.ad = new Float64Array(size);
      this.av = new Float64Array(size);
      this.ys = new Float64Array(size);
      this.proj = new Float64Array(size);
      this.res = new Float64Array(size);
      this.tmp = new Float64Array(size);
      this.dev = new Float64Array(size);
      this.wv = new Float64Array(size);
      this.wg = new Int8Array(size);
    }
    this.wn = 0;
    this.wlo = 0;
    this.whi = 0;
    this.count.fill(0);
  }

  private insert(v: number, g: number): void {
    let lo = 0;
    let hi = this.wn;
    // After every value it does not sort before: equal values keep their arrival order.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sortsBefore(v, this.wv[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    this.wv.copyWithin(lo + 1, lo, this.wn);
    this.wg.copyWithin(lo + 1, lo, this.wn);
    this.wv[lo] = v;
    this.wg[lo] = g;
    this.wn += 1;
    this.count[g]! += 1;
  }

  private remove(v: number, g: number): void {
    let lo = 0;
    let hi = this.wn;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sortsBefore(this.wv[mid]!, v)) lo = mid + 1;
      else hi = mid;
    }
    while (lo < this.wn && !(same(this.wv[lo]!, v) && this.wg[lo] === g)) lo += 1;
    if (lo === this.wn) throw new Error('weekly window: a leaving point is not in it');
    this.wv.copyWithin(lo, lo + 1, this.wn);
    this.wg.copyWithin(lo, lo + 1, this.wn);
    this.wn -= 1;
    this.count[g]! -= 1;
  }

  /** Moves the weekly window to points [lo, i) (both only ever grow). */
  private slide(points: readonly FitPoint[], lo: number, i: number): void {
    if (lo >= this.whi) {
      this.wn = 0;
      this.count.fill(0);
      this.wlo = lo;
      this.whi = lo;
    }
    for (; this.wlo < lo; this.wlo += 1) this.remove(points[this.wlo]!.value, mod7(points[this.wlo]!.d));
    for (; this.whi < i; this.whi += 1) this.insert(points[this.whi]!.value, mod7(points[this.whi]!.d));
  }

  /** weeklyProfile over points [lo, i): the same offsets, or null. */
  weekly(points: readonly FitPoint[], lo: number, i: number, p: FitParams): number[] | null {
    this.slide(points, lo, i);
    const { wv, wg, count, rankSum } = this;
    const n = this.wn;
    for (let g = 0; g < 7; g += 1) if (count[g]! < WEEKLY_MIN_PER_DAY) return null;
    // Kruskal–Wallis as stats.kruskalWallisH: average ranks over runs of equal values. Rank sums
    // are sums of halves, exact in any order.
    rankSum.fill(0);
    for (let a = 0; a < n; ) {
      let b = a;
      while (b + 1 < n && wv[b + 1] === wv[a]) b += 1;
      const rank = (a + b) / 2 + 1;
      for (let k = a; k <= b; k += 1) rankSum[wg[k]!]! += rank;
      a = b + 1;
    }
    let sum = 0;
    for (let g = 0; g < 7; g += 1) if (count[g]) sum += rankSum[g]! ** 2 / count[g]!;
    if ((12 / (n * (n + 1))) * sum - 3 * (n + 1) < WEEKLY_H_CRITICAL) return null;
    const profile = this.profile;
    if (p.baseline === 'robust') {
      const mid = n >> 1;
      const level = n % 2 ? wv[mid]! : (wv[mid - 1]! + wv[mid]!) / 2;
      // Each weekday's median from the sorted window: its values come in sorted order.
      const seen = this.rankSum;
      seen.fill(0);
      const below = [0, 0, 0, 0, 0, 0, 0];
      for (let k = 0; k < n; k += 1) {
        const g = wg[k]!;
        const r = seen[g]!;
        const c = count[g]!;
        const m = c >> 1;
        if (c % 2) {
          if (r === m) profile[g] = wv[k]!;
        } else if (r === m - 1) below[g] = wv[k]!;
        else if (r === m) profile[g] = (below[g]! + wv[k]!) / 2;
        seen[g] = r + 1;
      }
      for (let g = 0; g < 7; g += 1) profile[g] = profile[g]! - level;
    } else {
      // Means sum in day order, as the reference's groups are filled.
      let total = 0;
      const sums = [0, 0, 0, 0, 0, 0, 0];
      for (let j = lo; j < i; j += 1) {
        const q = points[j]!;
        total += q.value;
        sums[mod7(q.d)]! += q.value;
      }
      const level = total / n;
      for (let g = 0; g < 7; g += 1) profile[g] = sums[g]! / count[g]! - level;
    }
    return profile;
  }

  private loc(src: Float64Array, from: number, n: number, robust: boolean): number {
    return robust ? medianOf(src, from, n, this.tmp) : meanOf(src, from, n);
  }

  /** The median or mean of a run of rising day numbers: the middle needs no selection. */
  private locDays(from: number, n: number, robust: boolean): number {
    if (!robust) return meanOf(this.fd, from, n);
    const mid = from + (n >> 1);
    return n % 2 ? this.fd[mid]! : (this.fd[mid - 1]! + this.fd[mid]!) / 2;
  }

  /** The median scaleOf last centred on (robust only). */
  private readonly centre = { value: 0 };

  /** fitBaseline's scaleOf: the robust scale around the median (kept in `centre`), or the sample standard deviation. */
  private scaleOf(ys: Float64Array, n: number, robust: boolean, sorted = false): number | null {
    if (!robust) return stddevOf(ys, n);
    if (sorted) return robustScaleSorted(this.wv, ys, n, this.res, this.dev, this.centre);
    return robustScaleAroundMedian(ys, n, this.res, this.tmp, this.dev, this.centre);
  }

  /**
   * fitBaseline on the frame buffers: fd/fv hold the n days not excluded, ad/av all nAll days of
   * the frame, each in day order.
   */
  fit(n: number, nAll: number, t: number, p: FitParams, profile: number[] | null): Fit {
    const robust = p.baseline === 'robust';
    const { fd, fv, ys, proj } = this;
    for (let i = 0; i < n; i += 1) ys[i] = fv[i]! - (profile ? profile[mod7(fd[i]!)]! : 0);
    let cur = ys;
    // scaleOf(cur) and, robust, its median, once computed (the reference computes them again).
    let curScale: number | null | undefined;
    let curLoc = 0;
    let slope = 0;
    let trend = false;
    if (p.seasonality === 'auto' && n >= TREND_MIN_POINTS) {
      // Without a weekly profile and with every day of the weekly window in the frame (the
      // defaults, no exclusion, no anchor), ys are the window's values, which it keeps sorted.
      curScale = this.scaleOf(ys, n, robust, profile === null && n === this.wn);
      curLoc = this.centre.value;
      const base = curScale ?? 0;
      const half = n >> 1;
      const span = this.locDays(n - half, half, robust) - this.locDays(0, half, robust);
      const b = span > 0 ? (this.loc(ys, n - half, half, robust) - this.loc(ys, 0, half, robust)) / span : 0;
      // With no slope the projected values are ys up to the sign of a zero, their scale is base
      // exactly, and base ≤ 0.6 · base cannot hold (for a finite base): the test fails uncomputed.
      if (base > 0 && (b !== 0 || !Number.isFinite(base))) {
        for (let i = 0; i < n; i += 1) proj[i] = ys[i]! + b * (t - fd[i]!);
        const projScale = this.scaleOf(proj, n, robust);
        if ((projScale ?? 0) <= TERM_GAIN * base) {
          cur = proj;
          curScale = projScale;
          curLoc = this.centre.value;
          slope = b;
          trend = true;
        }
      }
    }
    const model = modelName(robust, p.seasonality === 'day_of_week', profile !== null, trend);
    const level = robust && curScale !== undefined ? curLoc : this.loc(cur, 0, n, robust);
    const offsetT = profile ? profile[mod7(t)]! : 0;
    if (robust && nAll > n) {
      const { ad, av, res } = this;
      for (let i = 0; i < nAll; i += 1)
        res[i] = av[i]! - (profile ? profile[mod7(ad[i]!)]! : 0) + slope * (t - ad[i]!) - level;
      return { expected: level + offsetT, scale: robustScaleOf(res, nAll, this.tmp, this.dev), model };
    }
    return {
      expected: level + offsetT,
      scale: curScale !== undefined ? curScale : this.scaleOf(cur, n, robust),
      model,
    };
  }
}

/** The row's `model`: the terms the baseline used, in fitBaseline's order (16 names, built once). */
const MODEL_NAMES = new Map<number, string>();
function modelName(robust: boolean, dayOfWeek: boolean, weekly: boolean, trend: boolean): string {
  const k = (robust ? 1 : 0) | (dayOfWeek ? 2 : 0) | (weekly ? 4 : 0) | (trend ? 8 : 0);
  let name = MODEL_NAMES.get(k);
  if (name === undefined) {
    name = `${robust ? 'robust' : 'mean'}${dayOfWeek ? '+day_of_week' : ''}${weekly ? '+weekly' : ''}${trend ? '+trend' : ''}`;
    MODEL_NAMES.set(k, name);
  }
  return name;
}

export const sharedScratch = new FitScratch();
