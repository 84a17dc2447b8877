import type { SqlExecutor } from '../../platform/db/database.js';

export interface KpiTotals {
  date: string;
  currency: string;
  spend: number;
  revenue: number;
  conversions: number;
  clicks: number;
  impressions: number;
  roas: number | null;
  cpa: number | null;
  ctr: number | null;
  cvr: number | null;
}

/** Project totals per date (ratios recomputed from the summed parts), optionally one channel. */
export async function kpiTotals(
  db: SqlExecutor,
  projectId: string,
  from: string,
  to: string,
  channel?: string,
): Promise<KpiTotals[]> {
  return db.query<KpiTotals>(
    `SELECT date, min(currency)::text AS currency, sum(spend)::float8 AS spend, sum(revenue)::float8 AS revenue,
       sum(conversions)::float8 AS conversions, sum(clicks)::float8 AS clicks, sum(impressions)::float8 AS impressions,
       (sum(revenue) / NULLIF(sum(spend), 0))::float8 AS roas, (sum(spend) / NULLIF(sum(conversions), 0))::float8 AS cpa,
       (sum(clicks)::numeric / NULLIF(sum(impressions), 0))::float8 AS ctr, (sum(conversions) / NULLIF(sum(clicks), 0))::float8 AS cvr
     FROM kpis_daily WHERE project_id = $1 AND date BETWEEN $2 AND $3 AND ($4::text IS NULL OR channel = $4)
     GROUP BY date ORDER BY date`,
    [projectId, from, to, channel ?? null],
  );
}

export async function lastKpiDate(db: SqlExecutor, projectId: string): Promise<string | null> {
  return (
    (
      await db.query<{ d: string | null }>('SELECT max(date) AS d FROM kpis_daily WHERE project_id = $1', [projectId])
    )[0]?.d ?? null
  );
}

export interface InsightRow {
  project_id: string;
  date: string;
  version: number;
  inputs_hash: string;
  record: Record<string, unknown>;
  narrative_md: string;
  composed_at: Date;
}

const COLS = 'project_id, date, version, inputs_hash, record, narrative_md, composed_at';

export async function findInsight(db: SqlExecutor, projectId: string, date: string): Promise<InsightRow | undefined> {
  return (
    await db.query<InsightRow>(`SELECT ${COLS} FROM insights_daily WHERE project_id = $1 AND date = $2`, [
      projectId,
      date,
    ])
  )[0];
}

export async function latestInsight(db: SqlExecutor, projectId: string): Promise<InsightRow | undefined> {
  return (
    await db.query<InsightRow>(`SELECT ${COLS} FROM insights_daily WHERE project_id = $1 ORDER BY date DESC LIMIT 1`, [
      projectId,
    ])
  )[0];
}

export async function listInsights(
  db: SqlExecutor,
  projectId: string,
  before: string | undefined,
  limit: number,
): Promise<InsightRow[]> {
  return db.query<InsightRow>(
    `SELECT ${COLS} FROM insights_daily WHERE project_id = $1 AND ($2::date IS NULL OR date < $2) ORDER BY date DESC LIMIT $3`,
    [projectId, before ?? null, limit],
  );
}

/**
 * Stores a composition unless the stored one was composed from the same inputs. The version goes
 * up by one on every real change; an unchanged recomposition writes nothing (returns undefined).
 */
export async function upsertInsight(
  db: SqlExecutor,
  row: Omit<InsightRow, 'version'>,
): Promise<InsightRow | undefined> {
  return (
    await db.query<InsightRow>(
      `INSERT INTO insights_daily (project_id, date, version, inputs_hash, record, narrative_md, composed_at)
       VALUES ($1, $2, 1, $3, $4, $5, $6)
       ON CONFLICT (project_id, date) DO UPDATE SET version = insights_daily.version + 1, inputs_hash = EXCLUDED.inputs_hash,
         record = EXCLUDED.record, narrative_md = EXCLUDED.narrative_md, composed_at = EXCLUDED.composed_at
       WHERE insights_daily.inputs_hash <> EXCLUDED.inputs_hash
       RETURNING ${COLS}`,
      [row.project_id, row.date, row.inputs_hash, JSON.stringify(row.record), row.narrative_md, row.composed_at],
    )
  )[0];
}
