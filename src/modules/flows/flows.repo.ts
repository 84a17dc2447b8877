import type { SqlExecutor } from '../../platform/db/database.js';

export interface DatastreamRow {
  id: string;
  project_id: string;
  name: string;
  connection_ref_id: string;
  provider: string;
  cadence: string | null;
  lookback_days: number;
  start_date: string | null;
  timezone: string;
  next_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ReportDefinitionRow {
  id: string;
  project_id: string;
  name: string;
  definition: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface RunRow {
  id: string;
  project_id: string;
  datastream_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  trigger: string;
  window_from: string;
  window_to: string;
  rows_read: number;
  rows_written: number;
  source_wait_ms: number;
  attempts: number;
  retries_exhausted: boolean;
  waiting_reason: string | null;
  error: string | null;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const DS =
  'id, project_id, name, connection_ref_id, provider, cadence, lookback_days, start_date, timezone, next_run_at, created_at, updated_at';
const RUN = `id, project_id, datastream_id, status, trigger, window_from, window_to, rows_read, rows_written, source_wait_ms, attempts,
  retries_exhausted, waiting_reason, error, queued_at, started_at, finished_at`;

export async function upsertDatastream(
  db: SqlExecutor,
  row: Omit<DatastreamRow, 'created_at' | 'updated_at'> & { now: Date },
): Promise<DatastreamRow> {
  const rows = await db.query<DatastreamRow>(
    `INSERT INTO datastreams (id, project_id, name, connection_ref_id, provider, cadence, lookback_days, start_date, timezone, next_run_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (project_id, name) DO UPDATE SET
       connection_ref_id = EXCLUDED.connection_ref_id, provider = EXCLUDED.provider, cadence = EXCLUDED.cadence,
       lookback_days = EXCLUDED.lookback_days, start_date = EXCLUDED.start_date, timezone = EXCLUDED.timezone,
       next_run_at = EXCLUDED.next_run_at,
       -- An identical upsert changes nothing, not even updated_at (idempotent).
       updated_at = CASE WHEN (datastreams.connection_ref_id, datastreams.provider, datastreams.cadence, datastreams.lookback_days, datastreams.start_date, datastreams.timezone)
         IS NOT DISTINCT FROM (EXCLUDED.connection_ref_id, EXCLUDED.provider, EXCLUDED.cadence, EXCLUDED.lookback_days, EXCLUDED.start_date, EXCLUDED.timezone)
         THEN datastreams.updated_at ELSE EXCLUDED.updated_at END
     RETURNING ${DS}`,
    [
      row.id,
      row.project_id,
      row.name,
      row.connection_ref_id,
      row.provider,
      row.cadence,
      row.lookback_days,
      row.start_date,
      row.timezone,
      row.next_run_at,
      row.now,
    ],
  );
  return rows[0]!;
}

export async function listDatastreams(db: SqlExecutor, projectId: string): Promise<DatastreamRow[]> {
  return db.query<DatastreamRow>(`SELECT ${DS} FROM datastreams WHERE project_id = $1 ORDER BY name`, [projectId]);
}

export async function findDatastream(db: SqlExecutor, id: string): Promise<DatastreamRow | undefined> {
  return (await db.query<DatastreamRow>(`SELECT ${DS} FROM datastreams WHERE id = $1`, [id]))[0];
}

export async function dueDatastreamIds(db: SqlExecutor, now: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM datastreams WHERE next_run_at IS NOT NULL AND next_run_at <= $1 ORDER BY next_run_at, id`,
    [now],
  );
  return rows.map((r) => r.id);
}

export async function advanceNextRun(db: SqlExecutor, id: string, next: Date | null, claimed: Date): Promise<void> {
  await db.query('UPDATE datastreams SET next_run_at = $2 WHERE id = $1 AND next_run_at = $3', [id, next, claimed]);
}

export async function findDatastreamByName(
  db: SqlExecutor,
  projectId: string,
  name: string,
): Promise<DatastreamRow | undefined> {
  return (
    await db.query<DatastreamRow>(`SELECT ${DS} FROM datastreams WHERE project_id = $1 AND name = $2`, [
      projectId,
      name,
    ])
  )[0];
}

export async function upsertReportDefinition(
  db: SqlExecutor,
  row: { id: string; project_id: string; name: string; definition: unknown; now: Date },
): Promise<ReportDefinitionRow> {
  const rows = await db.query<ReportDefinitionRow>(
    `INSERT INTO report_definitions (id, project_id, name, definition, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (project_id, name) DO UPDATE SET definition = EXCLUDED.definition,
       updated_at = CASE WHEN report_definitions.definition = EXCLUDED.definition THEN report_definitions.updated_at ELSE EXCLUDED.updated_at END
     RETURNING id, project_id, name, definition, created_at, updated_at`,
    [row.id, row.project_id, row.name, JSON.stringify(row.definition), row.now],
  );
  return rows[0]!;
}

export async function listReportDefinitions(db: SqlExecutor, projectId: string): Promise<ReportDefinitionRow[]> {
  return db.query<ReportDefinitionRow>(
    'SELECT id, project_id, name, definition, created_at, updated_at FROM report_definitions WHERE project_id = $1 ORDER BY name',
    [projectId],
  );
}

export async function insertRun(
  db: SqlExecutor,
  row: Pick<
    RunRow,
    'id' | 'project_id' | 'datastream_id' | 'trigger' | 'window_from' | 'window_to' | 'waiting_reason'
  > & { now: Date },
): Promise<RunRow> {
  const rows = await db.query<RunRow>(
    `INSERT INTO datastream_runs (id, project_id, datastream_id, status, trigger, window_from, window_to, waiting_reason, queued_at)
     VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8) RETURNING ${RUN}`,
    [
      row.id,
      row.project_id,
      row.datastream_id,
      row.trigger,
      row.window_from,
      row.window_to,
      row.waiting_reason,
      row.now,
    ],
  );
  return rows[0]!;
}

export async function findRun(db: SqlExecutor, id: string): Promise<RunRow | undefined> {
  return (await db.query<RunRow>(`SELECT ${RUN} FROM datastream_runs WHERE id = $1`, [id]))[0];
}

/** Newest first, keyset on (queued_at, id). */
export async function listRuns(
  db: SqlExecutor,
  q: { projectId: string; datastreamId?: string; after?: [string, string]; limit: number },
): Promise<RunRow[]> {
  return db.query<RunRow>(
    `SELECT ${RUN} FROM datastream_runs
     WHERE project_id = $1 AND ($2::text IS NULL OR datastream_id = $2)
       AND ($3::timestamptz IS NULL OR (queued_at, id) < ($3::timestamptz, $4::text))
     ORDER BY queued_at DESC, id DESC LIMIT $5`,
    [q.projectId, q.datastreamId ?? null, q.after?.[0] ?? null, q.after?.[1] ?? null, q.limit],
  );
}

export async function hasSucceededRun(db: SqlExecutor, datastreamId: string): Promise<boolean> {
  return (
    (
      await db.query(`SELECT 1 FROM datastream_runs WHERE datastream_id = $1 AND status = 'succeeded' LIMIT 1`, [
        datastreamId,
      ])
    ).length > 0
  );
}

export async function hasAnyRun(db: SqlExecutor, datastreamId: string): Promise<boolean> {
  return (await db.query(`SELECT 1 FROM datastream_runs WHERE datastream_id = $1 LIMIT 1`, [datastreamId])).length > 0;
}
