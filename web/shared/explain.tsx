import { ScrollRegion, StatusBadge } from './data-views.js';
import './explain.css';
import { type FormatContext, fmtDay, fmtDelta, fmtNumber } from './format.js';
import { channelName, fmtKpi, kpiLabel, kpiUnit } from './kpi.js';

/** explain_anomaly's data, as GET /api/anomalies/{id}/explain answers it (anomalies.explain.schemas.ts). */
export interface Explanation {
  anomaly: { id: string | null; metric: string; channel: string; first_date: string; last_date: string };
  currency: string | null;
  periods: {
    current: { from: string; to: string; days: number };
    baseline: { from: string; to: string; weighting: string; days: number; excluded_days: number };
  };
  decomposition: {
    method: 'additive' | 'rate_mix';
    breakdown: 'channel' | 'campaign';
    numerator: string | null;
    denominator: string | null;
    current_value: number | null;
    baseline_value: number | null;
    change: number | null;
    relative_change: number | null;
    rate_effect?: number;
    mix_effect?: number;
    parts: {
      key: string;
      label: string;
      current: number | null;
      baseline: number | null;
      change: number;
      share_of_change: number | null;
      rate_effect?: number;
      mix_effect?: number;
    }[];
    unavailable?: string;
  };
  context_events: { id: string; event_type: string; title: string; event_date: string }[];
  data_quality: {
    verdict: 'no_checks' | 'passed' | 'warnings' | 'failed';
    counts: { pass: number; warn: number; fail: number; error: number };
    checks: { id: string; monitor: string; status: string; dataset: string; message: string }[];
  };
  skills: { keys: string[]; matches: { name: string; description: string }[] };
}

export const isExplanation = (d: unknown): d is Explanation =>
  typeof d === 'object' && d !== null && 'decomposition' in d;

/** Movers shown before "show all". */
const SHOWN_PARTS = 8;

const VERDICT: Record<Explanation['data_quality']['verdict'], { badge: string; text: string }> = {
  no_checks: { badge: '', text: 'No data-quality check ran on a run that wrote these days.' },
  passed: { badge: 'success', text: 'Every data-quality check passed on the runs that wrote these days.' },
  warnings: {
    badge: 'warning',
    text: 'Data-quality warnings on the runs that wrote these days: check before concluding.',
  },
  failed: {
    badge: 'danger',
    text: 'A data-quality check failed on a run that wrote these days: suspect the data first.',
  },
};

