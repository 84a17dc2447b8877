import { wholeList } from '../pages.js';
import { useMemo, useState } from 'preact/hooks';
import { SeriesChart } from '../../shared/chart.js';
import { fmtDelta, fmtNumber } from '../../shared/format.js';
import { fmtKpi, KPI_META, kpiUnit } from '../../shared/kpi.js';
import { bandOf, chartRange } from '../../shared/series.js';
import { api, ok, type Res } from '../api.js';
import { route } from '../router.js';
import { useStore } from '../store.js';
import {
  DataTable,
  ErrorBox,
  Field,
  Loading,
  PageTitle,
  Tabs,
  useLoad,
  useProject,
  useSubmit,
  TableWrap,
} from '../ui.js';
import { ExplainPanel } from './anomaly-explain.js';
import { PrecisionPanel } from './anomaly-precision.js';
import { TriageControls } from './anomaly-triage.js';
import { Day, metricLabel } from './common.js';

type Anomaly = Res<'/api/anomalies', 'get'>['anomalies'][number];
type Settings = Res<'/api/anomalies/settings', 'get'>;
const METRICS = Object.keys(KPI_META);

function Anomalies() {
  const { can } = useProject();
  const [tab, setTab] = useState('list');
  return (
    <>
      <PageTitle>Anomalies</PageTitle>
      <Tabs
        tabs={[
          { id: 'list', label: 'Fired anomalies' },
          { id: 'precision', label: 'Precision' },
          { id: 'settings', label: 'Settings' },
        ]}
        current={tab}
        onChange={setTab}
      />
      {tab === 'list' ? (
        <AnomaliesOfLink />
      ) : tab === 'precision' ? (
        <PrecisionPanel />
      ) : (
        <SettingsPanel editable={can('admin')} />
      )}
    </>
  );
}

/** What a deep link names: an anomaly by id, or a day of a series (date, metric, channel). */
function linkOf(query: URLSearchParams) {
  return {
    anomaly_id: query.get('anomaly') ?? undefined,
    date: query.get('date') ?? undefined,
    metric: query.get('metric') ?? '',
    channel: query.get('channel') ?? '',
    since: query.get('since') ?? undefined,
    to: query.get('to') ?? undefined,
  };
}

function AnomaliesOfLink() {
  const r = useStore(route);
  const link = linkOf(r.query);
  // A new link (another alert, the overview) starts the list over with what it names.
  return <AnomalyList key={r.query.toString()} link={link} />;
}

