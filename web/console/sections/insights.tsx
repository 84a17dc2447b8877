import { useState } from 'preact/hooks';
import { Delta } from '../../shared/data-views.js';
import { fmtKpi, type KpiUnit, kpiLabel, pctToRatio, toneOf } from '../../shared/kpi.js';
import { api, ok } from '../api.js';
import { route } from '../router.js';
import { useStore } from '../store.js';
import { DataTable, ErrorBox, Field, Loading, PageTitle, StatusBadge, useLoad, useProject, TableWrap } from '../ui.js';
import { Day, Instant, metricLabel, todayIn, useLinks } from './common.js';
import { Markdown } from './editor.js';

interface Insight {
  date: string;
  version: number;
  composed_at: string;
  narrative_md?: string;
  record: {
    currency: string;
    weekday?: string;
    kpis: {
      metric: string;
      unit: string;
      value: number | null;
      day_over_day_pct: number | null;
      week_over_week_pct: number | null;
    }[];
    anomalies?: {
      id: string;
      metric: string;
      channel: string;
      direction: string | null;
      first_date: string;
      last_date: string;
      relative_change: number | null;
    }[];
  };
}

/** The daily insight of a chosen day (default today in the project's time zone). */
function Insights() {
  const { project, format } = useProject();
  const link = useLinks();
  // A link names its day (an alert's digest, a colleague); without one, today in the project's zone.
  const r = useStore(route);
  const [date, setDate] = useState(r.query.get('date') ?? todayIn(project.timezone));
  const data = useLoad(
    async () =>
      (await ok(api.GET('/api/insights', { params: { query: { project_id: project.id, date, limit: 1 } } }))) as {
        insights: Insight[];
      },
    [project.id, date],
  );
  const insight = data.data?.insights[0];
  return (
    <>
      <PageTitle>Insights</PageTitle>
      <Field label="Day">
        {(a) => <input {...a} type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} />}
      </Field>
      <ErrorBox error={data.error} />
      {data.loading && !data.data && <Loading what="the insight" />}
      {data.data && !insight && <p class="muted">No insight for this day.</p>}
      {insight && (
        <article class="stack" data-loaded="true">
          <p class="muted small">
            <Day day={insight.date} /> · version {insight.version}, composed <Instant at={insight.composed_at} />
          </p>
          <TableWrap>
            <DataTable
              caption={'KPIs of the day'}
              columns={['KPI', { num: 'Value' }, { num: 'vs day before' }, { num: 'vs a week before' }]}
            >
              {insight.record.kpis.map((k) => (
                <tr key={k.metric}>
                  <th scope="row">{kpiLabel(k.metric)}</th>
                  <td class="num">{fmtKpi(k.value, k.unit as KpiUnit, insight.record.currency, format)}</td>
                  <td class="num">
                    <Delta
                      ratio={pctToRatio(k.day_over_day_pct)}
                      tone={toneOf(k.metric, k.day_over_day_pct)}
                      format={format}
                    />
                  </td>
                  <td class="num">
                    <Delta
                      ratio={pctToRatio(k.week_over_week_pct)}
                      tone={toneOf(k.metric, k.week_over_week_pct)}
                      format={format}
                    />
                  </td>
                </tr>
              ))}
            </DataTable>
          </TableWrap>
          {(insight.record.anomalies?.length ?? 0) > 0 && (
            <section class="card stack" aria-label="Anomalies of the day">
              <h2>Anomalies of the day</h2>
              <ul>
                {insight.record.anomalies!.map((a) => (
                  <li key={a.id}>
                    <a href={link(`anomalies?anomaly=${a.id}`)}>{metricLabel(a.metric, a.channel)}</a>:{' '}
                    {a.direction ?? 'change'}{' '}
                    <Delta ratio={a.relative_change} tone={toneOf(a.metric, a.relative_change)} format={format} />
                    {a.first_date !== a.last_date && (
                      <span class="muted small">
                        {' '}
                        (<Day day={a.first_date} /> – <Day day={a.last_date} />)
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {insight.narrative_md && (
            <section class="card">
              <Markdown source={insight.narrative_md} />
            </section>
          )}
        </article>
      )}
    </>
  );
}

interface Dq {
  health: {
    pass_rate: number | null;
    checks_last_7_days: number;
    freshness: { datastream_id: string; name: string; last_date: string | null; lag_days: number | null }[];
    open_failures: { check_id: string; monitor: string; message: string }[];
  };
  ledger: {
    check_id: string;
    monitor: string;
    dataset: string;
    status: string;
    observed: number | null;
    threshold: number | null;
    finished_at: string | null;
    message: string;
  }[];
}

/** The data-quality ledger and health: pass rate, freshness per datastream, open failures. */
function DataQuality() {
  const { project } = useProject();
  const [status, setStatus] = useState('');
  const data = useLoad(
    async () =>
      (await ok(
        api.GET('/api/dq/status', {
          params: { query: { project_id: project.id, limit: 100, ...(status ? { status: status as 'fail' } : {}) } },
        }),
      )) as Dq,
    [project.id, status],
  );
  const d = data.data;
  return (
    <>
      <PageTitle>Data quality</PageTitle>
      <ErrorBox error={data.error} />
      {data.loading && !d && <Loading what="the data-quality ledger" />}
      {d && (
        <div class="stack" data-loaded="true">
          <p>
            Pass rate over the last 7 days:{' '}
            <strong>{d.health.pass_rate === null ? '–' : `${Math.round(d.health.pass_rate * 100)} %`}</strong> of{' '}
            {d.health.checks_last_7_days} checks · open failures: {d.health.open_failures.length}
          </p>
          <ul>
            {d.health.freshness.map((f) => (
              <li key={f.datastream_id}>
                {f.name}: latest day {f.last_date ? <Day day={f.last_date} /> : '–'}, lag {f.lag_days ?? '–'} days
              </li>
            ))}
          </ul>
          <Field label="Status">
            {(a) => (
              <select {...a} value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
                <option value="">All</option>
                <option value="pass">pass</option>
                <option value="warn">warn</option>
                <option value="fail">fail</option>
              </select>
            )}
          </Field>
          <TableWrap>
            <DataTable
              caption={'Data-quality ledger'}
              columns={['Status', 'Monitor', 'Dataset', 'Finished', 'Message']}
            >
              {d.ledger.map((c) => (
                <tr key={c.check_id}>
                  <td>
                    <StatusBadge status={c.status} />
                  </td>
                  <td>{c.monitor}</td>
                  <td class="mono small">{c.dataset}</td>
                  <td>
                    <Instant at={c.finished_at} />
                  </td>
                  <td class="small prose-cell">{c.message}</td>
                </tr>
              ))}
            </DataTable>
          </TableWrap>
        </div>
      )}
    </>
  );
}

export const sections = { insights: Insights, 'data-quality': DataQuality };
