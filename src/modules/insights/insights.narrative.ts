import type { KpiTotals } from './insights.repo.js';

/** The KPI lines of an insight, in reading order, with how each is shown. */
export const KPI_LINES = [
  { metric: 'revenue', label: 'Revenue', unit: 'money' },
  { metric: 'spend', label: 'Spend', unit: 'money' },
  { metric: 'roas', label: 'ROAS', unit: 'ratio' },
  { metric: 'conversions', label: 'Conversions', unit: 'count' },
  { metric: 'cpa', label: 'CPA', unit: 'money' },
  { metric: 'clicks', label: 'Clicks', unit: 'count' },
  { metric: 'impressions', label: 'Impressions', unit: 'count' },
  { metric: 'ctr', label: 'CTR', unit: 'percent' },
  { metric: 'cvr', label: 'CVR', unit: 'percent' },
] as const;

export type KpiMetric = (typeof KPI_LINES)[number]['metric'];

export interface KpiDelta {
  metric: KpiMetric;
  unit: 'money' | 'count' | 'ratio' | 'percent';
  value: number | null;
  previous_day: number | null;
  day_over_day_abs: number | null;
  day_over_day_pct: number | null;
  same_weekday_last_week: number | null;
  week_over_week_abs: number | null;
  week_over_week_pct: number | null;
}

/** An anomaly with a fired day on the insight's date; the figures are its peak day's. */
export interface InsightAnomaly {
  id: string;
  kind: string;
  first_date: string;
  last_date: string;
  peak_date: string;
  score: number;
  severity: string;
  metric: string;
  channel: string;
  direction: string | null;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  z: number | null;
  relative_change: number | null;
  training_size: number;
}

export interface InsightEvent {
  id: string;
  event_type: string;
  title: string;
  event_date: string;
  active_until: string;
}

export interface InsightRecord {
  project_id: string;
  date: string;
  weekday: string;
  currency: string;
  kpis: KpiDelta[];
  anomalies: InsightAnomaly[];
  context_events: InsightEvent[];
}

const round = (n: number, digits = 6) => Math.round(n * 10 ** digits) / 10 ** digits;

export function deltas(day: KpiTotals, prev: KpiTotals | undefined, lastWeek: KpiTotals | undefined): KpiDelta[] {
  return KPI_LINES.map(({ metric, unit }) => {
    const value = day[metric];
    const p = prev?.[metric] ?? null;
    const w = lastWeek?.[metric] ?? null;
    const abs = (b: number | null) => (value === null || b === null ? null : round(value - b));
    const pct = (b: number | null) =>
      value === null || b === null || b === 0 ? null : round(((value - b) / Math.abs(b)) * 100, 4);
    return {
      metric,
      unit,
      value: value === null ? null : round(value),
      previous_day: p === null ? null : round(p),
      day_over_day_abs: abs(p),
      day_over_day_pct: pct(p),
      same_weekday_last_week: w === null ? null : round(w),
      week_over_week_abs: abs(w),
      week_over_week_pct: pct(w),
    };
  });
}

/**
 * The formats for 0, 1 and 2 fraction digits, built once: `toLocaleString('en-US', options)` builds
 * the same Intl.NumberFormat at every call, which was a fifth of the CPU of composing a backfill's
 * insights. Same text (toLocaleString is specified as that format's `format`).
 */
const GROUPED = [0, 1, 2].map(
  (digits) => new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }),
);

const grouped = (n: number, digits: 0 | 1 | 2) => GROUPED[digits]!.format(n);

export function formatValue(value: number | null, unit: KpiDelta['unit'], currency: string): string {
  if (value === null) return 'n/a';
  switch (unit) {
    case 'money':
      return `${grouped(value, 2)} ${currency}`;
    case 'count':
      return grouped(value, Number.isInteger(value) ? 0 : 2);
    case 'ratio':
      return grouped(value, 2);
    case 'percent':
      return `${grouped(value * 100, 2)}%`;
  }
}

export function formatPct(pct: number | null): string {
  if (pct === null) return 'n/a';
  const sign = pct > 0 ? '+' : pct < 0 ? '−' : '±';
  return `${sign}${grouped(Math.abs(pct), 1)}%`;
}

const unitOf = (metric: string): KpiDelta['unit'] => KPI_LINES.find((l) => l.metric === metric)?.unit ?? 'count';
const labelOf = (metric: string): string => KPI_LINES.find((l) => l.metric === metric)?.label ?? metric;
const channelName = (channel: string) => (channel === '_total' ? 'all channels' : channel);

/** Deterministic Markdown: the same record always gives the same text (no LLM, no clock). */
export function narrative(r: InsightRecord): string {
  const lines: string[] = [`### Daily insight · ${r.project_id} · ${r.date} (${r.weekday})`, ''];
  for (const k of r.kpis) {
    lines.push(
      `- **${labelOf(k.metric)}**: ${formatValue(k.value, k.unit, r.currency)} (${formatPct(k.day_over_day_pct)} vs previous day, ${formatPct(k.week_over_week_pct)} vs last ${r.weekday})`,
    );
  }
  lines.push('');
  if (r.anomalies.length === 0) lines.push('No anomaly fired.');
  else {
    lines.push(`**Anomalies (${r.anomalies.length})**`);
    for (const a of r.anomalies) {
      const unit = unitOf(a.metric);
      const baseline =
        a.baseline_mean === null
          ? 'no baseline'
          : `baseline ${formatValue(a.baseline_mean, unit, r.currency)} ± ${formatValue(a.baseline_stddev ?? 0, unit, r.currency)}`;
      const strength = a.z === null ? 'flat baseline' : `z = ${grouped(a.z, 1)}`;
      const what = a.kind === 'level_shift' ? `level shift (${a.direction ?? 'change'})` : (a.direction ?? 'change');
      const span = a.first_date === a.last_date ? '' : `, ${a.first_date} to ${a.last_date}, peak ${a.peak_date}`;
      lines.push(
        `- ${labelOf(a.metric)} on ${channelName(a.channel)}: ${what} to ${formatValue(a.value, unit, r.currency)} vs ${baseline} (${strength}, ${a.training_size} days of baseline, ${a.severity}${span}; ${a.id})`,
      );
    }
  }
  lines.push('');
  if (r.context_events.length === 0) lines.push('No context event active.');
  else {
    lines.push(`**Context events active (${r.context_events.length})**`);
    for (const e of r.context_events)
      lines.push(`- ${e.event_type}: ${e.title} (from ${e.event_date}, active until ${e.active_until})`);
  }
  return lines.join('\n');
}
