import { expect } from 'vitest';
import type { RunningService } from '../service.js';
import type { DayTotals } from './campaign-days.js';

/** The stored per-day totals (source currency) of a project, to compare with the source's. */
export async function storedTotals(
  service: RunningService,
  project: string,
  campaignPrefix = '',
): Promise<Map<string, DayTotals>> {
  const rows = await service.app.db.query<{
    date: string | Date;
    spend: string;
    revenue: string;
    conversions: string;
    n: number;
  }>(
    `SELECT date, sum(spend_source) AS spend, sum(revenue_source) AS revenue, sum(conversions) AS conversions,
            count(*)::int AS n
       FROM ad_performance_daily WHERE project_id = $1 AND campaign_id LIKE $2 GROUP BY date ORDER BY date`,
    [project, `${campaignPrefix}%`],
  );
  return new Map(
    rows.map((r) => [
      typeof r.date === 'string' ? r.date.slice(0, 10) : r.date.toISOString().slice(0, 10),
      { spend: Number(r.spend), revenue: Number(r.revenue), conversions: Number(r.conversions), rows: Number(r.n) },
    ]),
  );
}

/** Every date of `expected` stored once per record with the same totals to 1e-6, and no other date. */
export function expectSameTotals(stored: Map<string, DayTotals>, expected: Map<string, DayTotals>): void {
  expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [date, want] of expected) {
    const got = stored.get(date)!;
    expect(got.rows, date).toBe(want.rows);
    expect(Math.abs(got.spend - want.spend), `${date} spend`).toBeLessThan(1e-6);
    expect(Math.abs(got.revenue - want.revenue), `${date} revenue`).toBeLessThan(1e-6);
    expect(Math.abs(got.conversions - want.conversions), `${date} conversions`).toBeLessThan(1e-6);
  }
}
