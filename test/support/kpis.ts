import type { RunningService } from '../support/service.js';

export interface KpiPoint {
  date: string;
  channel: string;
  spend: number;
  revenue?: number;
  conversions?: number;
  clicks?: number;
  impressions?: number;
}

/** Writes kpis_daily rows directly (a fixture standing in for the transformation models). */
export async function writeKpis(
  service: RunningService,
  projectId: string,
  points: KpiPoint[],
  currency = 'USD',
): Promise<void> {
  const col = <K extends keyof KpiPoint>(k: K, d: number) => points.map((p) => (p[k] ?? d) as number);
  await service.app.db.query(
    `INSERT INTO kpis_daily (project_id, date, channel, currency, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr)
     SELECT $1, d, c, $2, s, r, v, k, i, r / NULLIF(s, 0), s / NULLIF(v, 0), k::numeric / NULLIF(i, 0), v / NULLIF(k, 0)
     FROM unnest($3::date[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::bigint[], $9::bigint[]) AS t(d, c, s, r, v, k, i)
     ON CONFLICT (project_id, date, channel) DO UPDATE SET spend = EXCLUDED.spend, revenue = EXCLUDED.revenue, conversions = EXCLUDED.conversions,
       clicks = EXCLUDED.clicks, impressions = EXCLUDED.impressions, roas = EXCLUDED.roas, cpa = EXCLUDED.cpa, ctr = EXCLUDED.ctr, cvr = EXCLUDED.cvr`,
    [
      projectId,
      currency,
      points.map((p) => p.date),
      points.map((p) => p.channel),
      col('spend', 0),
      col('revenue', 0),
      col('conversions', 0),
      col('clicks', 0),
      col('impressions', 0),
    ],
  );
}

export function days(from: string, n: number): string[] {
  const out: string[] = [];
  const start = Date.parse(`${from}T00:00:00Z`);
  for (let i = 0; i < n; i += 1) out.push(new Date(start + i * 86_400_000).toISOString().slice(0, 10));
  return out;
}

export function meanStd(values: number[]): { mean: number; sd: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
  return { mean, sd };
}
