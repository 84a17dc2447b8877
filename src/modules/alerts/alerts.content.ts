import { TOTAL_CHANNEL } from '../anomalies/index.js';
import { KPI_LINES } from '../insights/index.js';
import type { AlertItem, AnomalyItem, DailyInsightItem, DataQualityItem, RunFailedItem } from './alerts.items.js';
import type { AlertSource } from './alerts.schemas.js';

const kpiLabel = (metric: string) => KPI_LINES.find((l) => l.metric === metric)?.label ?? metric;
const channelName = (channel: string) => (channel === TOTAL_CHANNEL ? 'all channels' : channel);

/** How many items a message names; the rest are counted ("and 7 more"). */
export const MAX_LISTED_ITEMS = 10;

export type EventType = 'alert.fired' | 'alert.resolved' | 'alert.test';

/** What a message says, stored with it (so every attempt sends the same thing) and sent as JSON to webhooks. */
export interface MessagePayload {
  type: EventType;
  title: string;
  project: { id: string; name: string; timezone: string };
  rule: { id: string; name: string } | null;
  run_id: string | null;
  window: { from: string; to: string } | null;
  sources: AlertSource[];
  /** The most severe items first, at most MAX_LISTED_ITEMS. */
  items: (AlertItem & { url: string | null })[];
  /** Items in this message (listed or not). */
  total: number;
  /** Anomalies the run reported beyond those it named (its fact lists the top ones only). */
  unlisted: number;
  console_url: string | null;
  created_at: string;
  /** PagerDuty destinations: the incident this message opens or resolves. */
  pagerduty?: { action: 'trigger' | 'resolve'; dedup_key: string; severity: PagerDutySeverity };
}

export type PagerDutySeverity = 'critical' | 'error' | 'warning' | 'info';

const SOURCE_NOUNS: Record<AlertItem['type'], [string, string]> = {
  anomaly: ['anomaly', 'anomalies'],
  data_quality: ['failed data-quality check', 'failed data-quality checks'],
  run_failed: ['failed run', 'failed runs'],
  daily_insight: ['daily insight', 'daily insights'],
};

