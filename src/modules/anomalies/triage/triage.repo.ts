import type { SqlExecutor } from '../../../platform/db/database.js';
import type { TriageStatus } from '../anomalies.schemas.js';

export interface TriageRow {
  anomaly_id: string;
  project_id: string;
  status: TriageStatus;
  note: string | null;
  assignee: string | null;
  context_event_id: string | null;
  updated_at: Date | null;
  updated_by: string | null;
}

/**
 * The anomaly's triage row, locked for the rest of the transaction. A never-triaged anomaly gets
 * its `open` row first, so two concurrent changes serialize on the same row instead of both
 * reading "open" and both inserting.
 */
export async function lockTriage(tx: SqlExecutor, anomalyId: string, projectId: string, now: Date): Promise<TriageRow> {
  await tx.query(
    `INSERT INTO anomaly_triage (anomaly_id, project_id, status, updated_at, updated_by)
     VALUES ($1, $2, 'open', $3, '') ON CONFLICT (anomaly_id) DO NOTHING`,
    [anomalyId, projectId, now],
  );
  const [row] = await tx.query<TriageRow>('SELECT * FROM anomaly_triage WHERE anomaly_id = $1 FOR UPDATE', [anomalyId]);
  // updated_by '' marks the placeholder row: nobody triaged it yet.
  return row!.updated_by === '' ? { ...row!, updated_at: null, updated_by: null } : row!;
}

export async function readTriage(db: SqlExecutor, anomalyId: string): Promise<TriageRow | undefined> {
  const [row] = await db.query<TriageRow>("SELECT * FROM anomaly_triage WHERE anomaly_id = $1 AND updated_by <> ''", [
    anomalyId,
  ]);
  return row;
}

export async function writeTriage(tx: SqlExecutor, row: TriageRow & { updated_at: Date; updated_by: string }) {
  await tx.query(
    `UPDATE anomaly_triage SET status = $2, note = $3, assignee = $4, context_event_id = $5, updated_at = $6, updated_by = $7
     WHERE anomaly_id = $1`,
    [row.anomaly_id, row.status, row.note, row.assignee, row.context_event_id, row.updated_at, row.updated_by],
  );
}

/** Day number of a date column (days since Monday 2000-01-03), as detection counts them. */
const DAY = (col: string) => `(${col} - DATE '2000-01-03')`;

/**
 * The triage part of the baseline seam (detection/detection.state.repo.ts `excludedDays`), as SQL over the
 * seam's parameters ($1 project ids, $2 first day, $3 day after the last):
 * - `false_positive`: days of such an anomaly count as normal, so a stored exclusion of its days
 *   is dropped (NOT_FALSE_POSITIVE filters rows of anomalies_daily aliased `a`);
 * - `expected`: days of such an anomaly are left out whatever the settings say (EXPECTED_DAYS
 *   lists them, in the seam's columns).
 * Both read the episode's current extent, so a run that grew after the triage is covered whole.
 */
export const NOT_FALSE_POSITIVE = `NOT EXISTS (
    SELECT 1 FROM anomaly_triage t JOIN anomaly_episodes e ON e.id = t.anomaly_id
    WHERE t.status = 'false_positive' AND e.project_id = a.project_id AND e.channel = a.channel AND e.metric = a.metric
      AND a.date BETWEEN e.first_date AND e.last_date)`;

export const EXPECTED_DAYS = `SELECT e.project_id, e.channel, e.metric, g.d
    FROM anomaly_triage t JOIN anomaly_episodes e ON e.id = t.anomaly_id
    CROSS JOIN LATERAL generate_series(${DAY('greatest(e.first_date, $2::date)')}, ${DAY('least(e.last_date, $3::date - 1)')}) AS g(d)
    WHERE t.status = 'expected' AND t.project_id = ANY($1::text[]) AND e.last_date >= $2::date AND e.first_date < $3::date`;

/**
 * The triage part of the precedent seam (detection/detection.state.repo.ts): days of anomalies people
 * confirmed as incidents (`acknowledged`, `resolved`) are never a precedent, so a confirmed outage
 * does not silence the next drop. NOT_CONFIRMED filters rows of anomalies_daily aliased `a`;
 * CONFIRMED_DAYS lists the days over the seam's parameters ($1 project ids, $2 first day, $3 last day).
 */
export const NOT_CONFIRMED = `NOT EXISTS (
    SELECT 1 FROM anomaly_triage t JOIN anomaly_episodes e ON e.id = t.anomaly_id
    WHERE t.status IN ('acknowledged', 'resolved') AND e.project_id = a.project_id AND e.channel = a.channel
      AND e.metric = a.metric AND a.date BETWEEN e.first_date AND e.last_date)`;

export const CONFIRMED_DAYS = `SELECT e.project_id, e.channel, e.metric, g.d
    FROM anomaly_triage t JOIN anomaly_episodes e ON e.id = t.anomaly_id
    CROSS JOIN LATERAL generate_series(${DAY('greatest(e.first_date, $2::date)')}, ${DAY('least(e.last_date, $3::date)')}) AS g(d)
    WHERE t.status IN ('acknowledged', 'resolved') AND t.project_id = ANY($1::text[])
      AND e.last_date >= $2::date AND e.first_date <= $3::date`;
