import { z } from 'zod';
import { EventType } from '../../context-events/index.js';
import { CalendarDate } from '../../../platform/calendar.js';
import { ProjectId } from '../../projects/index.js';
import { Direction, type Metric, METRICS } from '../anomalies.schemas.js';

/** The settings of detection: what a project stores, and what the rule runs with (effective). */

export const SEASONALITIES = ['auto', 'none', 'day_of_week'] as const;
export type Seasonality = (typeof SEASONALITIES)[number];
export const BASELINES = ['robust', 'mean'] as const;
export type Baseline = (typeof BASELINES)[number];

/**
 * Defaults, with the measurements behind them in docs/api.md ("The detection rule", "Defaults and
 * why"): a robust baseline over 8 weeks with a weekly profile and a trend where the series shows
 * them, fired days left out of later baselines, level shifts, |z| ≥ 3.5, and a new anomaly only where
 * the deviation beats every same-side deviation of the last four years (precedent_days) by more
 * than 8% for a spike (precedent_margin), 4% for a drop (precedent_margin_drop), and runs of days
 * short of the threshold whose z add up past it (sustained_days). The first rule, kept for
 * comparison, is `baseline: "mean"`, `seasonality: "none"`, `window_days: 28`, `threshold: 3` with
 * exclusion, level shifts and precedents off.
 */
export const DEFAULT_SETTINGS = {
  window_days: 56,
  seasonality: 'auto' as Seasonality,
  seasonal_weeks: 8,
  threshold: 3.5,
  min_training_days: 14,
  min_relative_change: 0.05,
  direction: 'both' as Direction,
  baseline: 'robust' as (typeof BASELINES)[number],
  exclude_anomalies: true,
  level_shifts: true,
  level_shift_days: 5,
  // Four years: calendar effects (Black Friday, Christmas, the summer slump) come back within one,
  // and a series that swung this far before is not news when it does it again; a longer memory
  // is what cut the false detections on NAB (docs/api.md, "Defaults and why").
  precedent_days: 1460,
  // A new spike beats the precedent by more than 8%, a new drop by more than 4%: most false
  // detections of a long memory are records by a hair (a recurring spike 0.1% above the last one);
  // a drop is bounded by the level, so a second outage to zero beats the first only by the growth.
  precedent_margin: 0.08,
  precedent_margin_drop: 0.04,
  // Two consecutive days short of the threshold on one side whose z add up past it (Σz/√2) fire:
  // a three-day revenue drop in a noisy series never reached |z| 3.5 on any one day.
  sustained_days: 2,
  explain_related: true,
  // Days a holiday the team recorded covers do not fire (docs/api.md, step 8b). Not promotions: a
  // drop during a sale is news (the demo's video outage fell in its spring sale and was hidden).
  expected_event_types: ['holiday'] as string[],
};

/** The ratio KPIs and the count behind each: a ratio over few of them is noise. */
export const VOLUME_OF: Partial<Record<Metric, Metric>> = {
  roas: 'conversions',
  cpa: 'conversions',
  cvr: 'clicks',
  ctr: 'impressions',
};

/** The volume guard's default minimum of that count on the day (0 turns the guard off). */
export const DEFAULT_MIN_VOLUME: Partial<Record<Metric, number>> = {
  roas: 10,
  cpa: 10,
  cvr: 100,
  ctr: 1000,
};

/**
 * A baseline flat at zero has no relative change (and no z): without a floor, any non-zero value
 * would fire (one cent of spend on a channel that had none). The smallest |value − mean| that fires
 * there, in each metric's own unit: one currency unit, conversion or click; 100 impressions; 0.1 of
 * ROAS; 0.1 percentage point of CTR, 1 of CVR. The `min_abs_change` setting replaces these.
 */
export const DEFAULT_MIN_ABS_CHANGE: Record<Metric, number> = {
  spend: 1,
  revenue: 1,
  conversions: 1,
  clicks: 1,
  impressions: 100,
  roas: 0.1,
  cpa: 1,
  ctr: 0.001,
  cvr: 0.01,
};

