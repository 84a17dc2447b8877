import { TOTAL_CHANNEL } from '../anomalies.schemas.js';
import type { Explanation } from './explain.service.js';

/** Movers named in the summary; the rest are in data.decomposition.parts. */
const SUMMARY_PARTS = 8;
const SUMMARY_CHECKS = 4;
const SUMMARY_SKILLS = 4;

const num = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: digits });
const signed = (n: number, digits = 2) => `${n >= 0 ? '+' : '−'}${num(Math.abs(n), digits)}`;
const pct = (n: number | null) => (n === null ? '' : `, ${signed(n * 100, 1)}%`);
/** A share in whole percent, with the minus sign when negative (none when it rounds to 0). */
const share = (n: number) => `${Math.round(n * 100) < 0 ? '−' : ''}${num(Math.abs(n) * 100, 0)}%`;
const where = (channel: string) => (channel === TOTAL_CHANNEL ? 'all channels' : channel);

/** The bounded text summary of explain_anomaly (≤ 30 lines; the envelope clips each line). */
export function explainSummary(e: Explanation): string[] {
  const a = e.anomaly;
  const d = e.decomposition;
  const span = a.first_date === a.last_date ? a.first_date : `${a.first_date} → ${a.last_date}`;
  const lines = [
    `Anomaly ${a.id ?? ''} ${a.metric} on ${where(a.channel)}, ${span}: ${a.direction ?? 'change'} ` +
      `${num(a.value)} vs baseline ${num(a.baseline)} (z ${num(a.z, 1)}).`,
  ];
  const b = e.periods.baseline;
  const vs = `${b.days} baseline day(s) ${b.from} → ${b.to}${b.weighting === 'same_weekday' ? ', same weekdays' : ''}`;
  if (d.unavailable || d.change === null) {
    lines.push(`No decomposition: ${d.unavailable ?? 'no change to split'}.`);
  } else if (d.method === 'rate_mix') {
    lines.push(
      `${a.metric} = ${d.numerator} / ${d.denominator}: ${num(d.baseline_value, 4)} → ${num(d.current_value, 4)} ` +
        `(${signed(d.change, 4)}) vs ${vs}; rate effect ${signed(d.rate_effect ?? 0, 4)}, mix effect ${signed(d.mix_effect ?? 0, 4)}.`,
    );
  } else {
    lines.push(
      `Mean per day ${num(d.baseline_value)} → ${num(d.current_value)} (${signed(d.change)}${pct(d.relative_change)}) vs ${vs}.`,
    );
  }
  if (d.parts.length) {
    lines.push(`Largest contributions by ${d.breakdown} (they sum to the change):`);
    for (const p of d.parts.slice(0, SUMMARY_PARTS)) {
      const name = p.label === p.key ? p.key : `${p.label} (${p.key})`;
      const of = p.share_of_change === null ? '' : `, ${share(p.share_of_change)} of it`;
      const split =
        d.method === 'rate_mix' ? `: rate ${signed(p.rate_effect ?? 0, 4)}, mix ${signed(p.mix_effect ?? 0, 4)}` : '';
      lines.push(`- ${name} ${signed(p.change, d.method === 'rate_mix' ? 4 : 2)}${of}${split}`);
    }
    if (d.parts.length > SUMMARY_PARTS)
      lines.push(`… ${d.parts.length - SUMMARY_PARTS} more in data.decomposition.parts.`);
  }
  lines.push(
    e.context_events.length
      ? `Context events: ${e.context_events.map((x) => `${x.title} (${x.event_type}, ${x.event_date})`).join('; ')}.`
      : 'No context event was active on these days.',
  );
  const q = e.data_quality;
  const counts = `${q.counts.pass} pass, ${q.counts.warn} warn, ${q.counts.fail} fail, ${q.counts.error} error`;
  if (q.verdict === 'no_checks') lines.push('Data quality: no check ran on a run that wrote these days.');
  else if (q.verdict === 'failed' || q.verdict === 'warnings') {
    lines.push(
      `Data quality ${q.verdict === 'failed' ? 'FAILED' : 'warned'} on runs writing these days (${counts}): ` +
        `${q.verdict === 'failed' ? 'suspect the data before the business.' : 'check before concluding.'}`,
    );
    for (const c of q.checks.filter((x) => x.status !== 'pass').slice(0, SUMMARY_CHECKS))
      lines.push(`- ${c.status} ${c.monitor} (${c.dataset}): ${c.message}`);
  } else lines.push(`Data quality: every check passed on runs writing these days (${counts}).`);
  const s = e.skills;
  if (s.matches.length) {
    lines.push(`Skills on ${s.keys.join(', ')}: call get_procedure with one of these names.`);
    for (const m of s.matches.slice(0, SUMMARY_SKILLS)) lines.push(`- ${m.name}: ${m.description}`);
  } else lines.push(`No Skill references ${s.keys.join(' or ')}.`);
  return lines;
}
