import type { ComponentChildren } from 'preact';
import { ScrollRegion, StatusBadge } from './data-views.js';
import './explain.css';
import { type FormatContext, fmtDay, fmtDelta, fmtNumber, fmtShare, MINUS } from './format.js';
import { channelName, fmtKpi, kpiLabel, kpiUnit } from './kpi.js';
import { WithKeyReferences } from './key-references.js';

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
      /** |change| against the largest mover's, in [0, 1]: the bar's length. */
      share_of_largest: number;
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

/**
 * One figure of a part's row. Its label, hidden from assistive technology (the column header
 * names the cell), shows only in the narrow layout, where the header row is hidden.
 */
function Figure(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout (ExplainSection)
    <td role="cell" class="num figure">
      <span class="cell-label" aria-hidden="true">
        {props.label}{' '}
      </span>
      <span class="nowrap">{props.children}</span>
    </td>
  );
}

/** Why an anomaly moved: the decomposition, its days' events, data quality and Skills. */
export function ExplainSection(props: {
  data: Explanation;
  format: FormatContext;
  /** Where a `[[key]]` in a Skill's description links to (the console's taxonomy); text without it. */
  keyHref?: (key: string) => string;
}) {
  const e = props.data;
  const f = props.format;
  const d = e.decomposition;
  const unit = kpiUnit(e.anomaly.metric);
  const kpi = (v: number | null | undefined) => fmtKpi(v, unit, e.currency, f);
  // A figure that rounds to zero has no sign ("0.00", never "−0.00").
  const signed = (v: number | null | undefined) => {
    if (v === null || v === undefined) return '–';
    const text = kpi(Math.abs(v));
    return /[1-9]/.test(text) ? `${v > 0 ? '+' : MINUS}${text}` : text;
  };
  const ratio = d.method === 'rate_mix';
  const b = e.periods.baseline;
  const span =
    e.periods.current.from === e.periods.current.to
      ? fmtDay(e.periods.current.from, f)
      : `${fmtDay(e.periods.current.from, f)} – ${fmtDay(e.periods.current.to, f)}`;
  const dq = VERDICT[e.data_quality.verdict];
  const columns = [
    { name: d.breakdown === 'channel' ? 'Channel' : 'Campaign' },
    { name: 'Baseline', num: true },
    { name: 'Now', num: true },
    { name: 'Contribution', num: true },
    ...(ratio
      ? [
          { name: 'Rate', num: true },
          { name: 'Mix', num: true },
        ]
      : []),
    { name: 'Share of the change', hidden: true },
  ];
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
            {/*
             * Explicit roles: in a narrow explanation each row is a block of its own (explain.css),
             * and a table whose rows are laid out as blocks loses its semantics in some browsers.
             * The labels in the cells show only then, when the header row is hidden.
             */}
            {/* biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout, see above */}
            <table class="parts" role="table">
              <caption class="visually-hidden">
                Contribution of each {d.breakdown} to the change; the contributions add up to {signed(d.change)}
              </caption>
              {/* biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout */}
              <thead role="rowgroup">
                {/* biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout */}
                <tr role="row">
                  {columns.map((c) => (
                    // biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout
                    <th key={c.name} scope="col" role="columnheader" class={c.num ? 'num' : undefined}>
                      {c.hidden ? <span class="visually-hidden">{c.name}</span> : c.name}
                    </th>
                  ))}
                </tr>
              </thead>
              {/* biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout */}
              <tbody role="rowgroup">
                {d.parts.slice(0, SHOWN_PARTS).map((p) => (
                  // biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout
                  <tr key={p.key} role="row">
                    {/* biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout */}
                    <th scope="row" role="rowheader" class="part-name">
                      {p.label}
                    </th>
                    <Figure label="Baseline">{kpi(p.baseline)}</Figure>
                    <Figure label="Now">{kpi(p.current)}</Figure>
                    <Figure label="Contribution">{signed(p.change)}</Figure>
                    {ratio && (
                      <>
                        <Figure label="Rate">{signed(p.rate_effect)}</Figure>
                        <Figure label="Mix">{signed(p.mix_effect)}</Figure>
                      </>
                    )}
                    {/* biome-ignore lint/a11y/noRedundantRoles: kept for the narrow layout */}
                    <td role="cell" class="share">
                      <div class="share-bar">
                        <span class="bar-track" aria-hidden="true">
                          <span
                            class={`bar-fill ${p.change < 0 ? 'neg' : ''}`}
                            style={{ width: `${Math.round(p.share_of_largest * 100)}%` }}
                          />
                        </span>
                        <span class="small muted share-text">
                          {p.share_of_change === null ? '' : fmtShare(p.share_of_change, f)}
                        </span>
                      </div>
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
                  <code>{s.name}</code>{' '}
                  <span class="muted">
                    <WithKeyReferences text={s.description} keyHref={props.keyHref} />
                  </span>
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
