import { z } from 'zod';
import { CalendarDate } from '../../platform/calendar.js';
import { ProjectId, ProjectRef } from '../projects/index.js';

/** The KPI metrics of kpis_daily that surveillance watches. */
export const METRICS = [
  'spend',
  'revenue',
  'conversions',
  'clicks',
  'impressions',
  'roas',
  'cpa',
  'ctr',
  'cvr',
] as const;
export type Metric = (typeof METRICS)[number];
export const Metric = z.enum(METRICS);

export const DIRECTIONS = ['spike', 'drop', 'both'] as const;
export const Direction = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof Direction>;

/** What people said about a fired anomaly: the transitions are triage's (triage/triage.rules.ts). */
export const TRIAGE_STATUSES = ['open', 'acknowledged', 'resolved', 'expected', 'false_positive'] as const;
export const TriageStatus = z.enum(TRIAGE_STATUSES);
export type TriageStatus = z.infer<typeof TriageStatus>;

/** The channel name of a project's total across channels. */
export const TOTAL_CHANNEL = '_total';

const Since = CalendarDate.describe('Default: 30 days ago.');
const To = CalendarDate.describe('Last date, inclusive.');
const Cursor = z.string().max(500).describe('next_cursor of the previous page.');
const AnomalyIdValue = z
  .string()
  .regex(/^anom_[0-9a-f]{24}$/, 'an anomaly id: anom_ and 24 hexadecimal digits')
  .describe('The anomaly id (anom_…).');
/**
 * What a link names: the window widens to include it whatever its age (a link from an alert or a
 * colleague to an anomaly older than the default 30 days must not open an empty list).
 */
const FocusDate = CalendarDate.describe(
  'A day the answer must include: the window widens to it, and focus is the anomaly (of metric and channel when ' +
    'given) with a fired day on it.',
);
const FocusId = AnomalyIdValue.describe(
  'An anomaly the answer must include (anom_…): the window widens to its first day, and focus is that anomaly.',
);

export const AnomaliesQuery = z
  .object({
    project_id: ProjectId,
    since: Since.optional(),
    to: To.optional(),
    metric: Metric.optional(),
    direction: z.enum(['spike', 'drop']).optional(),
    channel: z.string().max(100).optional(),
    status: TriageStatus.optional().describe('Only anomalies with this triage status (never triaged: open).'),
    date: FocusDate.optional(),
    anomaly_id: FocusId.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100).describe('Page size (1–500, default 100).'),
    cursor: Cursor.optional(),
  })
  .superRefine(sinceNotAfterTo);

export const MAX_TOOL_ANOMALIES = 200;

export const GetAnomaliesToolInput = z
  .object({
    project_id: ProjectRef,
    since: Since.optional(),
    to: To.optional(),
    metric: Metric.optional(),
    direction: z.enum(['spike', 'drop']).optional(),
    channel: z.string().max(100).optional().describe('Only this channel ("_total" is the project total).'),
    date: FocusDate.optional(),
    anomaly_id: FocusId.optional(),
    limit: z.number().int().min(1).max(MAX_TOOL_ANOMALIES).default(50),
    cursor: Cursor.optional(),
  })
  .strict()
  .superRefine(sinceNotAfterTo);

function sinceNotAfterTo(value: { since?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (value.since && value.to && value.to < value.since)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `must be on or after since (${value.since})` });
}

/** The app-only read behind the anomalies chart: one series with its trailing baseline. */
export const GetMetricSeriesToolInput = z
  .object({
    project_id: ProjectRef,
    metric: Metric.describe('The KPI metric.'),
    channel: z
      .string()
      .min(1)
      .max(100)
      .default(TOTAL_CHANNEL)
      .describe(`The channel; "${TOTAL_CHANNEL}" (default) is the project total.`),
    from: CalendarDate.optional().describe('First day (default: 55 days before to).'),
    to: CalendarDate.optional().describe('Last day (default: yesterday in the project timezone).'),
  })
  .strict();
export type GetMetricSeriesToolInput = z.infer<typeof GetMetricSeriesToolInput>;

/** The context event that explains a day that would have fired (expected_event_types). */
const ExplainedByEvent = z
  .object({ id: z.string(), title: z.string(), event_type: z.string() })
  .describe('The context event of an expected type whose active window explains the day (status explained).');

export const MetricSeriesPoint = z.object({
  date: z.string(),
  value: z.number(),
  baseline_mean: z.number().nullable(),
  baseline_stddev: z.number().nullable(),
  training_size: z.number(),
  z: z.number().nullable(),
  score: z.number(),
  status: z.string(),
  fired: z.boolean(),
  precedent: z.number().nullable(),
  explained_by: z.object({ channel: z.string(), metric: z.string() }).nullable(),
  explained_by_event: ExplainedByEvent.nullable(),
});

export const MetricSeriesShape = {
  metric: z.string(),
  channel: z.string(),
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  rule: z.object({
    enabled: z.boolean(),
    threshold: z.number().describe('The band is baseline_mean ± threshold × baseline_stddev.'),
    direction: z.string(),
    min_training_days: z.number(),
    min_relative_change: z.number(),
    window_days: z.number(),
    seasonality: z.string(),
  }),
  points: z.array(MetricSeriesPoint),
};

export const MetricSeriesOutput = z.object({ project_id: z.string(), ...MetricSeriesShape });

export const CorrelatedEvent = z.object({
  id: z.string(),
  event_type: z.string(),
  title: z.string(),
  event_date: z.string(),
  active_until: z.string(),
});

