/**
 * Chart and polling logic of the data views, kept free of the DOM so unit tests import it
 * directly: the anomaly band, the chart kind of a report, and when a run has settled.
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
