import { z } from 'zod';
import { PageQuery } from '../../platform/pagination.js';
import { ProjectId, ProjectRef, TimeZone } from '../projects/index.js';
import { isCalendarDate } from '../providers/index.js';
import { ConnectionRefId } from '../credentials/index.js';
import { RELATIVE_RANGES } from './catalog.js';

const Name = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .regex(/^[^\u0000-\u001f]+$/, 'no control characters');
const CalendarDate = z.string().refine(isCalendarDate, 'must be a real calendar date YYYY-MM-DD');

export const RetrievalWindow = z
  .object({
    lookback_days: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(365, 'must be at most 365')
      .default(7)
      .describe('Days re-read on every run to catch late conversions.'),
    start_date: CalendarDate.optional().describe('First day of the first backfill.'),
  })
  .strict();

export const DatastreamDefinition = z
  .object({
    name: Name,
    connection_ref_id: ConnectionRefId,
    provider: z.string().min(1).max(64),
    cadence: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .nullable()
      .optional()
      .describe('hourly, daily, weekly, manual or a 5-field cron; omit for the nightly default.'),
    retrieval_window: RetrievalWindow.default({ lookback_days: 7 }),
    timezone: TimeZone.optional().describe("Defaults to the project's timezone."),
  })
  .strict();
export type DatastreamDefinition = z.infer<typeof DatastreamDefinition>;

const Filter = z
  .object({
    dimension: z.string().min(1),
    op: z.enum(['eq', 'neq', 'in', 'not_in']),
    value: z.union([
      z.string(),
      z.number(),
      z
        .array(z.union([z.string(), z.number()]))
        .min(1)
        .max(1000),
    ]),
  })
  .strict();

const DateRange = z.union([
  z.object({ relative: z.enum(RELATIVE_RANGES) }).strict(),
  z.object({ last_days: z.number().int().min(1).max(3660) }).strict(),
  z
    .object({ from: CalendarDate, to: CalendarDate })
    .strict()
    .refine((r) => r.from <= r.to, { message: 'from must not be after to', path: ['to'] }),
]);

export const ReportDefinition = z
  .object({
    name: Name,
    description: z.string().max(2000).optional(),
    dataset: z.string().min(1),
    metrics: z.array(z.string().min(1)).min(1).max(50),
    dimensions: z.array(z.string().min(1)).max(10).default([]),
    filters: z.array(Filter).max(50).default([]),
    date_range: DateRange,
  })
  .strict();
export type ReportDefinition = z.infer<typeof ReportDefinition>;

export const FLOW_KINDS = ['datastream', 'report_definition'] as const;

export const UpsertFlowInput = z
  .object({
    project_id: ProjectId,
    kind: z.string(),
    definition: z.record(z.string(), z.unknown()),
  })
  .strict();
export type UpsertFlowInput = z.infer<typeof UpsertFlowInput>;

export const FlowsQuery = z.object({ project_id: ProjectId }).strict();
export const RunsQuery = PageQuery.extend({
  project_id: ProjectId,
  datastream_id: z.string().min(1).max(80).optional(),
}).strict();
export type RunsQuery = z.infer<typeof RunsQuery>;
export const FlowPathParams = z.object({ id: z.string().min(1).max(80) });
/** Action endpoints take no body: an empty body or {} both work. */
export const EmptyBody = z.object({}).strict().optional();

export const DatastreamOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  connection_ref_id: z.string(),
  provider: z.string(),
  cadence: z.string().nullable(),
  retrieval_window: z.object({ lookback_days: z.number(), start_date: z.string().nullable() }),
  timezone: z.string(),
  schedule_source: z.enum(['datastream', 'default']),
  schedule: z.object({ cron: z.string().nullable(), timezone: z.string() }),
  next_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DatastreamOutput = z.infer<typeof DatastreamOutput>;

export const ReportDefinitionOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  definition: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});

export const FlowsOutput = z.object({
  datastreams: z.array(DatastreamOutput),
  report_definitions: z.array(ReportDefinitionOutput),
});
export const UpsertFlowOutput = z.object({
  kind: z.enum(FLOW_KINDS),
  datastream: DatastreamOutput.optional(),
  report_definition: ReportDefinitionOutput.optional(),
});

export const RunOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  datastream_id: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  trigger: z.string(),
  retries_exhausted: z.boolean(),
  attempts: z.number(),
  window: z.object({ from: z.string(), to: z.string() }),
  rows_read: z.number(),
  rows_written: z.number(),
  source_wait_ms: z
    .number()
    .describe(
      'Milliseconds the run waited on its source: retry delays it named, backoff after throttles, usage-header pauses.',
    ),
  queued_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  waiting_reason: z.string().nullable(),
  error: z.string().nullable(),
});
export type RunOutput = z.infer<typeof RunOutput>;
export const RunListOutput = z.object({ runs: z.array(RunOutput), next_cursor: z.string().nullable() });
export const RunQueuedOutput = z.object({ id: z.string(), run: RunOutput });

export const RunDatastreamToolInput = z
  .object({
    project_id: ProjectRef,
    datastream: z.string().min(1).max(120).describe('Datastream id (ds_…) or name.'),
    wait: z.boolean().default(true).describe('Wait for the run to finish, reporting progress.'),
  })
  .strict();
export const GetRunStatusToolInput = z
  .object({
    project_id: ProjectRef,
    run_id: z.string().min(1).max(120).describe('The run id run_datastream answered.'),
  })
  .strict();
export const ListDatastreamsToolInput = z.object({ project_id: ProjectRef }).strict();
