import { useState } from 'preact/hooks';
import type { Answer } from '../../shared/answer.js';
import { Delta, ErrorNotice, messageOf, ScrollRegion } from '../../shared/data-views.js';
import { fmtDay, fmtInstant, fmtNumber } from '../../shared/format.js';
import { channelName, fmtKpi, type KpiUnit, kpiLabel, kpiUnit, pctToRatio, toneOf } from '../../shared/kpi.js';
import { renderMarkdown } from '../../shared/markdown.js';
import { startView, type ViewProps } from '../../shared/view.js';

interface KpiDelta {
  metric: string;
  unit: string;
  value: number | null;
  previous_day: number | null;
  day_over_day_pct: number | null;
  same_weekday_last_week: number | null;
  week_over_week_pct: number | null;
}
interface InsightRecord {
  date: string;
  weekday: string;
  currency: string;
  kpis: KpiDelta[];
  anomalies: {
    metric: string;
    channel: string;
    direction: string | null;
    value: number;
    baseline_mean: number | null;
    z: number | null;
    relative_change: number | null;
  }[];
  context_events: { id: string; event_type: string; title: string; event_date: string; active_until: string }[];
}
interface InsightData {
  date: string;
  version: number;
  composed_at: string;
  narrative_md: string;
  record: InsightRecord;
}

const shiftDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function InsightView({ answer, host }: ViewProps<InsightData>) {
  const [shown, setShown] = useState<Answer<InsightData>>(answer);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const d = shown.data;
  const r = d.record;
  const f = host.format;
  const go = async (date: string) => {
    setBusy(true);
    setError(null);
    try {
      setShown(await host.call<InsightData>('get_daily_insight', { project_id: answer.projectId, date }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <article class="stack" aria-label={`Daily insight ${d.date}`} aria-busy={busy}>
      <div class="spread">
        <h1>
          Daily insight · {r.weekday} {fmtDay(d.date, f)}
        </h1>
        <div class="row">
          <button type="button" class="action" onClick={() => go(shiftDay(d.date, -1))} disabled={busy}>
            ← Previous day
          </button>
          <button
            type="button"
            class="action"
            onClick={() => go(shiftDay(d.date, 1))}
            disabled={busy || d.date === answer.data.date}
          >
            Next day →
          </button>
        </div>
      </div>
      <p class="muted small">
        Version {d.version}, composed {fmtInstant(d.composed_at, f)} · {r.currency}
      </p>
      <ErrorNotice error={error} />
      <ScrollRegion label="KPIs of the day">
        <table>
          <caption class="visually-hidden">
            KPIs of the day against the day before and the same weekday last week
          </caption>
          <thead>
            <tr>
              <th scope="col">KPI</th>
              <th scope="col" class="num">
                Value
              </th>
              <th scope="col" class="num">
                vs day before
              </th>
              <th scope="col" class="num">
                vs last {r.weekday}
              </th>
            </tr>
          </thead>
          <tbody>
            {r.kpis.map((k) => (
              <tr key={k.metric}>
                <th scope="row">{kpiLabel(k.metric)}</th>
                <td class="num">{fmtKpi(k.value, k.unit as KpiUnit, r.currency, f)}</td>
                <td class="num">
                  <Delta
                    ratio={pctToRatio(k.day_over_day_pct)}
                    tone={toneOf(k.metric, k.day_over_day_pct)}
                    format={f}
                  />
                </td>
                <td class="num">
                  <Delta
                    ratio={pctToRatio(k.week_over_week_pct)}
                    tone={toneOf(k.metric, k.week_over_week_pct)}
                    format={f}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <section>
        <h2>Anomalies that fired ({r.anomalies.length})</h2>
        {r.anomalies.length === 0 ? (
          <p class="muted small">None: every watched metric stayed within its baseline band.</p>
        ) : (
          <ul class="plain stack" aria-label="Fired anomalies">
            {r.anomalies.map((a) => {
              const tone = toneOf(a.metric, a.relative_change);
              return (
                <li key={`${a.metric}|${a.channel}`} class="row small">
                  <span class={`badge ${tone === 'bad' ? 'danger' : tone === 'good' ? 'success' : ''}`}>
                    {a.direction ?? 'change'}
                  </span>
                  <strong>{kpiLabel(a.metric)}</strong> on {channelName(a.channel)}:{' '}
                  {fmtKpi(a.value, kpiUnit(a.metric), r.currency, f)} vs{' '}
                  {fmtKpi(a.baseline_mean, kpiUnit(a.metric), r.currency, f)} (z {fmtNumber(a.z, f, 1)})
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section>
        <h2>Context events active ({r.context_events.length})</h2>
        {r.context_events.length === 0 ? (
          <p class="muted small">No context event was active that day.</p>
        ) : (
          <ul class="plain stack" aria-label="Active context events">
            {r.context_events.map((e) => (
              <li key={e.id} class="small">
                <span class="badge">{e.event_type}</span> {e.title}{' '}
                <span class="muted">
                  ({fmtDay(e.event_date, f)} – {fmtDay(e.active_until, f)})
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <details>
        <summary>Narrative</summary>
        <div class="markdown small" dangerouslySetInnerHTML={{ __html: renderMarkdown(d.narrative_md) }} />
      </details>
    </article>
  );
}

startView('insight', 'get_daily_insight', InsightView);
