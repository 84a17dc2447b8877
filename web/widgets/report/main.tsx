import { useMemo, useState } from 'preact/hooks';
import { SeriesChart } from '../../shared/chart.js';
import { type FormatContext, fmtDay, fmtNumber } from '../../shared/format.js';
import { channelName, fmtKpi, KPI_META, kpiLabel } from '../../shared/kpi.js';
import { chartKindOf } from '../../shared/series.js';
import { startView, type ViewProps } from '../../shared/view.js';
import '../../shared/data.css';

type Row = Record<string, unknown>;
interface ReportData {
  report: { name: string; description: string | null; dataset: string; metrics: string[]; dimensions: string[] };
  range: { from: string; to: string };
  columns: string[];
  rows: Row[];
  row_count: number;
  truncated: boolean;
  /** The project's reporting currency (older services omit it; a currency column wins). */
  currency?: string;
}

const BAR_ROWS = 15;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function cell(column: string, value: unknown, row: Row, projectCurrency: string | null, f: FormatContext): string {
  if (value === null || value === undefined) return '–';
  if (column === 'date' && typeof value === 'string') return fmtDay(value, f);
  if (column === 'channel' && typeof value === 'string') return channelName(value);
  const meta = KPI_META[column];
  if (meta && typeof value === 'number') {
    const currency = typeof row.currency === 'string' ? row.currency : projectCurrency;
    return fmtKpi(value, meta.unit, currency, f);
  }
  if (typeof value === 'number') return fmtNumber(value, f, 4);
  return String(value);
}

function ReportView({ answer, host }: ViewProps<ReportData>) {
  const d = answer.data;
  const f = host.format;
  const r = d.report;
  const currency = d.currency ?? null;
  const kind = chartKindOf(r.dimensions);
  const metrics = r.metrics.filter((m) => d.columns.includes(m));
  const [metric, setMetric] = useState(metrics[0] ?? '');
  const groupDims = r.dimensions.filter((dim) => dim !== 'date');
  const groupOf = (row: Row) => groupDims.map((dim) => String(row[dim] ?? '–')).join(' · ');
  const groups = useMemo(() => [...new Set(d.rows.map(groupOf))].sort(), [d.rows]);
  const [group, setGroup] = useState(groups[0] ?? '');
  const line = useMemo(() => {
    if (kind !== 'line') return null;
    const rows = d.rows
      .filter((row) => groupDims.length === 0 || groupOf(row) === group)
      .filter((row) => typeof row.date === 'string')
      .sort((a, b) => String(a.date).localeCompare(String(b.date)));
    return { days: rows.map((row) => String(row.date)), values: rows.map((row) => num(row[metric])) };
  }, [kind, metric, group, d.rows]);
  const bars = useMemo(() => {
    if (kind !== 'bars') return null;
    const rows = d.rows
      .filter((row) => num(row[metric]) !== null)
      .sort((a, b) => (num(b[metric]) ?? 0) - (num(a[metric]) ?? 0))
      .slice(0, BAR_ROWS);
    const max = Math.max(0, ...rows.map((row) => num(row[metric]) ?? 0));
    return { rows, max };
  }, [kind, metric, d.rows]);
  const metricLabel = kpiLabel(metric);
  return (
    <div class="stack">
      <div class="spread">
        <h1>{r.name}</h1>
        <span class="muted small">
          {r.dataset} · {fmtDay(d.range.from, f)} – {fmtDay(d.range.to, f)} · {fmtNumber(d.row_count, f)} row
          {d.row_count === 1 ? '' : 's'}
          {d.truncated ? ' (truncated)' : ''}
        </span>
      </div>
      {r.description && <p class="muted small">{r.description}</p>}
      {d.rows.length === 0 ? (
        <p class="notice">The report has no rows for this range.</p>
      ) : (
        <section class="card stack" aria-label="Chart">
          <div class="row small">
            <label class="row" for="report-metric">
              <span class="muted">Metric</span>
              <select id="report-metric" value={metric} onChange={(e) => setMetric(e.currentTarget.value)}>
                {metrics.map((m) => (
                  <option key={m} value={m}>
                    {kpiLabel(m)}
                  </option>
                ))}
              </select>
            </label>
            {kind === 'line' && groupDims.length > 0 && (
              <label class="row" for="report-group">
                <span class="muted">{groupDims.join(' · ')}</span>
                <select id="report-group" value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
                  {groups.map((g) => (
                    <option key={g} value={g}>
                      {channelName(g)}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          {line && (
            <SeriesChart
              days={line.days}
              values={line.values}
              label={metricLabel}
              summary={`${metricLabel} per day${groupDims.length ? ` for ${group}` : ''}, ${fmtDay(d.range.from, f)} to ${fmtDay(d.range.to, f)}.`}
            />
          )}
          {bars && (
            <ul class="plain stack" aria-label={`${metricLabel} by ${r.dimensions.join(', ')}`}>
              {bars.rows.map((row) => {
                const v = num(row[metric]) ?? 0;
                const label = groupOf(row);
                const shown = cell(metric, v, row, currency, f);
                return (
                  <li key={label} class="bar-row">
                    <span>{channelName(label)}</span>
                    <span class="bar-track" aria-hidden="true">
                      <span
                        class="bar-fill"
                        style={{ width: `${bars.max > 0 ? (Math.max(0, v) / bars.max) * 100 : 0}%` }}
                      />
                    </span>
                    <span class="num">{shown}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
      {d.rows.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard
        <section class="scroll list-box" tabIndex={0} aria-label="Report rows">
          <table>
            <caption class="visually-hidden">Report rows</caption>
            <thead>
              <tr>
                {d.columns.map((c) => (
                  <th key={c} scope="col" class={KPI_META[c] || r.metrics.includes(c) ? 'num' : ''}>
                    {KPI_META[c] ? kpiLabel(c) : c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {d.rows.map((row, i) => (
                <tr key={i}>
                  {d.columns.map((c) => (
                    <td key={c} class={KPI_META[c] || r.metrics.includes(c) ? 'num' : ''}>
                      {cell(c, row[c], row, currency, f)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

startView('report', 'run_report', ReportView);
