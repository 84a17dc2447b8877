import { z } from 'zod';
import { ProjectRef } from '../../projects/index.js';
import { AnomalyIdParams, CorrelatedEvent } from '../anomalies.schemas.js';

/** Anomaly ids are `anom_…`, derived from the series and the first fired day. */
export const AnomalyId = AnomalyIdParams.shape.id;

export const ExplainParams = AnomalyIdParams;

export const ExplainAnomalyToolInput = z.object({ project_id: ProjectRef, anomaly_id: AnomalyId }).strict();
export type ExplainAnomalyToolInput = z.infer<typeof ExplainAnomalyToolInput>;

/** Parts listed before the rest fold into one `_other` part (which keeps the sum exact). */
export const MAX_PARTS = 50;
/** Longest anomaly span the explanation reads day by day (longer episodes are cut to the last days). */
export const MAX_CURRENT_DAYS = 92;
export const MAX_CHECKS = 50;
export const MAX_SKILLS = 20;

export const Contribution = z.object({
  key: z.string().describe('Channel name (for the total) or campaign id (for a channel); _other folds the rest.'),
  label: z.string(),
  current: z
    .number()
    .nullable()
    .describe("Additive: the part's mean per day on the anomaly days; ratio: the part's own rate there."),
  baseline: z.number().nullable().describe('The same on the baseline days.'),
  change: z.number().describe("The part's contribution; the parts' changes sum to decomposition.change."),
  share_of_change: z.number().nullable().describe('change / decomposition.change (null when that is 0).'),
  share_of_largest: z
    .number()
    .describe("|change| / the largest part's |change| among the parts listed: 1 for the largest mover."),
  rate_effect: z.number().optional().describe('Ratio KPIs: the part of change due to its own rate.'),
  mix_effect: z.number().optional().describe('Ratio KPIs: the part of change due to its share of the denominator.'),
  current_weight: z.number().optional(),
  baseline_weight: z.number().optional(),
});

export const DqCheck = z.object({
  id: z.string(),
  monitor: z.string(),
  status: z.string(),
  dataset: z.string(),
  datastream_id: z.string().nullable(),
  run_id: z.string().nullable(),
  run_window: z.object({ from: z.string(), to: z.string() }),
  observed: z.number().nullable(),
  threshold: z.number().nullable(),
  message: z.string(),
  finished_at: z.string(),
});

export const SkillMatchOutput = z.object({
  name: z.string(),
  description: z.string(),
  version: z.number(),
  keys: z.array(z.string()),
  next: z.object({ tool: z.literal('get_procedure'), arguments: z.object({ name: z.string() }) }),
});

export const ExplainShape = {
  anomaly: z.object({
    id: z.string().nullable(),
    metric: z.string(),
    channel: z.string(),
    first_date: z.string(),
    last_date: z.string(),
    peak_date: z.string().nullable(),
    direction: z.string().nullable(),
    value: z.number().nullable().describe('The detector: the peak day value, baseline and z.'),
    baseline: z.number().nullable(),
    z: z.number().nullable(),
  }),
  currency: z.string().nullable().describe('Of spend, revenue and CPA figures (the KPIs’ reporting currency).'),
  periods: z.object({
    current: z.object({ from: z.string(), to: z.string(), days: z.number(), days_with_data: z.number() }),
    baseline: z.object({
      from: z.string(),
      to: z.string(),
      seasonality: z.string(),
      days: z.number(),
      days_with_data: z.number(),
      weighting: z
        .enum(['equal', 'same_weekday'])
        .describe('same_weekday: each anomaly day is compared with baseline days of its weekday.'),
      excluded_days: z
        .number()
        .describe('Days of the window the detector left out of baselines (fired, low volume, expected).'),
    }),
  }),
  decomposition: z.object({
    method: z.enum(['additive', 'rate_mix']),
    breakdown: z.enum(['channel', 'campaign']),
    numerator: z.string().nullable(),
    denominator: z.string().nullable(),
    current_value: z.number().nullable(),
    baseline_value: z.number().nullable(),
    change: z.number().nullable().describe('current_value − baseline_value; the parts sum to it.'),
    relative_change: z.number().nullable(),
    rate_effect: z.number().optional(),
    mix_effect: z.number().optional(),
    parts: z.array(Contribution),
    folded_parts: z.number(),
    unavailable: z.string().optional(),
  }),
  context_events: z.array(CorrelatedEvent),
  data_quality: z.object({
    verdict: z
      .enum(['no_checks', 'passed', 'warnings', 'failed'])
      .describe('failed: a check failed or errored on a run of these dates, so suspect the data first.'),
    counts: z.object({ pass: z.number(), warn: z.number(), fail: z.number(), error: z.number() }),
    checks: z.array(DqCheck),
  }),
  skills: z.object({ keys: z.array(z.string()), matches: z.array(SkillMatchOutput) }),
};

export const ExplainOutput = z.object({ project_id: z.string(), ...ExplainShape });
export type ExplainOutput = z.infer<typeof ExplainOutput>;