function AnomalyList(props: { link: ReturnType<typeof linkOf> }) {
  const { project, format } = useProject();
  const { link } = props;
  const [filters, setFilters] = useState({ metric: link.metric, channel: link.channel, direction: '' });
  // The window: the API's default (the last 30 days) widened to what the link names, until the user
  // picks one; an explicit window then wins over the link.
  const [range, setRange] = useState<{ since?: string; to?: string; chosen: boolean }>({
    since: link.since,
    to: link.to,
    chosen: false,
  });
  const list = useLoad(
    () =>
      ok(
        api.GET('/api/anomalies', {
          params: {
            query: {
              project_id: project.id,
              limit: 100,
              ...(filters.metric ? { metric: filters.metric as 'roas' } : {}),
              ...(filters.channel ? { channel: filters.channel } : {}),
              ...(filters.direction ? { direction: filters.direction as 'spike' } : {}),
              ...(range.since ? { since: range.since } : {}),
              ...(range.to ? { to: range.to } : {}),
              ...(range.chosen ? {} : link.anomaly_id ? { anomaly_id: link.anomaly_id } : {}),
              ...(range.chosen || link.anomaly_id || !link.date ? {} : { date: link.date }),
            },
          },
        }),
      ),
    [project.id, filters.metric, filters.channel, filters.direction, range.since, range.to, range.chosen],
  );
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const anomalies = list.data?.anomalies ?? [];
  // The anomaly the link names stays open even when it is not on the list's first page.
  const focus = list.data?.focus ?? undefined;
  const wanted = selected ?? focus?.id;
  const current = anomalies.find((a) => a.id === wanted) ?? (focus?.id === wanted ? focus : undefined) ?? anomalies[0];
  const set = (k: keyof typeof filters) => (ev: { currentTarget: { value: string } }) =>
    setFilters({ ...filters, [k]: ev.currentTarget.value });
  const since = range.since ?? list.data?.since ?? '';
  const to = range.to ?? list.data?.to ?? '';
  const setBound = (k: 'since' | 'to') => (ev: { currentTarget: { value: string } }) => {
    const value = ev.currentTarget.value;
    setSelected(current?.id);
    setRange({ since, to, ...{ [k]: value }, chosen: true });
  };
  const linked = !range.chosen && (link.anomaly_id || link.date);
  return (
    <div class="stack">
      <fieldset class="form-grid">
        <legend class="visually-hidden">Filters</legend>
        <Field label="Metric">
          {(a) => (
            <select {...a} value={filters.metric} onChange={set('metric')}>
              <option value="">All metrics</option>
              {METRICS.map((m) => (
                <option key={m} value={m}>
                  {KPI_META[m]!.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Channel">
          {(a) => <input {...a} value={filters.channel} onChange={set('channel')} placeholder="e.g. paid_search" />}
        </Field>
        <Field label="Direction">
          {(a) => (
            <select {...a} value={filters.direction} onChange={set('direction')}>
              <option value="">Both</option>
              <option value="spike">Spike</option>
              <option value="drop">Drop</option>
            </select>
          )}
        </Field>
        <Field label="Fired from">
          {(a) => <input {...a} type="date" value={since} onChange={setBound('since')} />}
        </Field>
        <Field label="Fired until" hint="Empty: up to today.">
          {(a) => <input {...a} type="date" value={to} min={since || undefined} onChange={setBound('to')} />}
        </Field>
      </fieldset>
      {list.data && (
        <p class="small" aria-live="polite" data-window={`${list.data.since}|${list.data.to ?? ''}`}>
          Anomalies with a fired day from <Day day={list.data.since} />{' '}
          {list.data.to ? (
            <>
              to <Day day={list.data.to} />
            </>
          ) : (
            'to today'
          )}
          {linked && list.data.focus ? ', including the anomaly the link names.' : '.'}
        </p>
      )}
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="anomalies" />}
      {list.data && link.date && !link.anomaly_id && !range.chosen && !list.data.focus && (
        <p class="notice">
          Nothing of {link.metric ? metricLabel(link.metric, link.channel || '_total') : 'these filters'} fired on{' '}
          <Day day={link.date} />.
        </p>
      )}
      {current && <AnomalyChart key={current.id} a={current} />}
      {current && <ExplainPanel key={current.id} id={current.id} />}
      <TableWrap>
        <DataTable
          caption={'Fired anomalies'}
          columns={['Day', 'Metric', 'Direction', { num: 'Value' }, { num: 'Change' }, 'Status', 'Assignee', 'Events']}
          data-loaded={list.data ? 'true' : undefined}
        >
          {anomalies.map((a) => (
            <tr key={a.id} class={a.id === current?.id ? 'selected' : undefined}>
              <td>
                <Day day={a.date} />
              </td>
              <td>
                <button
                  type="button"
                  class="link"
                  aria-pressed={a.id === current?.id}
                  onClick={() => setSelected(a.id)}
                >
                  {metricLabel(a.metric, a.channel)}
                </button>
              </td>
              <td>{a.direction ?? '–'}</td>
              <td class="num">{fmtKpi(a.value, kpiUnit(a.metric), project.reporting_currency, format)}</td>
              <td class="num">{fmtDelta(a.relative_change, format)}</td>
              <td>{a.status.replace('_', ' ')}</td>
              <td class="small">{a.assignee ?? '–'}</td>
              <td class="small prose-cell">{a.context_events.map((e) => e.title).join('; ') || '–'}</td>
            </tr>
          ))}
        </DataTable>
      </TableWrap>
      {list.data && anomalies.length === 0 && <p class="muted">Nothing fired with these filters.</p>}
    </div>
  );
}

/** The anomaly's series with its baseline band and the context events around it (the widget's chart). */
function AnomalyChart(props: { a: Anomaly }) {
  const { project, format } = useProject();
  const a = props.a;
  const range = chartRange(a.date, a.window.from);
  const data = useLoad(async () => {
    const [series, events] = await Promise.all([
      ok(
        api.GET('/api/anomalies/series', {
          params: { query: { project_id: project.id, metric: a.metric as 'roas', channel: a.channel, ...range } },
        }),
      ),
      wholeList('events', (cursor) =>
        ok(api.GET('/api/context/events', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    ]);
    return { series, events: events.events };
  }, [a.id]);
  const band = useMemo(
    () => data.data && bandOf(data.data.series.points, data.data.series.rule.threshold),
    [data.data],
  );
  const markers = (data.data?.events ?? [])
    .filter((e) => e.event_date >= range.from && e.event_date <= range.to)
    .map((e) => ({ day: e.event_date, label: e.title }));
  const unit = kpiUnit(a.metric);
  return (
    <section class="card stack" aria-label="Selected anomaly" data-anomaly-id={a.id}>
      <h2>
        {metricLabel(a.metric, a.channel)}, <Day day={a.date} />
      </h2>
      <p class="small">
        {fmtKpi(a.value, unit, project.reporting_currency, format)} against a baseline of{' '}
        {fmtKpi(a.baseline_mean, unit, project.reporting_currency, format)} ±{' '}
        {fmtKpi(a.baseline_stddev, unit, project.reporting_currency, format)} over {a.training_size} days (z{' '}
        {fmtNumber(a.z, format, 1)})
      </p>
      <ErrorBox error={data.error} />
      {data.loading && !data.data && <Loading what="the series" />}
      {band && data.data && (
        <SeriesChart
          days={band.days}
          values={band.values}
          baseline={band.baseline}
          lower={band.lower}
          upper={band.upper}
          highlight={band.fired}
          markers={markers}
          label={metricLabel(a.metric, a.channel)}
          summary={`${metricLabel(a.metric, a.channel)} per day with its trailing baseline and a band of ± ${data.data.series.rule.threshold} σ.`}
        />
      )}
      <TriageControls anomalyId={a.id} />
    </section>
  );
}

function SettingsPanel(props: { editable: boolean }) {
  const { project } = useProject();
  const settings = useLoad(
    () => ok(api.GET('/api/anomalies/settings', { params: { query: { project_id: project.id } } })),
    [project.id],
  );
  const s = settings.data;
  if (settings.error) return <ErrorBox error={settings.error} />;
  if (!s) return <Loading what="settings" />;
  return (
    <div class="stack">
      {props.editable && <SettingsForm s={s} onSaved={settings.reload} />}
      <TableWrap>
        <table>
          <caption>Effective rules per metric</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Enabled</th>
              <th scope="col" class="num">
                Threshold (σ)
              </th>
              <th scope="col">Direction</th>
              <th scope="col" class="num">
                Min. change
              </th>
            </tr>
          </thead>
          <tbody>
            {s.effective.metrics.map((m) => (
              <tr key={m.metric}>
                <td>{m.metric}</td>
                <td>{m.enabled ? 'yes' : 'no'}</td>
                <td class="num">{m.threshold}</td>
                <td>{m.direction}</td>
                <td class="num">{Math.round(m.min_relative_change * 100)} %</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

function SettingsForm(props: { s: Settings; onSaved(): void }) {
  const { project } = useProject();
  const e = props.s.effective;
  const [form, setForm] = useState({
    window_days: String(e.window_days),
    threshold: String(e.threshold),
    direction: e.direction,
    seasonality: e.seasonality,
  });
  // PUT replaces the settings whole: the form's four fields go on top of what is stored, so what
  // only the API sets (per-metric overrides, volume floors, precedents, expected events…) stays.
  // A field is written when it was stored or changed here; one left at its default stays unset and
  // follows the default.
  const body = () => {
    const stored = props.s.settings;
    const edited = {
      window_days: Number(form.window_days),
      threshold: Number(form.threshold),
      direction: form.direction as 'both',
      seasonality: form.seasonality as 'none',
    };
    const next = { ...stored };
    for (const k of Object.keys(edited) as (keyof typeof edited)[])
      if (stored[k] !== undefined || edited[k] !== e[k]) Object.assign(next, { [k]: edited[k] });
    return next;
  };
  const save = useSubmit(
    () => ok(api.PUT('/api/anomalies/settings', { params: { query: { project_id: project.id } }, body: body() })),
    props.onSaved,
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  return (
    <form class="card stack" onSubmit={save.submit} aria-label="Anomaly settings">
      <div class="form-grid">
        <Field label="Baseline window (days)" error={save.fieldError('window_days')}>
          {(a) => <input {...a} type="number" value={form.window_days} onInput={set('window_days')} />}
        </Field>
        <Field label="Threshold (σ)" error={save.fieldError('threshold')}>
          {(a) => <input {...a} type="number" step="0.1" value={form.threshold} onInput={set('threshold')} />}
        </Field>
        <Field label="Direction" error={save.fieldError('direction')}>
          {(a) => (
            <select {...a} value={form.direction} onChange={set('direction')}>
              <option value="both">both</option>
              <option value="spike">spike</option>
              <option value="drop">drop</option>
            </select>
          )}
        </Field>
        <Field label="Seasonality" error={save.fieldError('seasonality')}>
          {(a) => (
            <select {...a} value={form.seasonality} onChange={set('seasonality')}>
              <option value="auto">auto</option>
              <option value="none">none</option>
              <option value="day_of_week">day of week</option>
            </select>
          )}
        </Field>
      </div>
      <ErrorBox error={save.error} />
      <button type="submit" class="action primary" disabled={save.busy}>
        Save settings
      </button>
    </form>
  );
}

export const sections = { anomalies: Anomalies };
