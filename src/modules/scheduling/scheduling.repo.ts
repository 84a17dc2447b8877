import type { SqlExecutor } from '../../platform/db/database.js';

/**
 * Claims the slot (target, due_at): the primary key lets exactly one process win it. `runId` is
 * `'done'` for slots with no run to record, null while a datastream's run is not queued yet.
 */
export async function claimFiring(
  db: SqlExecutor,
  slot: { target: string; dueAt: Date; now: Date; runId?: string },
): Promise<boolean> {
  const won =
    slot.runId === undefined
      ? await db.query(
          'INSERT INTO schedule_firings (target, due_at, fired_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1',
          [slot.target, slot.dueAt, slot.now],
        )
      : await db.query(
          'INSERT INTO schedule_firings (target, due_at, fired_at, run_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1',
          [slot.target, slot.dueAt, slot.now, slot.runId],
        );
  return won.length > 0;
}

export async function recordFiringRun(db: SqlExecutor, target: string, dueAt: Date, runId: string): Promise<void> {
  await db.query('UPDATE schedule_firings SET run_id = $3 WHERE target = $1 AND due_at = $2', [target, dueAt, runId]);
}

/** Datastream slots claimed over two minutes ago whose run was never queued: re-claimed at `now`. */
export async function reclaimUnstarted(db: SqlExecutor, now: Date): Promise<{ target: string; due_at: Date }[]> {
  return db.query<{ target: string; due_at: Date }>(
    `UPDATE schedule_firings SET fired_at = $1
       WHERE run_id IS NULL AND target LIKE 'datastream:%' AND fired_at < $1::timestamptz - interval '2 minutes'
       RETURNING target, due_at`,
    [now],
  );
}