/** Why an anomaly moved: the decomposition, its days' events, data quality and Skills. */
export function ExplainSection(props: { data: Explanation; format: FormatContext }) {
  const e = props.data;
  const f = props.format;
  const d = e.decomposition;
  const unit = kpiUnit(e.anomaly.metric);
  const kpi = (v: number | null | undefined) => fmtKpi(v, unit, e.currency, f);
  const signed = (v: number | null | undefined) =>
    v === null || v === undefined ? '–' : `${v > 0 ? '+' : v < 0 ? '−' : ''}${kpi(Math.abs(v))}`;
  const ratio = d.method === 'rate_mix';
  const largest = Math.max(...d.parts.map((p) => Math.abs(p.change)), 0) || 1;
  const b = e.periods.baseline;
  const span =
    e.periods.current.from === e.periods.current.to
      ? fmtDay(e.periods.current.from, f)
      : `${fmtDay(e.periods.current.from, f)} – ${fmtDay(e.periods.current.to, f)}`;
  const dq = VERDICT[e.data_quality.verdict];
  return (
    <section class="stack explain" aria-label="Why it moved">
      <h3>Why it moved</h3>
      {d.unavailable || d.change === null ? (
        <p class="notice">No breakdown: {d.unavailable ?? 'nothing changed'}.</p>
      ) : (
        <>
          <p class="small">
            {kpiLabel(e.anomaly.metric)} {ratio ? '' : 'per day '}on {channelName(e.anomaly.channel)}:{' '}
            {kpi(d.baseline_value)} over {fmtNumber(b.days, f)} baseline day{b.days === 1 ? '' : 's'} (
            {fmtDay(b.from, f)} – {fmtDay(b.to, f)}
            {b.weighting === 'same_weekday' ? ', each day against its weekday' : ''}
            {b.excluded_days ? `, ${b.excluded_days} day(s) left out` : ''}) → {kpi(d.current_value)} on {span}:{' '}
            <strong>{signed(d.change)}</strong> ({fmtDelta(d.relative_change, f)}).
            {ratio && (
              <>
                {' '}
                {kpiLabel(e.anomaly.metric)} is {d.numerator} ÷ {d.denominator}: the rate effect (
                {signed(d.rate_effect)}) is each {d.breakdown}'s own {kpiLabel(e.anomaly.metric)} moving, the mix effect
                ({signed(d.mix_effect)}) its share of {d.denominator} moving.
              </>
            )}
          </p>
          <ScrollRegion label={`Contribution of each ${d.breakdown}`}>
            <table>
              <caption class="visually-hidden">
                Contribution of each {d.breakdown} to the change; the contributions add up to {signed(d.change)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{d.breakdown === 'channel' ? 'Channel' : 'Campaign'}</th>
                  <th scope="col" class="num">
                    Baseline
                  </th>
                  <th scope="col" class="num">
                    Now
                  </th>
                  <th scope="col" class="num">
                    Contribution
                  </th>
                  {ratio && (
                    <>
                      <th scope="col" class="num">
                        Rate
                      </th>
                      <th scope="col" class="num">
                        Mix
                      </th>
                    </>
                  )}
                  <th scope="col">
                    <span class="visually-hidden">Share of the change</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.parts.slice(0, SHOWN_PARTS).map((p) => (
                  <tr key={p.key}>
                    <th scope="row" class="part-name">
                      {p.key === '_other' || p.label === p.key ? p.label : `${p.label}`}
                    </th>
                    <td class="num">{kpi(p.baseline)}</td>
                    <td class="num">{kpi(p.current)}</td>
                    <td class="num nowrap">{signed(p.change)}</td>
                    {ratio && (
                      <>
                        <td class="num nowrap">{signed(p.rate_effect)}</td>
                        <td class="num nowrap">{signed(p.mix_effect)}</td>
                      </>
                    )}
                    <td class="share">
                      <span class="bar-track" aria-hidden="true">
                        <span
                          class={`bar-fill ${p.change < 0 ? 'neg' : ''}`}
                          style={{ width: `${Math.round((Math.abs(p.change) / largest) * 100)}%` }}
                        />
                      </span>
                      <span class="small muted">
                        {p.share_of_change === null ? '' : `${fmtNumber(p.share_of_change * 100, f, 0)} %`}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {d.parts.length > SHOWN_PARTS && (
            <p class="muted small">
              {d.parts.length - SHOWN_PARTS} smaller {d.breakdown === 'channel' ? 'channels' : 'campaigns'} are in the
              answer's data.
            </p>
          )}
        </>
      )}
      <div class="explain-facts">
        <div>
          <h4>Context events</h4>
          {e.context_events.length ? (
            <ul class="small" aria-label="Context events of these days">
              {e.context_events.map((x) => (
                <li key={x.id}>
                  <span class="badge">{x.event_type}</span> {x.title}{' '}
                  <span class="muted">({fmtDay(x.event_date, f)})</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted small">None active on these days.</p>
          )}
        </div>
        <div>
          <h4>Data quality</h4>
          <p class="small">
            <span class={`badge ${dq.badge}`}>{e.data_quality.verdict.replace('_', ' ')}</span> {dq.text}
          </p>
          {e.data_quality.checks.some((c) => c.status !== 'pass') && (
            <ul class="small" aria-label="Checks that did not pass">
              {e.data_quality.checks
                .filter((c) => c.status !== 'pass')
                .slice(0, 5)
                .map((c) => (
                  <li key={c.id}>
                    <StatusBadge status={c.status} /> {c.monitor}: {c.message}
                  </li>
                ))}
            </ul>
          )}
        </div>
        <div>
          <h4>Skills</h4>
          {e.skills.matches.length ? (
            <ul class="small" aria-label={`Skills on ${e.skills.keys.join(', ')}`}>
              {e.skills.matches.map((s) => (
                <li key={s.name}>
                  <code>{s.name}</code> <span class="muted">{s.description}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted small">No Skill references {e.skills.keys.join(' or ')}.</p>
          )}
        </div>
      </div>
    </section>
  );
}
