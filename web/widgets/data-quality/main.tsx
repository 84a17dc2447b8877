import { useState } from 'preact/hooks';
import { StatusBadge, ScrollRegion } from '../../shared/data-views.js';
import { fmtDay, fmtInstant, fmtNumber } from '../../shared/format.js';
import { startView, type ViewProps } from '../../shared/view.js';

interface Check {
  check_id: string;
  monitor: string;
  datastream_id: string | null;
  dataset: string;
  status: string;
  observed: number | null;
  threshold: number | null;
  finished_at: string;
  message: string;
}
interface DqData {
  health: {
    pass_rate: number | null;
    checks_last_7_days: number;
    freshness: { datastream_id: string; name: string; last_date: string | null; lag_days: number | null }[];
    open_failures: Check[];
  };
  ledger: Check[];
}

const STATUSES = ['pass', 'warn', 'fail', 'error'];

function DataQualityView({ answer, host }: ViewProps<DqData>) {
  const { health, ledger } = answer.data;
  const f = host.format;
  const [status, setStatus] = useState('all');
  const rows = status === 'all' ? ledger : ledger.filter((c) => c.status === status);
  const passRate =
    health.pass_rate === null
      ? 'n/a'
      : new Intl.NumberFormat(f.locale, { style: 'percent', maximumFractionDigits: 1 }).format(health.pass_rate);
  return (
    <div class="stack">
      <h1>Data quality</h1>
      <section class="grid" aria-label="Health">
        <div class="card">
          <div class="muted small">Pass rate, 7 days</div>
          <div class="kpi-value">{passRate}</div>
          <div class="muted small">{fmtNumber(health.checks_last_7_days, f)} checks</div>
        </div>
        <div class="card">
          <div class="muted small">Open failures</div>
          <div class={`kpi-value ${health.open_failures.length ? 'tone-bad' : 'tone-good'}`}>
            {fmtNumber(health.open_failures.length, f)}
          </div>
        </div>
        {health.freshness.map((s) => (
          <div class="card" key={s.datastream_id}>
            <div class="muted small">Freshness · {s.name}</div>
            <div class="kpi-value">
              {s.lag_days === null ? 'no data' : `${fmtNumber(s.lag_days, f)} day${s.lag_days === 1 ? '' : 's'} behind`}
            </div>
            <div class="muted small">{s.last_date ? `newest ${fmtDay(s.last_date, f)}` : 'never loaded'}</div>
          </div>
        ))}
      </section>
      {health.open_failures.length > 0 && (
        <section>
          <h2>Open failures</h2>
          <ul class="plain stack" aria-label="Open failures">
            {health.open_failures.map((c) => (
              <li key={c.check_id} class="row small">
                <StatusBadge status={c.status} /> <strong>{c.monitor}</strong>
                <span class="muted">{c.datastream_id ?? 'project'}</span> {c.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section class="stack">
        <div class="spread">
          <h2>Ledger</h2>
          <label class="row small" for="dq-status">
            <span class="muted">Status</span>
            <select id="dq-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
              <option value="all">all ({ledger.length})</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s} ({ledger.filter((c) => c.status === s).length})
                </option>
              ))}
            </select>
          </label>
        </div>
        {rows.length === 0 ? (
          <p class="muted small">No check with this status in the newest {ledger.length}.</p>
        ) : (
          <ScrollRegion label="Newest data-quality checks">
            <table>
              <caption class="visually-hidden">Newest data-quality checks</caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Monitor</th>
                  <th scope="col">Dataset</th>
                  <th scope="col" class="num">
                    Observed
                  </th>
                  <th scope="col" class="num">
                    Threshold
                  </th>
                  <th scope="col">Finished</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={c.check_id}>
                    <td>
                      <StatusBadge status={c.status} />
                    </td>
                    <td>{c.monitor}</td>
                    <td class="mono small">{c.dataset}</td>
                    <td class="num">{fmtNumber(c.observed, f, 4)}</td>
                    <td class="num">{fmtNumber(c.threshold, f, 4)}</td>
                    <td class="small">{fmtInstant(c.finished_at, f)}</td>
                    <td class="small">{c.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </div>
  );
}

startView('data-quality', 'get_data_quality', DataQualityView);
