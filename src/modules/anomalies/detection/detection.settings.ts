import type { FieldViolation } from '../../../platform/errors.js';
import { METRICS, type Metric } from '../anomalies.schemas.js';
import {
  DEFAULT_MIN_ABS_CHANGE,
  DEFAULT_MIN_VOLUME,
  DEFAULT_SETTINGS,
  VOLUME_OF,
  type AnomalySettingsInput,
  type EffectiveSettings,
} from './detection.schemas.js';

/** The settings a project stored, resolved into what the rule runs with, and the checks across fields. */

export function effective(input: AnomalySettingsInput): EffectiveSettings {
  const base = { ...DEFAULT_SETTINGS, ...stripUndefined(input) };
  if (base.seasonality === 'day_of_week' && input.min_training_days === undefined)
    base.min_training_days = Math.min(base.min_training_days, base.seasonal_weeks);
  return {
    window_days: base.window_days,
    seasonality: base.seasonality,
    seasonal_weeks: base.seasonal_weeks,
    baseline: base.baseline,
    exclude_anomalies: base.exclude_anomalies,
    level_shifts: base.level_shifts,
    level_shift_days: base.level_shift_days,
    precedent_days: base.precedent_days,
    precedent_margin: base.precedent_margin,
    // Given alone, precedent_margin is both sides' (as before precedent_margin_drop existed).
    precedent_margin_drop:
      input.precedent_margin_drop ?? input.precedent_margin ?? DEFAULT_SETTINGS.precedent_margin_drop,
    sustained_days: base.sustained_days,
    explain_related: base.explain_related,
    // One spelling per type, each once (the schema normalized them; a stored list may repeat one).
    expected_event_types: [...new Set(base.expected_event_types)],
    threshold: base.threshold,
    min_training_days: base.min_training_days,
    min_relative_change: base.min_relative_change,
    min_abs_change: input.min_abs_change ?? null,
    direction: base.direction,
    metrics: METRICS.map((metric: Metric) => {
      const o = input.metrics?.[metric] ?? {};
      return {
        metric,
        enabled: o.enabled ?? true,
        threshold: o.threshold ?? base.threshold,
        direction: o.direction ?? base.direction,
        min_relative_change: o.min_relative_change ?? base.min_relative_change,
        min_abs_change: o.min_abs_change ?? input.min_abs_change ?? DEFAULT_MIN_ABS_CHANGE[metric],
        min_training_days: o.min_training_days ?? base.min_training_days,
        ...volumeGuard(metric, o.min_volume),
      };
    }),
  };
}

function volumeGuard(metric: Metric, setting: number | undefined) {
  const volumeMetric = VOLUME_OF[metric] ?? null;
  const min = setting ?? DEFAULT_MIN_VOLUME[metric] ?? 0;
  return { volume_metric: volumeMetric, min_volume: volumeMetric && min > 0 ? min : null };
}

/** A training minimum the baseline can never reach would silence surveillance: refuse it. */
export function crossFieldViolations(input: AnomalySettingsInput): FieldViolation[] {
  const s = effective(input);
  const capacity = s.seasonality === 'day_of_week' ? s.seasonal_weeks : s.window_days;
  const what =
    s.seasonality === 'day_of_week' ? `seasonal_weeks (${s.seasonal_weeks})` : `window_days (${s.window_days})`;
  const out: FieldViolation[] = [];
  if (input.min_training_days !== undefined && input.min_training_days > capacity) {
    out.push({
      path: 'body.min_training_days',
      message: `must be at most ${what}: the baseline never holds more points`,
    });
  }
  for (const metric of METRICS) {
    if (input.metrics?.[metric]?.min_volume !== undefined && !VOLUME_OF[metric])
      out.push({
        path: `body.metrics.${metric}.min_volume`,
        message: 'only ratio metrics (roas, cpa, ctr, cvr) have a volume guard',
      });
    const m = input.metrics?.[metric]?.min_training_days;
    if (m !== undefined && m > capacity)
      out.push({
        path: `body.metrics.${metric}.min_training_days`,
        message: `must be at most ${what}: the baseline never holds more points`,
      });
  }
  return out;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== undefined && k !== 'metrics')) as Partial<T>;
}
