import { Delta } from '../../shared/data-views.js';
import { fmtKpi, type KpiUnit, kpiLabel, pctToRatio, toneOf } from '../../shared/kpi.js';
import { renderMarkdown } from '../../shared/markdown.js';
import { api, ok } from '../api.js';
import { DataTable, ErrorBox, Loading, PageTitle, StatusBadge, useLoad, useProject, TableWrap } from '../ui.js';
import { Day, Instant, metricLabel, useLinks } from './common.js';

interface InsightList {
  insights: {
    date: string;
    narrative_md?: string;
    record: {
      currency: string;
      kpis: { metric: string; unit: string; value: number | null; day_over_day_pct: number | null }[];
    };
  }[];
}
interface DqStatus {
  health: {
    pass_rate: number | null;
    checks_last_7_days: number;
    freshness: { datastream_id: string; name: string; last_date: string | null; lag_days: number | null }[];
    open_failures: { check_id: string; monitor: string; message: string }[];
  };
}

function Overview() {
  const { project, format, can } = useProject();
  const link = useLinks();
  const q = { project_id: project.id };
  const data = useLoad(async () => {
    const canData = can('data.read');
    const [insights, anomalies, dq, runs, proposals] = await Promise.all([
      canData ? ok(api.GET('/api/insights', { params: { query: { ...q, limit: 1 } } })) : undefined,
      canData ? ok(api.GET('/api/anomalies', { params: { query: { ...q, limit: 5 } } })) : undefined,
      canData ? ok(api.GET('/api/dq/status', { params: { query: { ...q, limit: 1 } } })) : undefined,
      canData ? ok(api.GET('/api/flows/runs', { params: { query: { ...q, limit: 5 } } })) : undefined,
      ok(api.GET('/api/proposals', { params: { query: { ...q, status: 'pending', limit: 20 } } })),
    ]);
    return {
      insight: (insights as InsightList | undefined)?.insights[0],
      anomalies,
      dq: dq as DqStatus,
      runs,
      proposals: proposals.proposals,
    };
  }, [project.id]);
  const d = data.data;
  const insight = d?.insight;
  return (
    <>
      <PageTitle sub={<span class="muted">{project.name}</span>}>Overview</PageTitle>
      <ErrorBox error={data.error} />
      {data.loading && !d && <Loading what="the overview" />}
      {d && (
        <div class="stack overview" data-loaded="true">
          <section aria-labelledby="ov-insight">
            <h2 id="ov-insight">
              Today's insight{' '}
              {insight && (
                <span class="muted small">
                  <Day day={insight.date} />
                </span>
              )}
            </h2>
            {!insight && <p class="muted">No insight has been composed yet.</p>}
            {insight && (
              <>
                <div class="kpis">
                  {insight.record.kpis.map((k) => (
                    <div class="card kpi" key={k.metric}>
                      <div class="muted small">{kpiLabel(k.metric)}</div>
                      <div class="value">{fmtKpi(k.value, k.unit as KpiUnit, insight.record.currency, format)}</div>
                      <Delta
                        ratio={pctToRatio(k.day_over_day_pct)}
                        tone={toneOf(k.metric, k.day_over_day_pct)}
                        format={format}
                        suffix="vs day before"
                      />
                    </div>
                  ))}
                </div>
                {insight.narrative_md && (
                  <div
                    class="markdown card"
                    dangerouslySetInnerHTML={{ __html: renderMarkdown(insight.narrative_md) }}
                  />
                )}
                <a href={link('insights')}>All insights</a>
              </>
            )}
          </section>
          <section aria-labelledby="ov-pending">
            <h2 id="ov-pending">Pending work</h2>
            <PendingWork
              proposals={d.proposals.map((p) => ({
                id: p.id,
                label: `${p.kind === 'skill' ? 'Skill' : 'Sheet'} ${p.name ?? p.topic_id}`,
              }))}
              failures={d.dq?.health.open_failures ?? []}
              failedRuns={(d.runs?.runs ?? []).filter((r) => r.status === 'failed').map((r) => r.id)}
            />
          </section>
          <section aria-labelledby="ov-anomalies">
            <h2 id="ov-anomalies">Latest anomalies</h2>
            {d.anomalies?.anomalies.length === 0 && <p class="muted">Nothing fired in the last 30 days.</p>}
            <ul class="plain stack">
              {d.anomalies?.anomalies.map((a) => (
                <li key={`${a.date}|${a.metric}|${a.channel}`} class="row">
                  <span class={`badge ${a.direction === 'drop' ? 'danger' : 'warning'}`}>{a.direction ?? 'fired'}</span>
                  <a
                    href={link(`anomalies?date=${a.date}&metric=${a.metric}&channel=${encodeURIComponent(a.channel)}`)}
                  >
                    {metricLabel(a.metric, a.channel)}
                  </a>
                  <span class="muted small">
                    <Day day={a.date} />
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="ov-health">
            <h2 id="ov-health">Datastream health</h2>
            {d.dq && (
              <p>
                Checks passed in the last 7 days:{' '}
                <strong>{d.dq.health.pass_rate === null ? '–' : `${Math.round(d.dq.health.pass_rate * 100)} %`}</strong>{' '}
                of {d.dq.health.checks_last_7_days} · open failures: {d.dq.health.open_failures.length}
              </p>
            )}
            <TableWrap>
              <DataTable
                caption={'Freshness per datastream'}
                columns={['Datastream', 'Latest day', { num: 'Lag (days)' }]}
              >
                {d.dq?.health.freshness.map((f) => (
                  <tr key={f.datastream_id}>
                    <td>{f.name}</td>
                    <td>{f.last_date ? <Day day={f.last_date} /> : '–'}</td>
                    <td class="num">{f.lag_days ?? '–'}</td>
                  </tr>
                ))}
              </DataTable>
            </TableWrap>
            <h3>Latest runs</h3>
            <ul class="plain stack">
              {d.runs?.runs.map((r) => (
                <li key={r.id} class="row small">
                  <StatusBadge status={r.status} /> <span class="mono">{r.id}</span> <Instant at={r.queued_at} />
                  <span class="muted">{r.rows_written} rows written</span>
                </li>
              ))}
            </ul>
            <a href={link('runs')}>All runs</a>
          </section>
        </div>
      )}
    </>
  );
}

/**
 * What needs a person: agents' proposals waiting for review, open data-quality failures and failed
 * runs, each a link to where it is dealt with.
 */
function PendingWork(props: {
  proposals: { id: string; label: string }[];
  failures: { check_id: string; monitor: string; message: string }[];
  failedRuns: string[];
}) {
  const link = useLinks();
  if (props.proposals.length === 0 && props.failures.length === 0 && props.failedRuns.length === 0)
    return (
      <p class="muted">
        Nothing waits: no proposal to review, no open data-quality failure, no failed run among the latest.
      </p>
    );
  return (
    <ul>
      {props.proposals.map((p) => (
        <li key={p.id}>
          <a href={link(`proposals/${p.id}`)}>{p.label}</a>: an agent's proposed change waits for review{' '}
          <span class="muted small mono">({p.id})</span>
        </li>
      ))}
      {props.failures.map((f) => (
        <li key={f.check_id}>
          <a href={link('data-quality')}>{f.monitor}</a>: {f.message}
        </li>
      ))}
      {props.failedRuns.map((id) => (
        <li key={id}>
          <a href={link('runs')}>Run {id}</a> failed
        </li>
      ))}
    </ul>
  );
}

export const sections = { overview: Overview };
