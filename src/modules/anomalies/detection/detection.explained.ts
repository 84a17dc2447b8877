import type { EvaluatedPoint } from './rule/rule.series.js';
import { TOTAL_CHANNEL, type Metric } from '../anomalies.schemas.js';

/**
 * One incident, one anomaly: after every series of a project has been through the rule, a fired
 * day that another fired series of the same day explains is reported as `explained` (not fired)
 * and names what explains it. The rule's own state (exclusion, runs, level shifts, precedents)
 * already treated it as fired, so later baselines are the same either way; only what people are
 * told changes: a spend spike is one anomaly, not four (spend, ROAS, CPA and the total's spend).
 *
 * - A ratio is explained by a part that fired the way it moves the ratio on the same day and
 *   channel: its numerator on the same side, or its denominator on the other (spend up: ROAS
 *   down, CPA up). The numerator is named first.
 * - The project total (`_total`) is explained by a channel that fired on the same side for the
 *   same metric that day: the one with the largest |z| (then the first by name).
 * Explained rows can explain others (the total's ROAS by a channel's ROAS that its revenue
 * explains): what is named is the nearest cause, and the chain ends at a fired row.
 */

/** Numerator and denominator of each ratio KPI. */
export const RATIO_PARTS: Partial<Record<Metric, readonly [Metric, Metric]>> = {
  roas: ['revenue', 'spend'],
  cpa: ['spend', 'conversions'],
  ctr: ['clicks', 'impressions'],
  cvr: ['conversions', 'clicks'],
};

export interface ProjectSeries {
  channel: string;
  metric: Metric;
  rows: EvaluatedPoint[];
}

const other = (side: 'spike' | 'drop') => (side === 'spike' ? 'drop' : 'spike');

/** Marks the explained rows of one project's series in place. */
export function explainAcrossSeries(series: readonly ProjectSeries[]): void {
  // What fired before any row is marked: a row explained by another still explains a third.
  const fired = new Map<string, EvaluatedPoint>();
  const at = (channel: string, metric: string, d: number) => `${channel}\u0000${metric}\u0000${d}`;
  for (const s of series) for (const r of s.rows) if (r.fired) fired.set(at(s.channel, s.metric, r.d), r);
  const channelsOf = new Map<string, string[]>();
  for (const s of series) {
    if (s.channel === TOTAL_CHANNEL) continue;
    const list = channelsOf.get(s.metric) ?? [];
    list.push(s.channel);
    channelsOf.set(s.metric, list);
  }
  for (const list of channelsOf.values()) list.sort();

  const marks: [EvaluatedPoint, { channel: string; metric: string }][] = [];
  for (const s of series) {
    for (const r of s.rows) {
      if (!r.fired || !r.direction) continue;
      const by = causeOf(s.channel, s.metric, r.d, r.direction);
      if (by) marks.push([r, by]);
    }
  }
  for (const [row, by] of marks) {
    row.fired = false;
    row.status = 'explained';
    row.kind = null;
    row.severity = null;
    row.explainedBy = by;
  }

  function causeOf(channel: string, metric: Metric, d: number, side: 'spike' | 'drop') {
    const parts = RATIO_PARTS[metric];
    if (parts) {
      if (fired.get(at(channel, parts[0], d))?.direction === side) return { channel, metric: parts[0] };
      if (fired.get(at(channel, parts[1], d))?.direction === other(side)) return { channel, metric: parts[1] };
    }
    if (channel !== TOTAL_CHANNEL) return null;
    let best: { channel: string; z: number } | null = null;
    for (const c of channelsOf.get(metric) ?? []) {
      const r = fired.get(at(c, metric, d));
      if (r?.direction !== side) continue;
      const z = Math.abs(r.z ?? Number.POSITIVE_INFINITY);
      if (!best || z > best.z) best = { channel: c, z };
    }
    return best ? { channel: best.channel, metric } : null;
  }
}
