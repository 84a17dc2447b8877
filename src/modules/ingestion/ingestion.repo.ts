import type { SqlExecutor } from '../../platform/db/database.js';

/**
 * Moves a run to `running`. False when another run of the datastream is running (the partial
 * unique index refuses a second one), so runs of one datastream never overlap.
 */
export async function claim(db: SqlExecutor, runId: string, now: Date): Promise<boolean> {
  try {
    const rows = await db.query(
      `UPDATE datastream_runs SET status = 'running', attempts = attempts + 1, started_at = $2, finished_at = NULL,
         error = NULL, waiting_reason = NULL, rows_read = 0, rows_written = 0, retries_exhausted = false,
         source_wait_ms = 0
       WHERE id = $1 AND status <> 'succeeded' RETURNING id`,
      [runId, now],
    );
    return rows.length === 1;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return false;
    throw error;
  }
}

/**
 * A `running` row whose process died and whose job ran out of retries would block its datastream
 * for good; once it is older than the job expiry it is marked failed so the next run can start.
 */
export interface FailedRun {
  id: string;
  project_id: string;
  window_from: string;
  window_to: string;
  attempts: number;
  trigger: string;
  error: string;
}

export async function failAbandoned(
  db: SqlExecutor,
  datastreamId: string,
  olderThan: Date,
  now: Date,
): Promise<FailedRun[]> {
  return db.query<FailedRun>(
    `UPDATE datastream_runs SET status = 'failed', retries_exhausted = true, finished_at = $3,
       error = 'abandoned: the process running it stopped before it finished'
     WHERE datastream_id = $1 AND status = 'running' AND started_at < $2
     RETURNING id, project_id, window_from, window_to, attempts, trigger, error`,
    [datastreamId, olderThan, now],
  );
}

/** The raw landing holds one run per datastream: the previous one's rows go first. */
export async function clearLanding(db: SqlExecutor, datastreamId: string): Promise<void> {
  await db.query('DELETE FROM raw_ad_records WHERE datastream_id = $1', [datastreamId]);
}

/**
 * Statistics on the rows just landed, before the models read them. Without them the planner
 * estimates a run's raw rows at a handful and joins them to the run's rates in a nested loop: every
 * (currency, date) pair rescans the whole run, 400 × 250,000 comparisons for a 400-day backfill in
 * one currency, the model step 15× slower than with a hash join (bench:sources, PGlite). A sample
 * of the table's pages, in a statement of its own so its lock is not held through the models.
 */
export async function analyzeLanding(db: SqlExecutor): Promise<void> {
  await db.query('ANALYZE raw_ad_records (run_id, date, currency)');
}

export async function progress(db: SqlExecutor, runId: string, rowsRead: number, sourceWaitMs: number): Promise<void> {
  await db.query('UPDATE datastream_runs SET rows_read = $2, source_wait_ms = $3 WHERE id = $1', [
    runId,
    rowsRead,
    Math.round(sourceWaitMs),
  ]);
}

export async function succeed(
  db: SqlExecutor,
  runId: string,
  r: { rowsRead: number; rowsWritten: number; sourceWaitMs: number; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE datastream_runs SET status = 'succeeded', rows_read = $2, rows_written = $3, finished_at = $4, error = NULL,
       source_wait_ms = $5 WHERE id = $1`,
    [runId, r.rowsRead, r.rowsWritten, r.now, Math.round(r.sourceWaitMs)],
  );
}

export async function fail(
  db: SqlExecutor,
  runId: string,
  r: { error: string; exhausted: boolean; sourceWaitMs: number; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE datastream_runs SET status = 'failed', error = $2, retries_exhausted = $3, finished_at = $4, rows_written = 0,
       source_wait_ms = $5 WHERE id = $1`,
    [runId, r.error, r.exhausted, r.now, Math.round(r.sourceWaitMs)],
  );
}
