import { MAD_TO_SIGMA, MEAN_AD_TO_SIGMA, WINSOR_K } from './rule.stats.js';

/**
 * The statistics of rule.stats.ts on preallocated Float64Array buffers, bit for bit: the rule
 * takes a dozen medians a day, and sorting a fresh copy for each (stats.median) was most of its
 * time. A median here is a quickselect (linear on average) in a scratch buffer, so nothing is
 * allocated per day. Sums run in the same order as the reference's reduce calls, so every
 * floating-point result is the same, not merely close.
 *
 * Inputs must be finite (no NaN, no ±Infinity): the caller keeps the reference functions for a
 * series that has any other value. A zero at a median rank gets the sign the reference's sort
 * gives it (TypedArray sort puts −0 before +0; a select sees them as equal).
 */

/** The k-th smallest (0-based) of a[0..n), partially reordering a: elements before k end ≤ it. */
function selectK(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i += 1;
      while (a[j]! > pivot) j -= 1;
      if (i <= j) {
        const x = a[i]!;
        a[i] = a[j]!;
        a[j] = x;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** A zero at sorted rank k: −0 when the negatives and −0s reach past k, as a sorted copy would have it. */
function signedZeroAt(a: Float64Array, n: number, k: number): number {
  let below = 0;
  for (let i = 0; i < n; i += 1) {
    const x = a[i]!;
    if (x < 0 || (x === 0 && 1 / x < 0)) below += 1;
  }
  return below > k ? -0 : 0;
}

/** The values at sorted ranks ⌊n/2⌋ − 1 (even n only) and ⌊n/2⌋ of the last medianInPlace. */
export const ranks = { lo: 0, hi: 0 };

/** stats.median of a[0..n), reordering a (pass a scratch copy). NaN for n = 0. */
export function medianInPlace(a: Float64Array, n: number): number {
  if (n === 0) return Number.NaN;
  const mid = n >> 1;
  let hi = selectK(a, n, mid);
  if (hi === 0) hi = signedZeroAt(a, n, mid);
  ranks.hi = hi;
  if (n % 2) return hi;
  // Everything before mid is ≤ a[mid] after the select: the rank mid − 1 is their maximum.
  let lo = a[0]!;
  for (let i = 1; i < mid; i += 1) if (a[i]! > lo) lo = a[i]!;
  if (lo === 0) lo = signedZeroAt(a, n, mid - 1);
  ranks.lo = lo;
  return (lo + hi) / 2;
}

/** stats.median of src[from..from+n) through the scratch buffer tmp (src is left intact). */
export function medianOf(src: Float64Array, from: number, n: number, tmp: Float64Array): number {
  for (let i = 0; i < n; i += 1) tmp[i] = src[from + i]!;
  return medianInPlace(tmp, n);
}

/**
 * fitBaseline's robust scaleOf: robustScale(ys − median(ys)) of ys[0..n), writing the residuals
 * into res. The residuals' median needs no second selection: x ↦ x − l is rounded monotonically,
 * so the residuals' ranks are the values' ranks, and their middle values are the middle values of
 * ys minus l, as computed element by element (signs of zero included). `loc` answers l.
 */
export function robustScaleAroundMedian(
  ys: Float64Array,
  n: number,
  res: Float64Array,
  tmp: Float64Array,
  dev: Float64Array,
  loc: { value: number },
): number {
  const l = medianOf(ys, 0, n, tmp);
  loc.value = l;
  for (let i = 0; i < n; i += 1) res[i] = ys[i]! - l;
  if (n < 2) return 0;
  const m = n % 2 ? ranks.hi - l : (ranks.lo - l + (ranks.hi - l)) / 2;
  return robustScaleWith(res, n, m, tmp, dev);
}

/** stats.mean of src[from..from+n), summed in order. */
export function meanOf(src: Float64Array, from: number, n: number): number {
  let acc = 0;
  for (let i = from; i < from + n; i += 1) acc += src[i]!;
  return acc / n;
}

/** stats.stddevSamp of src[0..n); null below two points. */
export function stddevOf(src: Float64Array, n: number): number | null {
  if (n < 2) return null;
  const m = meanOf(src, 0, n);
  let acc = 0;
  for (let i = 0; i < n; i += 1) acc += (src[i]! - m) ** 2;
  return Math.sqrt(acc / (n - 1));
}

/** stats.robustScale of r[0..n), with two scratch buffers of at least n (r is left intact). */
export function robustScaleOf(r: Float64Array, n: number, tmp: Float64Array, dev: Float64Array): number {
  if (n < 2) return 0;
  return robustScaleWith(r, n, medianOf(r, 0, n, tmp), tmp, dev);
}

/** robustScaleOf once the residuals' median m is known. */
function robustScaleWith(r: Float64Array, n: number, m: number, tmp: Float64Array, dev: Float64Array): number {
  // The deviations go straight into the selection buffer; their sum (the fallback's) is taken in
  // the reference's order on the way.
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    const d = Math.abs(r[i]! - m);
    tmp[i] = d;
    sum += d;
  }
  return winsorizedScale(r, n, m, medianInPlace(tmp, n), sum, dev);
}

/** stats.robustScale's last steps, from the residuals' median m, the MAD and the deviations' sum. */
function winsorizedScale(
  r: Float64Array,
  n: number,
  m: number,
  mad: number,
  sum: number,
  clipped: Float64Array,
): number {
  const s = mad > 0 ? MAD_TO_SIGMA * mad : (MEAN_AD_TO_SIGMA * sum) / n;
  if (s === 0) return 0;
  const hi = m + WINSOR_K * s;
  const lo = m - WINSOR_K * s;
  let acc = 0;
  for (let i = 0; i < n; i += 1) {
    const c = Math.min(hi, Math.max(lo, r[i]!));
    clipped[i] = c;
    acc += c;
  }
  const mc = acc / n;
  let sq = 0;
  for (let i = 0; i < n; i += 1) sq += (clipped[i]! - mc) ** 2;
  return Math.sqrt(sq / (n - 1));
}

/**
 * robustScaleAroundMedian when the values' sorted order is at hand (`sorted`, TypedArray order;
 * ys the same values in day order): the median is read off, and the MAD comes from walking out
 * of the middle, since |(x − l) − m| falls then rises along sorted x (each step rounded
 * monotonically), instead of from two selections.
 */
export function robustScaleSorted(
  sorted: Float64Array,
  ys: Float64Array,
  n: number,
  res: Float64Array,
  clipped: Float64Array,
  loc: { value: number },
): number {
  const mid = n >> 1;
  const l = n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  loc.value = l;
  for (let i = 0; i < n; i += 1) res[i] = ys[i]! - l;
  if (n < 2) return 0;
  const m = n % 2 ? sorted[mid]! - l : (sorted[mid - 1]! - l + (sorted[mid]! - l)) / 2;
  let sum = 0;
  for (let i = 0; i < n; i += 1) sum += Math.abs(res[i]! - m);
  // Left of p the residuals are below m, from p on at or above it.
  let p = mid;
  while (p > 0 && sorted[p - 1]! - l >= m) p -= 1;
  while (p < n && sorted[p]! - l < m) p += 1;
  let i = p - 1;
  let j = p;
  let below = 0;
  let at = 0;
  for (let k = 0; k <= mid; k += 1) {
    const left = i >= 0 ? Math.abs(sorted[i]! - l - m) : Number.POSITIVE_INFINITY;
    const right = j < n ? Math.abs(sorted[j]! - l - m) : Number.POSITIVE_INFINITY;
    below = at;
    if (left <= right) {
      at = left;
      i -= 1;
    } else {
      at = right;
      j += 1;
    }
  }
  return winsorizedScale(res, n, m, n % 2 ? at : (below + at) / 2, sum, clipped);
}

/** Sorted order as TypedArray sort has it: numeric, −0 before +0. */
export const sortsBefore = (x: number, y: number) => x < y || (x === 0 && y === 0 && 1 / x < 0 && 1 / y > 0);
