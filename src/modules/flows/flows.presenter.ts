import type { DatastreamRow, ReportDefinitionRow, RunRow } from './flows.repo.js';
import type { DatastreamOutput, RunOutput } from './flows.schemas.js';
import type { Schedule } from './cadence.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentDatastream(row: DatastreamRow, schedule: Schedule): DatastreamOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    connection_ref_id: row.connection_ref_id,
    provider: row.provider,
    cadence: row.cadence,
    retrieval_window: { lookback_days: row.lookback_days, start_date: row.start_date },
    timezone: row.timezone,
    schedule_source: schedule.source,
    schedule: { cron: schedule.cron, timezone: schedule.timezone },
    next_run_at: iso(schedule.next_run_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function presentReportDefinition(row: ReportDefinitionRow) {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    definition: row.definition,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function presentRun(row: RunRow): RunOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    datastream_id: row.datastream_id,
    status: row.status,
    trigger: row.trigger,
    retries_exhausted: row.retries_exhausted,
    attempts: row.attempts,
    window: { from: row.window_from, to: row.window_to },
    rows_read: Number(row.rows_read),
    rows_written: Number(row.rows_written),
    source_wait_ms: Number(row.source_wait_ms ?? 0),
    queued_at: iso(row.queued_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    waiting_reason: row.status === 'queued' ? row.waiting_reason : null,
    error: row.error,
  };
}
