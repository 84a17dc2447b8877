import { useMemo, useState } from 'preact/hooks';
import { SeriesChart, Sparkline } from '../../shared/chart.js';
import { Delta, ErrorNotice, useToolData } from '../../shared/data-views.js';
import { fmtDay } from '../../shared/format.js';
import { channelName, fmtKpi, kpiLabel, type KpiUnit, pctToRatio, toneOf } from '../../shared/kpi.js';
import { startView, type ViewProps } from '../../shared/view.js';

interface Kpi {
  metric: string;
  unit: string;
  current: number | null;
  previous: number | null;
  delta_abs: number | null;
  delta_pct: number | null;
}
interface KpisData {
  period: { from: string; to: string; days: number };
  previous_period: { from: string; to: string };
  channel: string | null;
  currency: string;
  days_with_data: number;
  kpis: Kpi[];
  daily: Record<string, unknown>[];
}
interface SeriesData {
  currency: string;
  days: Record<string, unknown>[];
}

const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function KpisView({ answer, host }: ViewProps<KpisData>) {
  const d = answer.data;
  const f = host.format;
  const [selected, setSelected] = useState<string | null>(null);
  // The cards show the period's own days at once; the series of both periods replaces them when it comes.
  const series = useToolData<SeriesData>(host, 'get_kpi_series', {
    project_id: answer.projectId,
    from: d.previous_period.from,
    to: d.period.to,
    ...(d.channel ? { channel: d.channel } : {}),
  });
  const days = series.data?.days ?? d.daily;
  const span = series.data ? `${fmtDay(d.previous_period.from, f)} to ${fmtDay(d.period.to, f)}` : 'this period';
  const valuesOf = (metric: string) => days.map((r) => numOrNull(r[metric]));
  const chosen = d.kpis.find((k) => k.metric === selected);
  const chart = useMemo(
    () =>
      chosen && {
        days: days.map((r) => String(r.date)),
        values: valuesOf(chosen.metric),
      },
    [chosen?.metric, days],
  );
  return (
    <div class="stack">
      <div class="spread">
        <h1>KPIs{d.channel ? ` · ${channelName(d.channel)}` : ''}</h1>
        <span class="muted small">
          {fmtDay(d.period.from, f)} – {fmtDay(d.period.to, f)} vs {fmtDay(d.previous_period.from, f)} –{' '}
          {fmtDay(d.previous_period.to, f)} · {d.currency}
        </span>
      </div>
      {d.days_with_data === 0 && <p class="notice">No KPI data in this period yet: has a datastream run?</p>}
      <ErrorNotice error={series.error} />
      <ul class="plain grid" aria-label="KPI cards">
        {d.kpis.map((k) => {
          const unit = k.unit as KpiUnit;
          const label = kpiLabel(k.metric);
          return (
            <li key={k.metric}>
              <button
                type="button"
                class="card kpi-card"
                aria-pressed={selected === k.metric}
                title={`Show ${label} per day`}
                onClick={() => setSelected(selected === k.metric ? null : k.metric)}
              >
                <span class="muted small">{label}</span>
                <span class="kpi-value">{fmtKpi(k.current, unit, d.currency, f)}</span>
                <span class="row">
                  <Delta ratio={pctToRatio(k.delta_pct)} tone={toneOf(k.metric, k.delta_pct)} format={f} />
                  <span class="muted small">was {fmtKpi(k.previous, unit, d.currency, f)}</span>
                </span>
                <Sparkline values={valuesOf(k.metric)} label={`${label} per day, ${span}`} />
              </button>
            </li>
          );
        })}
      </ul>
      {chosen && chart && (
        <section class="card" aria-label={`${kpiLabel(chosen.metric)} per day`}>
          <h2>{kpiLabel(chosen.metric)} per day</h2>
          <SeriesChart
            days={chart.days}
            values={chart.values}
            label={kpiLabel(chosen.metric)}
            markers={[{ day: d.period.from, label: 'period starts' }]}
            summary={`${kpiLabel(chosen.metric)} per day from ${fmtDay(chart.days[0] ?? d.period.from, f)} to ${fmtDay(d.period.to, f)}; the current period starts on ${fmtDay(d.period.from, f)}.`}
          />
        </section>
      )}
    </div>
  );
}

startView('kpis', 'get_kpis', KpisView);
