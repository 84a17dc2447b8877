import { useMemo, useState } from 'preact/hooks';
import { SeriesChart } from '../../shared/chart.js';
import { ErrorNotice, useToolData } from '../../shared/data-views.js';
import { fmtDay, fmtDelta, fmtNumber } from '../../shared/format.js';
import { channelName, fmtKpi, kpiLabel, kpiUnit, toneOf } from '../../shared/kpi.js';
import { type BaselinePoint, bandOf, chartRange } from '../../shared/series.js';
import { startView, type ViewProps } from '../../shared/view.js';
import { ExplainSection, type Explanation, isExplanation } from '../../shared/explain.js';
import { ExplainLoader } from './explain.js';
import { TriageButtons, type TriageStatus } from './triage.js';

interface Anomaly {
  id: string;
  status: TriageStatus;
  date: string;
  metric: string;
  channel: string;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  training_size: number;
  window: { from: string; to: string; seasonality: string };
  z: number | null;
  relative_change: number | null;
  threshold: number;
  direction: string | null;
  context_events: { id: string; event_type: string; title: string; event_date: string; active_until: string }[];
}
interface AnomaliesData {
  since: string;
  to: string | null;
  count: number;
  truncated?: boolean;
  filters?: { metric: string | null; channel: string | null; direction: string | null };
  focus?: Anomaly | null;
  anomalies: Anomaly[];
}
interface SeriesData {
  currency: string;
  rule: { threshold: number; window_days: number; seasonality: string };
  points: BaselinePoint[];
}

