/**
 * Chart and polling logic of the data views, kept free of the DOM so unit tests import it
 * directly: the anomaly band and the value axis around it, the chart kind of a report, and when a
 * run has settled.
 */

export interface BaselinePoint {
  date: string;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  fired: boolean;
}

export interface Band {
  days: string[];
  values: (number | null)[];
  baseline: (number | null)[];
  lower: (number | null)[];
  upper: (number | null)[];
  fired: string[];
}

/**
 * The band the anomaly model fires outside of: mean ± threshold × σ per day. A day without a
 * baseline (too little history) has no band; a flat baseline (σ 0) collapses the band onto the mean.
 */
export function bandOf(points: BaselinePoint[], threshold: number): Band {
  const days: string[] = [];
  const values: (number | null)[] = [];
  const baseline: (number | null)[] = [];
  const lower: (number | null)[] = [];
  const upper: (number | null)[] = [];
  const fired: string[] = [];
  for (const p of points) {
    days.push(p.date);
    values.push(p.value);
    const mean = p.baseline_mean;
    const sd = p.baseline_stddev ?? 0;
    baseline.push(mean);
    lower.push(mean === null ? null : mean - threshold * sd);
    upper.push(mean === null ? null : mean + threshold * sd);
    if (p.fired) fired.push(p.date);
  }
  return { days, values, baseline, lower, upper, fired };
}

/** A day's band this many times wider than the chart's median band does not set the value axis. */
const OUTLIER_BAND = 3;

const finite = (xs: (number | null)[] | undefined) =>
  (xs ?? []).filter((x): x is number => x !== null && Number.isFinite(x));

/**
 * The value axis of a chart with a band: the values, the baseline, and the band of every day whose
 * band is of the chart's usual width. A band more than three times the median width is clipped at
 * the plot's edge instead: after a spike the trailing σ of the days whose window holds it grows
 * many times over, and when their band set the axis every other day's band was pressed into the
 * value line (a few pixels, hidden under it).
 */
export function bandedRange(
  values: (number | null)[],
  baseline: (number | null)[] | undefined,
  lower: (number | null)[],
  upper: (number | null)[],
): [number, number] | null {
  const core = [...finite(values), ...finite(baseline)];
  if (core.length === 0) return null;
  let low = Math.min(...core);
  let high = Math.max(...core);
  const bands = lower.flatMap((lo, i) => {
    const hi = upper[i];
    return lo === null || hi === null || hi === undefined || !Number.isFinite(lo) || !Number.isFinite(hi)
      ? []
      : [{ lo, hi, width: hi - lo }];
  });
  const widths = bands.map((b) => b.width).sort((a, b) => a - b);
  const median = widths.length ? widths[Math.floor((widths.length - 1) / 2)]! : 0;
  for (const b of bands) {
    if (b.width > OUTLIER_BAND * median) continue;
    low = Math.min(low, b.lo);
    high = Math.max(high, b.hi);
  }
  return [low, high];
}

/** Days around an anomaly worth charting: its whole baseline window and a little after it. */
export function chartRange(anomalyDate: string, windowFrom: string, after = 7): { from: string; to: string } {
  const to = new Date(Date.parse(`${anomalyDate}T00:00:00Z`) + after * 86_400_000).toISOString().slice(0, 10);
  return { from: windowFrom < anomalyDate ? windowFrom : anomalyDate, to };
}

/** A line over a date dimension, bars otherwise. */
export function chartKindOf(dimensions: readonly string[]): 'line' | 'bars' {
  return dimensions.includes('date') ? 'line' : 'bars';
}

export interface RunState {
  status: 'queued' | 'running' | 'succeeded' | 'failed' | string;
  retries_exhausted: boolean;
}

/** A run has settled when it succeeded or failed for good (a failed attempt with retries left runs again). */
export const isSettled = (run: RunState) =>
  run.status === 'succeeded' || (run.status === 'failed' && run.retries_exhausted);

/** Backoff between status polls: 0.5 s, growing by half each time, at most 5 s. */
export const pollDelayMs = (attempt: number) => Math.min(5000, Math.round(500 * 1.5 ** attempt));

/** How many polls a view makes before it stops and says so (about ten minutes at the longest delay). */
export const MAX_POLLS = 130;
