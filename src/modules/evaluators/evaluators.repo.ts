import type { SqlExecutor } from '../../platform/db/database.js';

/** A committed run's outbox row (the anomalies model writes it in the run's transaction). */
export interface OutboxRow {
  run_id: string;
  project_id: string;
  datastream_id: string;
  date_from: string;
  date_to: string;
  anomalies_fired: number;
}

export async function isUnsettled(db: SqlExecutor, runId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM evaluator_outbox WHERE run_id = $1 AND processed_at IS NULL', [runId]);
  return rows.length > 0;
}

/** Runs nobody settled, created over two minutes before `now` and not claimed (or their claim lapsed). */
export async function listStranded(db: SqlExecutor, now: Date): Promise<string[]> {
  const rows = await db.query<{ run_id: string }>(
    `SELECT run_id FROM evaluator_outbox
        WHERE processed_at IS NULL AND created_at < $1::timestamptz - interval '2 minutes' AND (claimed_until IS NULL OR claimed_until < $1::timestamptz)
        ORDER BY created_at LIMIT 100`,
    [now],
  );
  return rows.map((r) => r.run_id);
}

/** Claims a run's unsettled row for `leaseSeconds`; undefined when settled or claimed by someone else. */
export async function claim(
  db: SqlExecutor,
  runId: string,
  now: Date,
  leaseSeconds: number,
): Promise<OutboxRow | undefined> {
  const rows = await db.query<OutboxRow>(
    `UPDATE evaluator_outbox SET claimed_until = $2::timestamptz + make_interval(secs => $3)
          WHERE run_id = $1 AND processed_at IS NULL AND (claimed_until IS NULL OR claimed_until < $2::timestamptz)
          RETURNING run_id, project_id, datastream_id, date_from, date_to, anomalies_fired`,
    [runId, now, leaseSeconds],
  );
  return rows[0];
}

export async function releaseClaim(db: SqlExecutor, runId: string): Promise<void> {
  await db.query('UPDATE evaluator_outbox SET claimed_until = NULL WHERE run_id = $1 AND processed_at IS NULL', [
    runId,
  ]);
}

export async function settle(db: SqlExecutor, runId: string, now: Date): Promise<void> {
  await db.query('UPDATE evaluator_outbox SET processed_at = $2 WHERE run_id = $1', [runId, now]);
}
