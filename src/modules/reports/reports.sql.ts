import { ValidationError } from '../../platform/errors.js';
import { DATASETS, type ReportDefinition } from '../flows/index.js';

/**
 * A governed report definition → one parameterized SQL statement. Identifiers come only from the
 * catalog (validated again here, whatever is stored); values are bind parameters. Ratios are
 * recomputed from the summed parts (a sum of ROAS is meaningless); anomalies_daily averages.
 */
const KPI_EXPR: Record<string, string> = {
  spend: 'sum(spend)::float8',
  revenue: 'sum(revenue)::float8',
  conversions: 'sum(conversions)::float8',
  clicks: 'sum(clicks)::float8',
  impressions: 'sum(impressions)::float8',
  spend_source: 'sum(spend_source)::float8',
  revenue_source: 'sum(revenue_source)::float8',
  roas: '(sum(revenue) / NULLIF(sum(spend), 0))::float8',
  cpa: '(sum(spend) / NULLIF(sum(conversions), 0))::float8',
  ctr: '(sum(clicks)::numeric / NULLIF(sum(impressions), 0))::float8',
  cvr: '(sum(conversions) / NULLIF(sum(clicks), 0))::float8',
};

const ANOMALY_EXPR: Record<string, string> = {
  value: 'avg(value)',
  expected: 'avg(baseline_mean)',
  deviation: 'avg(value - baseline_mean)',
  // The detector's score in [0, 1], no longer the raw z: comparable across rules and series.
  score: 'avg(score)',
};

const ANOMALY_DIM: Record<string, string> = {
  // The detector's own severity of a fired day (low, medium, high, critical); 'none' when it did not fire.
  severity: `CASE WHEN NOT fired THEN 'none' ELSE coalesce(severity, 'low') END`,
};

export interface CompiledReport {
  sql: string;
  params: unknown[];
  columns: string[];
}

export function compileReport(
  def: ReportDefinition,
  projectId: string,
  range: { from: string; to: string },
  limit: number,
): CompiledReport {
  const dataset = DATASETS[def.dataset];
  if (!dataset) throw new ValidationError([{ path: 'dataset', message: `unknown dataset ${def.dataset}` }]);
  const metricExpr = def.dataset === 'anomalies_daily' ? ANOMALY_EXPR : KPI_EXPR;
  const errors = [
    ...def.metrics
      .filter((m) => !dataset.metrics.includes(m) || !metricExpr[m])
      .map((m) => ({ path: 'metrics', message: `metric ${m} is not reportable on ${def.dataset}` })),
    ...def.dimensions
      .filter((d) => !dataset.dimensions.includes(d))
      .map((d) => ({ path: 'dimensions', message: `dimension ${d} is not in ${def.dataset}` })),
  ];
  if (errors.length)
    throw new ValidationError(
      errors,
      undefined,
      'report_invalid',
      'Fix the stored report definition with POST /api/flows/upsert.',
    );
  const dim = (d: string) =>
    def.dataset === 'anomalies_daily' && ANOMALY_DIM[d] ? ANOMALY_DIM[d]! : d === 'date' ? 'date::text' : `${d}::text`;
  const params: unknown[] = [projectId, range.from, range.to];
  const where = ['project_id = $1', 'date BETWEEN $2::date AND $3::date'];
  for (const f of def.filters) {
    const values = Array.isArray(f.value) ? f.value.map(String) : [String(f.value)];
    params.push(values);
    const expr = dim(f.dimension);
    where.push(
      f.op === 'eq' || f.op === 'in'
        ? `${expr} = ANY($${params.length}::text[])`
        : `NOT (${expr} = ANY($${params.length}::text[]))`,
    );
  }
  const dims = def.dimensions.map((d) => `${dim(d)} AS "${d}"`);
  const metrics = def.metrics.map((m) => `${metricExpr[m]} AS "${m}"`);
  params.push(limit + 1);
  const groupBy = def.dimensions.length
    ? `GROUP BY ${def.dimensions.map((_, i) => i + 1).join(', ')} ORDER BY ${def.dimensions.map((_, i) => i + 1).join(', ')}`
    : '';
  return {
    sql: `SELECT ${[...dims, ...metrics].join(', ')} FROM ${def.dataset} WHERE ${where.join(' AND ')} ${groupBy} LIMIT $${params.length}`,
    params,
    columns: [...def.dimensions, ...def.metrics],
  };
}
