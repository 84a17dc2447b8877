import type { AlertSource } from './alerts.schemas.js';

/**
 * What a message is made of: items, each with a stable key. The key is what exactly-once is
 * counted on (one delivery per rule, destination and item key, ever), so it must name the thing,
 * not the fact that announced it: a re-run of the same window announces the same anomalies again.
 */
export interface ContextEventRef {
  id: string;
  event_type: string;
  title: string;
  event_date: string;
}

export interface AnomalyItem {
  type: 'anomaly';
  /** The anomaly's id: `anom_…`; provisional (date, metric, channel) only for facts from before ids. */
  id: string;
  metric: string;
  channel: string;
  direction: string | null;
  first_date: string;
  last_date: string;
  peak_date: string;
  value: number;
  baseline: number | null;
  z: number | null;
  /** (value − baseline) / baseline; null when the baseline is 0 or unknown. */
  change: number | null;
  score: number | null;
  severity: string | null;
  context_events: ContextEventRef[];
  /** Series that moved with this one and are reported as explained by it (a total, a ratio KPI). */
  moved_with_it: { metric: string; channel: string }[];
}

export interface DataQualityItem {
  type: 'data_quality';
  id: string;
  check_id: string;
  monitor: string;
  dataset: string | null;
  status: string;
  observed: unknown;
  threshold: unknown;
  message: string | null;
}

export interface RunFailedItem {
  type: 'run_failed';
  id: string;
  run_id: string;
  datastream_id: string;
  datastream: string;
  window: { from: string; to: string } | null;
  attempts: number | null;
  error: string | null;
}

export interface InsightKpi {
  metric: string;
  value: number | null;
  day_over_day_pct: number | null;
}

export interface DailyInsightItem {
  type: 'daily_insight';
  id: string;
  date: string;
  version: number;
  currency: string;
  kpis: InsightKpi[];
  anomalies: number;
  context_events: ContextEventRef[];
  narrative_md: string;
}

export type AlertItem = AnomalyItem | DataQualityItem | RunFailedItem | DailyInsightItem;

export const SOURCE_OF: Record<AlertItem['type'], AlertSource> = {
  anomaly: 'anomaly',
  data_quality: 'data_quality',
  run_failed: 'run_failed',
  daily_insight: 'daily_insight',
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * The one place that reads an `anomaly.detected` payload: `anomalies: [{id, metric, channel, kind,
 * direction, first_date, last_date, peak_date, value, baseline, z, score, severity,
 * opened_in_this_run}]` with the detector's stable `anom_…` ids (evaluators.pipeline.ts). Facts
 * published by the earlier, per-day detector carry `top: [{date, metric, channel, direction, value, baseline_mean,
 * z}]` instead, still read (one provisional item per day). Context events are added by the router.
 */
export function anomalyItemsOf(payload: Record<string, unknown>): AnomalyItem[] {
  if (Array.isArray(payload.anomalies)) {
    return (payload.anomalies as Record<string, unknown>[]).flatMap((a) => {
      const id = str(a.id);
      const metric = str(a.metric);
      const channel = str(a.channel);
      const last = str(a.last_date) ?? str(a.peak_date);
      const value = num(a.value);
      if (!id || !metric || !channel || !last || value === null) return [];
      const baseline = num(a.baseline);
      return [
        {
          type: 'anomaly' as const,
          id,
          metric,
          channel,
          direction: str(a.direction),
          first_date: str(a.first_date) ?? last,
          last_date: last,
          peak_date: str(a.peak_date) ?? last,
          value,
          baseline,
          z: num(a.z),
          change: changeOf(value, baseline),
          score: num(a.score),
          severity: str(a.severity),
          context_events: [],
          moved_with_it: seriesOf(a.moved_with_it),
        },
      ];
    });
  }
  const top = Array.isArray(payload.top) ? (payload.top as Record<string, unknown>[]) : [];
  return top.flatMap((a) => {
    const date = str(a.date);
    const metric = str(a.metric);
    const channel = str(a.channel);
    const value = num(a.value);
    if (!date || !metric || !channel || value === null) return [];
    const baseline = num(a.baseline_mean);
    return [
      {
        type: 'anomaly' as const,
        id: provisionalAnomalyId(date, metric, channel),
        metric,
        channel,
        direction: str(a.direction),
        first_date: date,
        last_date: date,
        peak_date: date,
        value,
        baseline,
        z: num(a.z),
        change: changeOf(value, baseline),
        score: null,
        severity: null,
        context_events: [],
        moved_with_it: [],
      },
    ];
  });
}

/** `[{metric, channel}]` from a fact's payload; facts from before the field carry none. */
function seriesOf(value: unknown): { metric: string; channel: string }[] {
  if (!Array.isArray(value)) return [];
  return (value as Record<string, unknown>[]).flatMap((v) => {
    const metric = str(v?.metric);
    const channel = str(v?.channel);
    return metric && channel ? [{ metric, channel }] : [];
  });
}

/** Facts from before the detector published ids: one anomaly per (day, metric, channel). */
export function provisionalAnomalyId(date: string, metric: string, channel: string): string {
  return `anomaly:${date}:${metric}:${channel}`;
}

/** How many anomalies the fact says fired in all (the payload may list only the top ones). */
export function anomalyCountOf(payload: Record<string, unknown>, listed: number): number {
  return Math.max(num(payload.count) ?? 0, listed);
}

function changeOf(value: number, baseline: number | null): number | null {
  if (baseline === null || baseline === 0) return null;
  return (value - baseline) / Math.abs(baseline);
}

export function dataQualityItemOf(payload: Record<string, unknown>): DataQualityItem | undefined {
  const checkId = str(payload.check_id);
  if (!checkId) return undefined;
  return {
    type: 'data_quality',
    id: `dq:${checkId}`,
    check_id: checkId,
    monitor: str(payload.monitor) ?? 'check',
    dataset: str(payload.dataset),
    status: str(payload.status) ?? 'fail',
    observed: payload.observed ?? null,
    threshold: payload.threshold ?? null,
    message: str(payload.message),
  };
}

export function runFailedItemOf(payload: Record<string, unknown>): RunFailedItem | undefined {
  const runId = str(payload.run_id);
  if (!runId) return undefined;
  const window = payload.window as { from?: unknown; to?: unknown } | undefined;
  return {
    type: 'run_failed',
    id: `run:${runId}`,
    run_id: runId,
    datastream_id: str(payload.datastream_id) ?? '',
    datastream: str(payload.datastream) ?? str(payload.datastream_id) ?? 'datastream',
    window: window && str(window.from) && str(window.to) ? { from: String(window.from), to: String(window.to) } : null,
    attempts: num(payload.attempts),
    error: str(payload.error),
  };
}

/** How loud an item is, for ordering the top of a message and picking PagerDuty's dedup key. */
export function severityRank(item: AlertItem): number {
  switch (item.type) {
    case 'run_failed':
      return 1_000_000;
    case 'data_quality':
      return item.status === 'error' ? 900_000 : 800_000;
    case 'anomaly':
      return item.score !== null ? item.score * 1000 : Math.min(Math.abs(item.z ?? 0), 999);
    case 'daily_insight':
      return 0;
  }
}
