import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { ValidationError } from '../../platform/errors.js';
import { addDays, daysBetween, todayIn } from '../../platform/calendar.js';
import type { ProjectsService, ResolvedProject } from '../projects/index.js';
import { KPI_LINES, type KpiMetric } from './insights.narrative.js';
import { kpiTotals, type KpiTotals } from './insights.repo.js';

export interface KpiComparison {
  metric: KpiMetric;
  unit: string;
  current: number | null;
  previous: number | null;
  delta_abs: number | null;
  delta_pct: number | null;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** KPI values of a period against the period of equal length just before it, in the reporting currency. */
export class KpisService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
  ) {}

  async compare(
    ctx: RequestContext,
    q: {
      project_id: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
      channel?: string | undefined;
    },
  ) {
    const resolved: ResolvedProject = await this.projects.resolve(ctx, q.project_id, 'data.read');
    const to = q.to ?? addDays(todayIn(ctx.clock, resolved.project.timezone), -1);
    const from = q.from ?? addDays(to, -6);
    if (from > to)
      throw new ValidationError([{ path: 'from', message: `from (${from}) must be on or before to (${to})` }]);
    const days = daysBetween(from, to) + 1;
    if (days > 366) throw new ValidationError([{ path: 'from', message: 'the range may span at most 366 days' }]);
    const prevTo = addDays(from, -1);
    const prevFrom = addDays(prevTo, -(days - 1));
    const daily = await kpiTotals(this.db, resolved.project.id, prevFrom, to, q.channel);
    const cur = sum(daily.filter((d) => d.date >= from));
    const prev = sum(daily.filter((d) => d.date < from));
    const kpis: KpiComparison[] = KPI_LINES.map(({ metric, unit }) => {
      const c = cur?.[metric] ?? null;
      const p = prev?.[metric] ?? null;
      return {
        metric,
        unit,
        current: c === null ? null : round(c),
        previous: p === null ? null : round(p),
        delta_abs: c === null || p === null ? null : round(c - p),
        delta_pct: c === null || p === null || p === 0 ? null : round(((c - p) / Math.abs(p)) * 100),
      };
    });
    return {
      resolved,
      period: { from, to, days },
      previous_period: { from: prevFrom, to: prevTo },
      channel: q.channel ?? null,
      currency: daily[0]?.currency.trim() ?? resolved.project.reporting_currency.trim(),
      days_with_data: daily.filter((d) => d.date >= from).length,
      kpis,
      daily: daily.filter((d) => d.date >= from).map((d) => ({ ...d, currency: d.currency.trim() })),
    };
  }

  /** Per-day KPI totals of a range (every KPI, optionally one channel): the series behind the KPI cards. */
  async series(
    ctx: RequestContext,
    q: { project_id: string | undefined; from: string; to: string; channel?: string | undefined },
  ) {
    const resolved = await this.projects.resolve(ctx, q.project_id, 'data.read');
    if (q.from > q.to)
      throw new ValidationError([{ path: 'from', message: `from (${q.from}) must be on or before to (${q.to})` }]);
    if (daysBetween(q.from, q.to) + 1 > 366)
      throw new ValidationError([{ path: 'from', message: 'the range may span at most 366 days' }]);
    const daily = await kpiTotals(this.db, resolved.project.id, q.from, q.to, q.channel);
    return {
      resolved,
      from: q.from,
      to: q.to,
      channel: q.channel ?? null,
      currency: daily[0]?.currency.trim() ?? resolved.project.reporting_currency.trim(),
      days: daily.map((d) => ({ ...d, currency: d.currency.trim() })),
    };
  }
}

function sum(rows: KpiTotals[]): Omit<KpiTotals, 'date' | 'currency'> | undefined {
  if (rows.length === 0) return undefined;
  const t = { spend: 0, revenue: 0, conversions: 0, clicks: 0, impressions: 0 };
  for (const r of rows) for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += r[k];
  const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
  return {
    ...t,
    roas: ratio(t.revenue, t.spend),
    cpa: ratio(t.spend, t.conversions),
    ctr: ratio(t.clicks, t.impressions),
    cvr: ratio(t.conversions, t.clicks),
  };
}