const MinAbsChange = z.number().min(0).max(1e12);

const MetricOverride = z
  .object({
    enabled: z.boolean().optional(),
    threshold: z.number().positive().max(50).optional(),
    direction: Direction.optional(),
    min_relative_change: z.number().min(0).max(100).optional(),
    min_abs_change: MinAbsChange.optional(),
    min_training_days: z.number().int().min(2).max(365).optional(),
    min_volume: z
      .number()
      .min(0)
      .max(1e12)
      .optional()
      .describe(
        'Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day ' +
          'for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off.',
      ),
  })
  .strict();

export const AnomalySettingsInput = z
  .object({
    window_days: z
      .number()
      .int()
      .min(7)
      .max(365)
      .optional()
      .describe('Trailing baseline length in days, excluding the day evaluated (default 56).'),
    seasonality: z
      .enum(SEASONALITIES)
      .optional()
      .describe(
        'auto (default): a weekly profile and a trend term per series and day, each kept when it cuts the ' +
          "baseline's spread to 60% or less; none; day_of_week: the baseline is the same weekday over seasonal_weeks weeks.",
      ),
    baseline: z
      .enum(BASELINES)
      .optional()
      .describe('robust (default): median and a winsorized scale; mean: mean and sample standard deviation.'),
    exclude_anomalies: z
      .boolean()
      .optional()
      .describe('Leave fired days out of later baselines (default true; Elementary: anomaly_exclude_metrics).'),
    level_shifts: z
      .boolean()
      .optional()
      .describe(
        'A move fired on level_shift_days consecutive days on one side is one level shift, and the baseline re-anchors on the new level (default true).',
      ),
    level_shift_days: z
      .number()
      .int()
      .min(2)
      .max(28)
      .optional()
      .describe('Consecutive fired days that make a level shift (default 5).'),
    precedent_days: z
      .number()
      .int()
      .min(0)
      .max(3650)
      .optional()
      .describe(
        'A new anomaly fires only when |value − expected| beats every same-side deviation of the series in this many ' +
          'preceding days (default 1460; 0 turns the check off). Days people triaged acknowledged or resolved never count.',
      ),
    precedent_margin: z
      .number()
      .min(0)
      .max(10)
      .optional()
      .describe(
        'The share by which a new spike must beat the precedent: |value − expected| > (1 + precedent_margin) × ' +
          'the largest same-side deviation of precedent_days (default 0.08; 0: any larger deviation). Drops too ' +
          'when precedent_margin_drop is not given.',
      ),
    precedent_margin_drop: z
      .number()
      .min(0)
      .max(10)
      .optional()
      .describe(
        'The same share for a new drop (default: precedent_margin when that is given, else 0.04): a drop is ' +
          'bounded by the level, so a second outage to zero beats the first only by the growth in between.',
      ),
    sustained_days: z
      .number()
      .int()
      .min(1)
      .max(7)
      .optional()
      .describe(
        'A day short of the threshold also passes it when, with the up to sustained_days − 1 days before it that ' +
          'were ok and on the same side, (z_t + … + z_{t−k+1}) / √k does (default 2; 1: each day alone).',
      ),
    explain_related: z
      .boolean()
      .optional()
      .describe(
        'A day that fired with a series that explains it (a ratio with its numerator or denominator, the total with a ' +
          'channel) is reported as explained by it, not as an anomaly of its own (default true).',
      ),
    expected_event_types: z
      .array(EventType)
      .max(50)
      .optional()
      .describe(
        'Context event types whose active window explains the days it covers: such a day does not fire (status ' +
          'explained, naming the event) and is left out of later baselines (default ["holiday"]; [] turns it off).',
      ),
    seasonal_weeks: z
      .number()
      .int()
      .min(2)
      .max(52)
      .optional()
      .describe('Weeks of same-weekday history with day_of_week seasonality (default 8).'),
    threshold: z
      .number()
      .positive()
      .max(50)
      .optional()
      .describe('|z| at or above which an anomaly fires (default 3.5).'),
    min_training_days: z
      .number()
      .int()
      .min(2)
      .max(365)
      .optional()
      .describe('Baseline points needed before anything fires (default 14).'),
    min_relative_change: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe('Minimum |value − mean| / |mean| to fire (default 0.05 = 5%).'),
    min_abs_change: MinAbsChange.optional().describe(
      'Where the baseline is flat at zero (no relative change exists): minimum |value − mean| to fire, in the ' +
        "metric's unit, for every metric. Default per metric: 1 (spend, revenue, cpa, conversions, clicks), " +
        '100 impressions, 0.1 roas, 0.001 ctr, 0.01 cvr.',
    ),
    direction: Direction.optional().describe('spike, drop or both (default both).'),
    metrics: z
      .object(
        Object.fromEntries(METRICS.map((m) => [m, MetricOverride.optional()])) as Record<
          Metric,
          z.ZodOptional<typeof MetricOverride>
        >,
      )
      .strict()
      .optional(),
  })
  .strict();
