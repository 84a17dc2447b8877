/**
 * The robust statistics of the detection rule, kept apart so docs/api.md can name each one and a
 * reader can check them against their own implementation. All functions leave their input intact.
 */

/** The median; the mean of the two middle values for an even count. NaN for an empty list. */
export function median(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const s = Float64Array.from(values).sort();
  const mid = n >> 1;
  return n % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** 1.4826 · MAD estimates σ for normal data; 1.2533 · mean absolute deviation where the MAD is 0. */
export const MAD_TO_SIGMA = 1.4826;
export const MEAN_AD_TO_SIGMA = 1.2533;

/** Residuals are clipped at this many MAD-based σ from their median before the scale is taken. */
export const WINSOR_K = 3;

/**
 * The robust scale of residuals: the sample standard deviation (n − 1) after winsorizing them at
 * their median ± 3 s, with s = 1.4826 · MAD (1.2533 · the mean absolute deviation from the median
 * where more than half the points sit on the median, Iglewicz and Hoaglin's fallback). Clipping
 * keeps one spike from inflating the scale; keeping the clipped tails (not the MAD alone) keeps the
 * heavier-than-normal tails of marketing noise in it, so z is not overstated. 0 when every point is
 * equal (a flat baseline: no z, the relative change decides).
 */
export function robustScale(residuals: readonly number[]): number {
  if (residuals.length < 2) return 0;
  const m = median(residuals);
  const dev = residuals.map((r) => Math.abs(r - m));
  const mad = median(dev);
  const s = mad > 0 ? MAD_TO_SIGMA * mad : (MEAN_AD_TO_SIGMA * dev.reduce((a, b) => a + b, 0)) / dev.length;
  if (s === 0) return 0;
  const clipped = residuals.map((r) => Math.min(m + WINSOR_K * s, Math.max(m - WINSOR_K * s, r)));
  return stddevSamp(clipped) ?? 0;
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Sample standard deviation (n − 1), as PostgreSQL's stddev_samp; null below two points. */
export function stddevSamp(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  const m = mean(values);
  return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1));
}

/** The score's half point: |z| = 3 scores 0.5, whatever a metric's own threshold. */
export const SCORE_HALF_Z = 3;

/**
 * The anomaly score in [0, 1): |z| / (|z| + 3), strictly increasing in |z|, 0.5 at |z| = 3, 0.75 at
 * 9. A flat baseline (no z) scores 1 when the value differs from it and 0 when it does not.
 */
export function scoreOf(z: number | null, differs: boolean): number {
  if (z === null) return differs ? 1 : 0;
  const a = Math.abs(z);
  return a / (a + SCORE_HALF_Z);
}

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Severity bands of the score: < 0.6 low (|z| < 4.5), < 0.7 medium (< 7), < 0.8 high (< 12), else critical. */
export function severityOf(score: number): Severity {
  if (score >= 0.8) return 'critical';
  if (score >= 0.7) return 'high';
  if (score >= 0.6) return 'medium';
  return 'low';
}

/**
 * Kruskal–Wallis H of groups of values (average ranks for ties, no tie correction):
 * H = 12 / (N (N + 1)) · Σ R_g² / n_g − 3 (N + 1), R_g the sum of group g's ranks.
 */
export function kruskalWallisH(groups: readonly (readonly number[])[]): number {
  const all = groups.flatMap((g, gi) => g.map((v) => ({ v, gi })));
  const n = all.length;
  if (n < 2) return 0;
  all.sort((a, b) => a.v - b.v);
  const rankSum = new Array<number>(groups.length).fill(0);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && all[j + 1]!.v === all[i]!.v) j += 1;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k += 1) rankSum[all[k]!.gi]! += rank;
    i = j + 1;
  }
  let sum = 0;
  groups.forEach((g, gi) => {
    if (g.length) sum += rankSum[gi]! ** 2 / g.length;
  });
  return (12 / (n * (n + 1))) * sum - 3 * (n + 1);
}

/** χ² with 6 degrees of freedom at the 1% level: seven weekday groups differ beyond chance. */
export const WEEKLY_H_CRITICAL = 16.81;
