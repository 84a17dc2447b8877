import type { ModelSpec } from './model-graph.js';

/**
 * Per (project, date, channel): totals over every datastream of the project and the ratios. A
 * ratio whose denominator is 0 is null, never infinity. The evaluators read this table.
 */
export const kpisDaily: ModelSpec = {
  name: 'kpis_daily',
  dependsOn: ['ad_performance_daily'],
  async build(tx, s) {
    await tx.query('DELETE FROM kpis_daily WHERE project_id = $1 AND date BETWEEN $2 AND $3', [
      s.projectId,
      s.from,
      s.to,
    ]);
    // The groups are few (dates × channels) however many rows feed them, so hash them. Without
    // statistics on the rows just written the planner expects a handful and sorts the whole window
    // instead, spilling to disk at 1M rows (about half of this step, bench:ingest).
    await tx.query('SET LOCAL enable_sort = off');
    const rows = await tx.query<{ n: number }>(
      `WITH agg AS (
         SELECT date, channel, sum(spend) AS spend, sum(revenue) AS revenue, sum(conversions) AS conversions,
           sum(clicks) AS clicks, sum(impressions) AS impressions
         FROM ad_performance_daily WHERE project_id = $1 AND date BETWEEN $2 AND $3
         GROUP BY date, channel),
       ins AS (
         INSERT INTO kpis_daily (project_id, date, channel, currency, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr)
         SELECT $1, date, channel, $4::text, spend, revenue, conversions, clicks, impressions,
           round(revenue / NULLIF(spend, 0), 6),
           round(spend / NULLIF(conversions, 0), 6),
           round(clicks::numeric / NULLIF(impressions, 0), 8),
           round(conversions / NULLIF(clicks, 0), 8)
         FROM agg
         RETURNING 1)
       SELECT count(*) AS n FROM ins`,
      [s.projectId, s.from, s.to, s.reportingCurrency],
    );
    await tx.query('SET LOCAL enable_sort = on');
    return Number(rows[0]?.n ?? 0);
  },
};