export const AnomalyKind = z.enum(['spike', 'drop', 'level_shift']);

export const AnomalyOutput = z.object({
  id: z.string().describe('Stable anomaly id (anom_…): the same for a re-evaluation of the same days.'),
  kind: AnomalyKind.describe('level_shift: a sustained move the baseline then re-anchored on.'),
  first_date: z.string().describe('First fired day of the run of consecutive fired days.'),
  last_date: z.string().describe('Last fired day so far.'),
  peak_date: z.string().describe('The day with the highest score; the day fields below are that day.'),
  fired_days: z.number().describe('Fired days in the anomaly.'),
  score: z.number().describe('Peak score in [0, 1): |z| / (|z| + 3); 1 where the baseline is flat.'),
  severity: z.string().describe('low, medium, high or critical, from the score.'),
  date: z.string().describe('The peak day (same as peak_date).'),
  metric: z.string(),
  channel: z.string().describe(`"${TOTAL_CHANNEL}" is the project total across channels.`),
  value: z.number(),
  baseline_mean: z.number().nullable().describe("The baseline's expected value (the mean with baseline: mean)."),
  baseline_stddev: z
    .number()
    .nullable()
    .describe("The baseline's scale: 1.4826 × MAD (robust) or the standard deviation."),
  training_size: z.number(),
  window: z.object({ from: z.string(), to: z.string(), seasonality: z.string(), model: z.string() }),
  z: z.number().nullable().describe('null when the baseline is flat (scale 0): then the relative change decides.'),
  relative_change: z.number().nullable(),
  threshold: z.number(),
  min_relative_change: z.number(),
  min_abs_change: z.number().describe('The floor that applied where the baseline is flat at zero.'),
  watch: z.string(),
  direction: z.string().nullable(),
  fired: z.boolean(),
  status: TriageStatus.describe('Triage status (open until someone triages it).'),
  assignee: z.string().nullable().describe('The member the triage assigned it to (null: nobody).'),
  context_events: z.array(CorrelatedEvent),
});
export type AnomalyOutput = z.infer<typeof AnomalyOutput>;

const ExplainedBy = z.object({ channel: z.string(), metric: z.string() });

/** One evaluated day of an anomaly's series. */
export const AnomalyDay = z.object({
  date: z.string(),
  value: z.number(),
  baseline_mean: z.number().nullable(),
  baseline_stddev: z.number().nullable(),
  training_size: z.number(),
  z: z.number().nullable(),
  relative_change: z.number().nullable(),
  score: z.number(),
  severity: z.string().nullable(),
  direction: z.string().nullable(),
  kind: z.string().nullable(),
  fired: z.boolean(),
  status: z
    .string()
    .describe(
      'ok, fired, precedented (past the threshold but not beyond the precedent), explained (past the threshold, ' +
        'explained by another series that fired or by a context event), insufficient_training or insufficient_volume.',
    ),
  excluded: z.boolean().describe('Left out of later baselines.'),
  model: z.string(),
  precedent: z
    .number()
    .nullable()
    .describe('The largest same-side |value − expected| of the precedent window the day was held against.'),
  explained_by: ExplainedBy.nullable().describe('The fired series that explains the day (status explained).'),
  explained_by_event: ExplainedByEvent.nullable(),
});

export const AnomalyIdParams = z.object({ id: AnomalyIdValue });

/** The whole triage of an anomaly, as GET /api/anomalies/{id}/triage answers it. */
export const AnomalyTriage = z.object({
  status: TriageStatus,
  note: z.string().nullable(),
  assignee: z.string().nullable(),
  context_event_id: z.string().nullable().describe('The linked context event.'),
  context_event: z
    .object({ id: z.string(), title: z.string(), event_type: z.string(), event_date: z.string() })
    .nullable()
    .describe('The linked event as it stands (null when none is linked, or the event is gone).'),
  updated_at: z.string().nullable().describe('When it was last triaged; null when nobody triaged it yet.'),
  updated_by: z.string().nullable().describe('Who triaged it last (their subject).'),
  allowed_next: z.array(TriageStatus).describe('The statuses it may move to from here.'),
});
export type AnomalyTriage = z.infer<typeof AnomalyTriage>;

export const AnomalyDetailOutput = AnomalyOutput.extend({
  project_id: z.string(),
  triage: AnomalyTriage,
  days: z.array(AnomalyDay).describe('Every evaluated day from first_date to last_date.'),
  moved_with_it: z
    .array(
      z.object({
        date: z.string(),
        channel: z.string(),
        metric: z.string(),
        value: z.number(),
        baseline_mean: z.number().nullable(),
        relative_change: z.number().nullable(),
        z: z.number().nullable(),
      }),
    )
    .describe(
      'Days of other series this anomaly explains (a ratio it moved, the total): reported here, not as anomalies.',
    ),
});

export const FocusOutput = AnomalyOutput.nullable().describe(
  'The anomaly that date or anomaly_id names (null when none was given or nothing fired that day), whether or ' +
    'not it is on this page.',
);

export const AnomalyListOutput = z.object({
  project_id: z.string(),
  since: z.string().describe('First day of the window in use (widened to include date or anomaly_id).'),
  to: z.string().nullable(),
  focus: FocusOutput,
  anomalies: z.array(AnomalyOutput),
  next_cursor: z.string().nullable().describe('Pass it as cursor for the next page; null on the last page.'),
});

export const anomaliesResourceUri = (projectId: string) => `anomalies://${projectId}/recent`;
