import type { SqlExecutor } from '../../../platform/db/database.js';
import { TOTAL_CHANNEL } from '../anomalies.schemas.js';
import type { Sums } from './explain.math.js';

/**
 * SQL behind explain_anomaly. It reads other concepts' tables (kpis_daily, ad_performance_daily,
 * dq_checks with their runs, skills and business keys) and writes nothing.
 */

export interface EvaluatedDay {
  date: string;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  z: number | null;
  window_from: string;
  window_to: string;
  seasonality: string;
  model: string;
  fired: boolean;
  /** Left out of later baselines (fired, low volume, triaged expected). */
  excluded: boolean;
  direction: string | null;
}

/** The evaluated rows of one series in [from, to] (the detector's own view of those days). */
export async function evaluatedDays(
  db: SqlExecutor,
  q: { projectId: string; metric: string; channel: string; from: string; to: string },
): Promise<EvaluatedDay[]> {
  return db.query<EvaluatedDay>(
    `SELECT date, value, baseline_mean, baseline_stddev, z, window_from, window_to, seasonality, model, fired, excluded, direction
     FROM anomalies_daily WHERE project_id = $1 AND channel = $2 AND metric = $3 AND date BETWEEN $4::date AND $5::date
     ORDER BY date`,
    [q.projectId, q.channel, q.metric, q.from, q.to],
  );
}

export interface PartDay extends Sums {
  date: string;
  key: string;
  label: string;
}

/**
 * Each part's sums per day over `dates`: the channels of the project (kpis_daily) for the total,
 * the campaigns of one channel (ad_performance_daily, over every datastream) for a channel.
 */
export async function partDays(
  db: SqlExecutor,
  q: { projectId: string; channel: string; dates: string[] },
): Promise<PartDay[]> {
  const sums = `sum(spend)::float8 AS spend, sum(revenue)::float8 AS revenue, sum(conversions)::float8 AS conversions,
    sum(clicks)::float8 AS clicks, sum(impressions)::float8 AS impressions`;
  const rows =
    q.channel === TOTAL_CHANNEL
      ? await db.query<PartDay>(
          `SELECT date, channel AS key, channel AS label, ${sums}
           FROM kpis_daily WHERE project_id = $1 AND date = ANY($2::date[]) GROUP BY date, channel`,
          [q.projectId, q.dates],
        )
      : await db.query<PartDay>(
          `SELECT date, campaign_id AS key, max(campaign_name) AS label, ${sums}
           FROM ad_performance_daily WHERE project_id = $1 AND date = ANY($2::date[]) AND channel = $3
           GROUP BY date, campaign_id`,
          [q.projectId, q.dates, q.channel],
        );
  return rows.map((r) => ({
    ...r,
    spend: Number(r.spend),
    revenue: Number(r.revenue),
    conversions: Number(r.conversions),
    clicks: Number(r.clicks),
    impressions: Number(r.impressions),
  }));
}

/** The days of `dates` with data in the series (a kpis_daily row), and the KPIs' currency. */
export async function seriesDays(
  db: SqlExecutor,
  q: { projectId: string; channel: string; dates: string[] },
): Promise<{ dates: Set<string>; currency: string | null }> {
  const rows = await db.query<{ date: string; currency: string }>(
    `SELECT date, max(currency) AS currency FROM kpis_daily
     WHERE project_id = $1 AND date = ANY($2::date[]) AND ($3::text IS NULL OR channel = $3) GROUP BY date`,
    [q.projectId, q.dates, q.channel === TOTAL_CHANNEL ? null : q.channel],
  );
  return { dates: new Set(rows.map((r) => r.date)), currency: rows[0]?.currency?.trim() ?? null };
}

export interface CheckRow {
  id: string;
  monitor: string;
  status: string;
  dataset: string;
  datastream_id: string | null;
  run_id: string | null;
  window_from: string;
  window_to: string;
  observed: number | null;
  threshold: number | null;
  message: string;
  finished_at: Date;
}

/** Data-quality checks of the runs whose window covered any of [from, to], newest first. */
export async function checksCovering(
  db: SqlExecutor,
  q: { projectId: string; from: string; to: string; limit: number },
): Promise<CheckRow[]> {
  return db.query<CheckRow>(
    `SELECT c.id, c.monitor, c.status, c.dataset, c.datastream_id, c.run_id, r.window_from, r.window_to,
       c.observed, c.threshold, c.message, c.finished_at
     FROM dq_checks c JOIN datastream_runs r ON r.id = c.run_id
     WHERE c.project_id = $1 AND r.window_from <= $3::date AND r.window_to >= $2::date
     ORDER BY c.seq DESC LIMIT $4`,
    [q.projectId, q.from, q.to, q.limit],
  );
}

export interface SkillMatch {
  name: string;
  description: string;
  version: number;
  keys: string[];
}

/**
 * The business keys that name a metric: `kpi.<metric>`, and any key of the project whose last
 * segment is the metric or that lists it as a synonym (a project may call CPA `kpi.cac`).
 */
export async function keysForMetric(db: SqlExecutor, projectId: string, metric: string): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `SELECT key FROM business_keys WHERE project_id = $1
       AND (key = 'kpi.' || $2 OR key LIKE '%.' || $2 OR EXISTS (SELECT 1 FROM unnest(synonyms) s WHERE lower(s) = $2))
     ORDER BY key`,
    [projectId, metric],
  );
  return [...new Set([`kpi.${metric}`, ...rows.map((r) => r.key)])].sort();
}

/** Live Skills that reference any of `keys` ([[key]] in the body) or are linked to one. */
export async function skillsForKeys(
  db: SqlExecutor,
  projectId: string,
  keys: string[],
  limit: number,
): Promise<SkillMatch[]> {
  const rows = await db.query<SkillMatch>(
    `SELECT s.name, s.description, s.version,
       ARRAY(SELECT DISTINCT k FROM unnest(s.mdm_references || coalesce(l.keys, '{}')) k WHERE k = ANY($2::text[]) ORDER BY k) AS keys
     FROM skills s
     LEFT JOIN (SELECT source_id, array_agg(business_key) AS keys FROM business_links
                WHERE project_id = $1 AND source_type = 'skill' AND business_key = ANY($2::text[]) GROUP BY source_id) l
       ON l.source_id = s.id
     WHERE s.project_id = $1 AND s.deleted_at IS NULL AND (s.mdm_references && $2::text[] OR l.source_id IS NOT NULL)
     ORDER BY s.name LIMIT $3`,
    [projectId, keys, limit],
  );
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}