function AnomalyChart(props: { anomaly: Anomaly; projectId: string; host: ViewProps<AnomaliesData>['host'] }) {
  const a = props.anomaly;
  const [explaining, setExplaining] = useState(false);
  const f = props.host.format;
  const range = chartRange(a.date, a.window.from);
  const series = useToolData<SeriesData>(props.host, 'get_metric_series', {
    project_id: props.projectId,
    metric: a.metric,
    channel: a.channel,
    ...range,
  });
  const data = series.data;
  const band = useMemo(() => data && bandOf(data.points, data.rule.threshold), [data]);
  const currency = data?.currency ?? null;
  const unit = kpiUnit(a.metric);
  const label = `${kpiLabel(a.metric)} · ${channelName(a.channel)}`;
  const markers = a.context_events
    .filter((e) => e.event_date >= range.from && e.event_date <= range.to)
    .map((e) => ({ day: e.event_date, label: e.title }));
  return (
    <section class="card stack" aria-label="Selected anomaly" data-anomaly-id={a.id}>
      <div class="spread">
        <h2>
          {label}, {fmtDay(a.date, f)}
        </h2>
        <span class={`badge ${toneOf(a.metric, a.value - (a.baseline_mean ?? a.value)) === 'bad' ? 'danger' : 'info'}`}>
          {a.direction ?? 'change'}
        </span>
      </div>
      <p class="small">
        {fmtKpi(a.value, unit, currency, f)} against a baseline of {fmtKpi(a.baseline_mean, unit, currency, f)} ±{' '}
        {fmtKpi(a.baseline_stddev, unit, currency, f)} over {a.training_size} days (z {fmtNumber(a.z, f, 1)}, change{' '}
        {fmtDelta(a.relative_change, f)}, fires at |z| ≥ {fmtNumber(a.threshold, f)}).
      </p>
      <TriageButtons anomalyId={a.id} status={a.status} host={props.host} />
      <ErrorNotice error={series.error} />
      {series.loading && <p class="muted small">Loading the series…</p>}
      {band && data && (
        <>
          <SeriesChart
            days={band.days}
            values={band.values}
            baseline={band.baseline}
            lower={band.lower}
            upper={band.upper}
            highlight={[a.date]}
            markers={markers}
            label={kpiLabel(a.metric)}
            summary={`${label} per day from ${fmtDay(range.from, f)} to ${fmtDay(range.to, f)} with its trailing baseline and a band of ± ${fmtNumber(data.rule.threshold, f)} σ; the value on ${fmtDay(a.date, f)} is outside the band.`}
          />
          <div class="legend" aria-hidden="true">
            <span style={{ color: 'var(--color-text-info)' }}>
              <span class="swatch" />
              value
            </span>
            <span>
              <span class="swatch dash" />
              baseline (trailing{' '}
              {data.rule.seasonality === 'day_of_week' ? 'same weekday' : `${data.rule.window_days} days`})
            </span>
            <span style={{ color: 'var(--color-text-info)' }}>
              <span class="swatch band" />± {fmtNumber(data.rule.threshold, f)} σ
            </span>
            <span style={{ color: 'var(--color-text-danger)' }}>
              <span class="swatch dot" />
              fired
            </span>
            {markers.length > 0 && (
              <span style={{ color: 'var(--color-text-warning)' }}>
                <span class="swatch dash" />
                context event
              </span>
            )}
          </div>
        </>
      )}
      {/* Open, the explanation lists the events of every day of the anomaly, this day's among them. */}
      {explaining ? null : a.context_events.length > 0 ? (
        <div>
          <h3>Context events active that day</h3>
          <ul class="small" aria-label="Context events">
            {a.context_events.map((e) => (
              <li key={e.id}>
                <span class="badge">{e.event_type}</span> {e.title}{' '}
                <span class="muted">
                  ({fmtDay(e.event_date, f)} – {fmtDay(e.active_until, f)})
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p class="muted small">No context event was active that day.</p>
      )}
      {a.id && (
        <button type="button" class="action" aria-expanded={explaining} onClick={() => setExplaining(!explaining)}>
          {explaining ? 'Hide the explanation' : 'Why did it move?'}
        </button>
      )}
      {a.id && explaining && <ExplainLoader projectId={props.projectId} anomalyId={a.id} host={props.host} />}
    </section>
  );
}

/** explain_anomaly's own answer: the explanation alone. */
function ExplanationView({ data, host }: { data: Explanation; host: ViewProps<AnomaliesData>['host'] }) {
  const a = data.anomaly;
  const f = host.format;
  return (
    <div class="stack">
      <h1>
        {kpiLabel(a.metric)} · {channelName(a.channel)}, {fmtDay(a.first_date, f)}
        {a.last_date !== a.first_date ? ` – ${fmtDay(a.last_date, f)}` : ''}
      </h1>
      <section class="card">
        <ExplainSection data={data} format={f} />
      </section>
    </div>
  );
}

function AnomaliesView({ answer, host }: ViewProps<AnomaliesData>) {
  if (isExplanation(answer.data)) return <ExplanationView data={answer.data} host={host} />;
  return <AnomalyList answer={answer} host={host} />;
}

function AnomalyList({ answer, host }: ViewProps<AnomaliesData>) {
  const f = host.format;
  // Another window than the answer's: listed through get_anomalies with the answer's filters.
  const [range, setRange] = useState<{ since: string; to: string } | null>(null);
  const filters = answer.data.filters;
  const other = useToolData<AnomaliesData>(
    host,
    'get_anomalies',
    range && {
      project_id: answer.projectId,
      ...(range.since ? { since: range.since } : {}),
      ...(range.to ? { to: range.to } : {}),
      ...(filters?.metric ? { metric: filters.metric } : {}),
      ...(filters?.channel ? { channel: filters.channel } : {}),
      ...(filters?.direction ? { direction: filters.direction } : {}),
      limit: 200,
    },
  );
  const d = (range && other.data) || answer.data;
  // The anomaly a date or an id named opens first, on the list or not.
  const focus = answer.data.focus ?? null;
  const [selected, setSelected] = useState<string | null>(focus?.id ?? d.anomalies[0]?.id ?? null);
  const chosen =
    d.anomalies.find((a) => a.id === selected) ?? (focus?.id === selected ? focus : undefined) ?? d.anomalies[0];
  const bound = (k: 'since' | 'to') => (ev: { currentTarget: { value: string } }) =>
    setRange({ since: d.since, to: d.to ?? '', [k]: ev.currentTarget.value });
  return (
    <div class="stack">
      <div class="spread">
        <h1>Anomalies</h1>
        <span class="muted small" data-window={`${d.since}|${d.to ?? ''}`}>
          {fmtNumber(d.count, f)} fired from {fmtDay(d.since, f)} to {d.to ? fmtDay(d.to, f) : 'today'}
        </span>
      </div>
      <fieldset class="window">
        <legend class="visually-hidden">Window</legend>
        <label>
          From <input type="date" value={d.since} onChange={bound('since')} />
        </label>
        <label>
          To <input type="date" value={d.to ?? ''} min={d.since} onChange={bound('to')} />
        </label>
        {other.loading && <span class="muted small">Loading…</span>}
      </fieldset>
      <ErrorNotice error={other.error} />
      {chosen && <AnomalyChart key={chosen.id} anomaly={chosen} projectId={answer.projectId} host={host} />}
      {d.anomalies.length === 0 ? (
        <p class="notice">Nothing fired in this range: every metric stayed within its baseline band.</p>
      ) : (
        <div class="scroll list-box">
          <table class="select">
            <caption class="visually-hidden">Fired anomalies; choose one to chart it</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Metric</th>
                <th scope="col">Channel</th>
                <th scope="col">Direction</th>
                <th scope="col" class="num">
                  z
                </th>
                <th scope="col" class="num">
                  Change
                </th>
                <th scope="col">Events</th>
              </tr>
            </thead>
            <tbody>
              {d.anomalies.map((a) => {
                const k = a.id;
                const tone = toneOf(a.metric, a.relative_change ?? (a.direction === 'drop' ? -1 : 1));
                return (
                  <tr key={k} class={k === chosen?.id ? 'selected' : ''} onClick={() => setSelected(k)}>
                    <td>
                      <button
                        type="button"
                        class="link nowrap"
                        aria-pressed={k === chosen?.id}
                        aria-label={`${kpiLabel(a.metric)} on ${channelName(a.channel)}, ${fmtDay(a.date, f)}: show its chart`}
                        onClick={(e) => {
                          e.stopPropagation();
                          setSelected(k);
                        }}
                      >
                        {fmtDay(a.date, f)}
                      </button>
                    </td>
                    <td>{kpiLabel(a.metric)}</td>
                    <td>{channelName(a.channel)}</td>
                    <td>
                      <span class={`badge ${tone === 'bad' ? 'danger' : tone === 'good' ? 'success' : ''}`}>
                        {a.direction ?? '–'}
                      </span>
                    </td>
                    <td class="num">{fmtNumber(a.z, f, 1)}</td>
                    <td class={`num tone-${tone}`}>{fmtDelta(a.relative_change, f)}</td>
                    <td class="small prose-cell">
                      {a.context_events[0]?.title ?? '–'}
                      {a.context_events.length > 1 ? ` +${a.context_events.length - 1} more` : ''}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

startView('anomalies', 'get_anomalies', AnomaliesView);
