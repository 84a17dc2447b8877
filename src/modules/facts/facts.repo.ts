import type { SqlExecutor } from '../../platform/db/database.js';

export interface FactRow {
  seq: number;
  type: string;
  project_id: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

export async function insertFact(
  db: SqlExecutor,
  fact: { type: string; projectId: string; payload: Record<string, unknown>; now: Date },
): Promise<{ seq: number; occurred_at: Date }> {
  const [row] = await db.query<{ seq: number; occurred_at: Date }>(
    'INSERT INTO facts (type, project_id, payload, occurred_at) VALUES ($1, $2, $3, $4) RETURNING seq, occurred_at',
    [fact.type, fact.projectId, JSON.stringify(fact.payload), fact.now],
  );
  return row!;
}

/** Newest first; `type` null means every type. */
export async function recentFacts(
  db: SqlExecutor,
  projectId: string,
  limit: number,
  type: string | null,
): Promise<FactRow[]> {
  return db.query<FactRow>(
    'SELECT seq, type, project_id, payload, occurred_at FROM facts WHERE project_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY seq DESC LIMIT $3',
    [projectId, type, limit],
  );
}
