import { CronExpressionParser } from 'cron-parser';
import { TOTAL_CHANNEL } from '../anomalies/index.js';
import type { AlertItem, AnomalyItem } from './alerts.items.js';
import type { QuietHours, RuleFilters } from './alerts.schemas.js';

/** A rule's filters on one anomaly: metrics, channels, direction, strength, the project total. */
export function anomalyPasses(item: AnomalyItem, filters: RuleFilters): boolean {
  if (filters.metrics?.length && !filters.metrics.includes(item.metric as never)) return false;
  if (filters.channels?.length && !filters.channels.includes(item.channel)) return false;
  if (filters.include_totals === false && item.channel === TOTAL_CHANNEL) return false;
  if (filters.direction && filters.direction !== 'both' && item.direction !== filters.direction) return false;
  // A flat baseline has no z; the detector fired it on the relative change, so it counts as strong.
  if (filters.min_abs_z !== undefined && item.z !== null && Math.abs(item.z) < filters.min_abs_z) return false;
  // Anomalies published without a score (before the detector scores them) are not held back by it.
  if (filters.min_score !== undefined && item.score !== null && item.score < filters.min_score) return false;
  return true;
}

export interface MuteRow {
  id: string;
  rule_id: string | null;
  metric: string | null;
  channel: string | null;
  until: string;
}

/** Whether an active mute silences this item for this rule (mutes name metrics and channels). */
export function mutedBy(item: AlertItem, ruleId: string, mutes: MuteRow[], today: string): MuteRow | undefined {
  if (item.type !== 'anomaly') return undefined;
  return mutes.find(
    (m) =>
      m.until >= today &&
      (m.rule_id === null || m.rule_id === ruleId) &&
      (m.metric === null || m.metric === item.metric) &&
      (m.channel === null || m.channel === item.channel),
  );
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

function localMinutes(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/**
 * When a message due at `now` may go out: `now`, or the end of the quiet hours it falls in (the
 * next `to` in the project's time zone; cron-parser walks DST changes). [from, to) may wrap midnight.
 */
export function releaseAfterQuietHours(now: Date, quiet: QuietHours | null, timeZone: string): Date {
  if (!quiet) return now;
  const at = localMinutes(now, timeZone);
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  const inside = from < to ? at >= from && at < to : at >= from || at < to;
  if (!inside) return now;
  const [h, m] = quiet.to.split(':').map(Number);
  const it = CronExpressionParser.parse(`${m} ${h} * * *`, { currentDate: now, tz: timeZone });
  return it.next().toDate();
}