export type AnomalySettingsInput = z.infer<typeof AnomalySettingsInput>;

export interface MetricRule {
  metric: Metric;
  enabled: boolean;
  threshold: number;
  direction: Direction;
  min_relative_change: number;
  min_abs_change: number;
  min_training_days: number;
  /** Null: no volume guard (not a ratio, or set to 0). */
  min_volume: number | null;
  volume_metric: Metric | null;
}

export interface EffectiveSettings {
  window_days: number;
  seasonality: Seasonality;
  baseline: Baseline;
  exclude_anomalies: boolean;
  level_shifts: boolean;
  level_shift_days: number;
  precedent_days: number;
  precedent_margin: number;
  precedent_margin_drop: number;
  sustained_days: number;
  explain_related: boolean;
  expected_event_types: string[];
  seasonal_weeks: number;
  threshold: number;
  min_training_days: number;
  min_relative_change: number;
  /** Null: each metric's own default (DEFAULT_MIN_ABS_CHANGE). */
  min_abs_change: number | null;
  direction: Direction;
  metrics: MetricRule[];
}

export const SettingsQuery = z.object({ project_id: ProjectId });

export const AnomalySettingsOutput = z.object({
  project_id: z.string(),
  settings: AnomalySettingsInput.describe('What was stored (PUT replaces it whole).'),
  effective: z.object({
    window_days: z.number(),
    seasonality: z.string(),
    baseline: z.string(),
    exclude_anomalies: z.boolean(),
    level_shifts: z.boolean(),
    level_shift_days: z.number(),
    precedent_days: z.number(),
    precedent_margin: z.number(),
    precedent_margin_drop: z.number(),
    sustained_days: z.number(),
    explain_related: z.boolean(),
    expected_event_types: z.array(z.string()),
    seasonal_weeks: z.number(),
    threshold: z.number(),
    min_training_days: z.number(),
    min_relative_change: z.number(),
    min_abs_change: z.number().nullable().describe("null: each metric's own default (see metrics[])."),
    direction: z.string(),
    metrics: z.array(
      z.object({
        metric: z.string(),
        enabled: z.boolean(),
        threshold: z.number(),
        direction: z.string(),
        min_relative_change: z.number(),
        min_abs_change: z.number(),
        min_training_days: z.number(),
        min_volume: z.number().nullable(),
        volume_metric: z.string().nullable(),
      }),
    ),
  }),
  updated_at: z.string().nullable(),
});

export const EvaluateQuery = z.object({
  project_id: ProjectId,
  from: CalendarDate.optional().describe('First date to evaluate (default: the first date with KPIs).'),
  to: CalendarDate.optional().describe('Last date to evaluate (default: the last date with KPIs).'),
});

export const EvaluateOutput = z.object({
  project_id: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  rows: z.number(),
  fired: z.number(),
});
