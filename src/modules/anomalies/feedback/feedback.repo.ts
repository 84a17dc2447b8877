import type { SqlExecutor } from '../../../platform/db/database.js';

/** The anomalies of a period with their verdicts, as the precision report and the replay read them. */

export interface PrecisionRow {
  metric: string;
  channel: string;
  fired: number;
  triaged: number;
  false_positives: number;
  confirmed: number;
}

/** Per series, the anomalies of [from, to] and how people judged them (`confirmed`: those statuses). */
export async function precisionRows(
  db: SqlExecutor,
  projectId: string,
  from: string,
  to: string,
  confirmed: readonly string[],
): Promise<PrecisionRow[]> {
  return db.query<PrecisionRow>(
    `SELECT e.metric, e.channel, count(*)::int AS fired,
       count(*) FILTER (WHERE coalesce(t.status, 'open') <> 'open')::int AS triaged,
       count(*) FILTER (WHERE t.status = 'false_positive')::int AS false_positives,
       count(*) FILTER (WHERE t.status = ANY($4::text[]))::int AS confirmed
     FROM anomaly_episodes e LEFT JOIN anomaly_triage t ON t.anomaly_id = e.id
     WHERE e.project_id = $1 AND e.last_date >= $2 AND e.first_date <= $3
     GROUP BY e.metric, e.channel ORDER BY e.metric, e.channel`,
    [projectId, from, to, confirmed],
  );
}

/** The anomalies of [from, to] triaged false positive or confirmed, with their first and last day numbers. */
export async function verdictRows(
  db: SqlExecutor,
  projectId: string,
  from: string,
  to: string,
  confirmed: readonly string[],
): Promise<{ channel: string; metric: string; first: number; last: number; status: string }[]> {
  return db.query(
    `SELECT e.channel, e.metric, (e.first_date - DATE '2000-01-03') AS first, (e.last_date - DATE '2000-01-03') AS last,
       t.status
     FROM anomaly_triage t JOIN anomaly_episodes e ON e.id = t.anomaly_id
     WHERE e.project_id = $1 AND e.last_date >= $2 AND e.first_date <= $3
       AND (t.status = 'false_positive' OR t.status = ANY($4::text[]))`,
    [projectId, from, to, confirmed],
  );
}