/** "3 anomalies and 1 failed data-quality check in Shop EU" (or a run's / an insight's own title). */
export function titleFor(items: AlertItem[], projectName: string): string {
  const only = items[0];
  if (items.length === 1 && only?.type === 'run_failed')
    return `Datastream ${only.datastream} failed in ${projectName}`;
  if (items.length === 1 && only?.type === 'daily_insight') return `Daily insight for ${only.date} · ${projectName}`;
  const counts = new Map<AlertItem['type'], number>();
  for (const item of items) counts.set(item.type, (counts.get(item.type) ?? 0) + 1);
  const parts = [...counts].map(([type, n]) => `${n} ${SOURCE_NOUNS[type][n === 1 ? 0 : 1]}`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return `${list} in ${projectName}`;
}

export function fmtNumber(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
}

export function fmtPct(change: number | null): string {
  if (change === null) return 'n/a';
  const pct = change * 100;
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${fmtNumber(Math.abs(pct), 1)}%`;
}

/** One item as a heading and detail lines (plain text; each sender styles them its own way). */
export interface ItemText {
  heading: string;
  facts: [string, string][];
  note: string | null;
}

export function describeItem(item: AlertItem): ItemText {
  switch (item.type) {
    case 'anomaly':
      return describeAnomaly(item);
    case 'data_quality':
      return describeCheck(item);
    case 'run_failed':
      return describeRun(item);
    case 'daily_insight':
      return describeInsight(item);
  }
}

function describeAnomaly(a: AnomalyItem): ItemText {
  const dates = a.first_date === a.last_date ? a.last_date : `${a.first_date} – ${a.last_date}`;
  const facts: [string, string][] = [
    ['Value', `${fmtNumber(a.value)} vs baseline ${fmtNumber(a.baseline)}`],
    ['Change', fmtPct(a.change)],
    ['z', a.z === null ? 'flat baseline' : fmtNumber(a.z, 1)],
  ];
  if (a.score !== null) facts.push(['Score', fmtNumber(a.score, 2)]);
  if (a.severity) facts.push(['Severity', a.severity]);
  if (a.moved_with_it.length)
    facts.push([
      'Moved with it',
      a.moved_with_it.map((m) => `${kpiLabel(m.metric)} on ${channelName(m.channel)}`).join(', '),
    ]);
  const events = a.context_events.map((e) => `${e.title} (${e.event_type}, ${e.event_date})`);
  return {
    heading: `${kpiLabel(a.metric)} ${a.direction ?? 'change'} on ${channelName(a.channel)} · ${dates}`,
    facts,
    note: events.length ? `Active context: ${events.join('; ')}` : null,
  };
}

function describeCheck(c: DataQualityItem): ItemText {
  const facts: [string, string][] = [['Status', c.status]];
  if (c.dataset) facts.push(['Dataset', c.dataset]);
  if (c.observed !== null) facts.push(['Observed', shortJson(c.observed)]);
  if (c.threshold !== null) facts.push(['Threshold', shortJson(c.threshold)]);
  return {
    heading: `Data-quality check ${c.monitor} ${c.status === 'error' ? 'errored' : 'failed'}`,
    facts,
    note: c.message,
  };
}

function describeRun(r: RunFailedItem): ItemText {
  const facts: [string, string][] = [['Run', r.run_id]];
  if (r.window) facts.push(['Window', `${r.window.from} – ${r.window.to}`]);
  if (r.attempts !== null) facts.push(['Attempts', String(r.attempts)]);
  return { heading: `Datastream ${r.datastream} failed after its retries`, facts, note: r.error };
}

function describeInsight(i: DailyInsightItem): ItemText {
  const facts: [string, string][] = i.kpis.map((k) => [
    kpiLabel(k.metric),
    `${fmtNumber(k.value)}${k.metric === 'spend' || k.metric === 'revenue' ? ` ${i.currency}` : ''} (${
      k.day_over_day_pct === null ? 'n/a' : fmtPct(k.day_over_day_pct / 100)
    } vs previous day)`,
  ]);
  facts.push(['Anomalies', String(i.anomalies)]);
  const events = i.context_events.map((e) => `${e.title} (${e.event_type})`);
  return {
    heading: `Daily insight · ${i.date}`,
    facts,
    note: events.length ? `Active context: ${events.join('; ')}` : null,
  };
}

function shortJson(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** "…and 7 more." under the listed items, and what the run did not name; null when nothing is left out. */
export function moreLine(payload: MessagePayload): string | null {
  const parts: string[] = [];
  const hidden = payload.total - payload.items.length;
  if (hidden > 0) parts.push(`…and ${hidden} more.`);
  if (payload.unlisted > 0)
    parts.push(
      `The run reported ${payload.unlisted} more ${payload.unlisted === 1 ? 'anomaly' : 'anomalies'} than it named; see the console.`,
    );
  return parts.length ? parts.join(' ') : null;
}

/** The whole message as plain text (email's text part, PagerDuty's custom details). */
export function plainText(payload: MessagePayload): string {
  const lines = [payload.title, ''];
  for (const item of payload.items) {
    const text = describeItem(item);
    lines.push(`• ${text.heading}`);
    for (const [k, v] of text.facts) lines.push(`    ${k}: ${v}`);
    if (text.note) lines.push(`    ${text.note}`);
    if (item.url) lines.push(`    ${item.url}`);
  }
  const more = moreLine(payload);
  if (more) lines.push('', more);
  if (payload.rule) lines.push('', `Rule: ${payload.rule.name}`);
  if (payload.console_url) lines.push(`Open in Context Hub: ${payload.console_url}`);
  return lines.join('\n');
}
