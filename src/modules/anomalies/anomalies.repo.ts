import type { SqlExecutor } from '../../platform/db/database.js';

// The evaluation (a pass per series in memory) lives in anomalies.evaluate.ts, the rule itself in
// anomalies.rule.ts, the anomalies people read (episodes) in anomalies.episodes.ts.
export { evaluate, lookbackDays } from './detection/detection.evaluate.js';

/** The currency kpis_daily holds for a project's days in [from, to] (one reporting currency per project). */
export async function kpiCurrency(
  db: SqlExecutor,
  projectId: string,
  from: string,
  to: string,
): Promise<string | null> {
  const rows = await db.query<{ c: string | null }>(
    'SELECT min(currency)::text AS c FROM kpis_daily WHERE project_id = $1 AND date BETWEEN $2 AND $3',
    [projectId, from, to],
  );
  return rows[0]?.c ?? null;
}

export async function kpiDateRange(
  db: SqlExecutor,
  projectId: string,
): Promise<{ first: string | null; last: string | null }> {
  const rows = await db.query<{ first: string | null; last: string | null }>(
    'SELECT min(date) AS first, max(date) AS last FROM kpis_daily WHERE project_id = $1',
    [projectId],
  );
  return rows[0] ?? { first: null, last: null };
}

export async function readSettings(
  db: SqlExecutor,
  projectId: string,
): Promise<{ settings: Record<string, unknown>; updated_at: Date } | undefined> {
  return (
    await db.query<{ settings: Record<string, unknown>; updated_at: Date }>(
      'SELECT settings, updated_at FROM anomaly_settings WHERE project_id = $1',
      [projectId],
    )
  )[0];
}

export async function writeSettings(
  db: SqlExecutor,
  projectId: string,
  settings: unknown,
  actor: string,
  now: Date,
): Promise<Date> {
  const rows = await db.query<{ updated_at: Date }>(
    `INSERT INTO anomaly_settings (project_id, settings, updated_at, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
     RETURNING updated_at`,
    [projectId, JSON.stringify(settings), now, actor],
  );
  return rows[0]!.updated_at;
}
