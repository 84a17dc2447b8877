import type { Direction } from '../../anomalies.schemas.js';
import type { Baseline, Seasonality } from '../detection.schemas.js';

/**
 * What the rule (rule.series.ts) and both ways of fitting a baseline (rule.baseline.ts on
 * plain arrays, rule.fit.ts on reused buffers) share: the rule's parameters, a day of a
 * series, a fit and the constants of the terms a fit may keep.
 */

/** Which side of the baseline a metric watches. */
export type Watch = Direction;

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
  /** The share by which a new spike's deviation must beat the precedent (0: any larger deviation). */
  precedent_margin: number;
  /** The same for a new drop. */
  precedent_margin_drop: number;
  /** Up to this many consecutive quiet days on one side combine their z (Σz/√k); 1: each day alone. */
  sustained_days: number;
}

/** A day of the series: d is the day number (days since Monday 2000-01-03, so d mod 7 is the weekday). */
export interface SeriesPoint {
  d: number;
  value: number;
  /** The count behind a ratio (conversions, clicks, impressions); null for other metrics. */
  volume: number | null;
}

/** A baseline for one day: its expected value, its scale (σ-equivalent) and the terms it used. */
export interface Fit {
  expected: number;
  scale: number | null;
  model: string;
}

/** A trend term is kept only when it cuts the residual scale to at most this share. */
export const TERM_GAIN = 0.6;
/** A trend term needs this many baseline points; a weekly profile needs 3 per weekday. */
export const TREND_MIN_POINTS = 10;
export const WEEKLY_MIN_PER_DAY = 3;

/** The weekday of day number d (0 = Monday), for negative d too. */
export const mod7 = (d: number) => ((d % 7) + 7) % 7;
