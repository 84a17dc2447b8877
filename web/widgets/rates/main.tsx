import { useMemo, useState } from 'preact/hooks';
import { fmtDay, fmtNumber } from '../../shared/format.js';
import { startView, type ViewProps } from '../../shared/view.js';
import '../../shared/data.css';
import { ScrollRegion } from '../../shared/data-views.js';

interface RatesData {
  base: string;
  rate_date: string;
  requested_date: string;
  source: string;
  stale: boolean;
  rates: Record<string, number>;
}

/** A currency's name in the host's language (the codes alone are cryptic); the code when unknown. */
function currencyNames(locale: string): (code: string) => string {
  try {
    const names = new Intl.DisplayNames([locale], { type: 'currency' });
    return (code) => names.of(code) ?? code;
  } catch {
    return (code) => code;
  }
}

function RatesView({ answer, host }: ViewProps<RatesData>) {
  const d = answer.data;
  const f = host.format;
  const [filter, setFilter] = useState('');
  const nameOf = useMemo(() => currencyNames(f.locale), [f.locale]);
  const all = Object.entries(d.rates).sort(([a], [b]) => a.localeCompare(b));
  const q = filter.trim().toLowerCase();
  const rows = q ? all.filter(([code]) => `${code} ${nameOf(code)}`.toLowerCase().includes(q)) : all;
  return (
    <div class="stack">
      <div class="spread">
        <h1>Exchange rates · 1 {d.base}</h1>
        <span class="muted small">
          ECB, published {fmtDay(d.rate_date, f)}
          {d.rate_date !== d.requested_date ? ` (last publication on or before ${fmtDay(d.requested_date, f)})` : ''}
        </span>
      </div>
      {d.stale && (
        <p class="notice error" role="alert">
          Stale: the newest rate is more than 14 days older than {fmtDay(d.requested_date, f)}; treat conversions as
          approximate.
        </p>
      )}
      <label class="row small" for="rate-filter">
        <span class="muted">Find a currency</span>
        <input
          id="rate-filter"
          type="search"
          value={filter}
          placeholder="code or name"
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
      </label>
      <ScrollRegion label="Exchange rates">
        <table>
          <caption class="visually-hidden">
            Units of each currency per 1 {d.base} on {d.rate_date}
          </caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Currency</th>
              <th scope="col" class="num">
                Per 1 {d.base}
              </th>
              <th scope="col" class="num">
                1 unit in {d.base}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([code, rate]) => (
              <tr key={code}>
                <th scope="row" class="mono">
                  {code}
                </th>
                <td>{nameOf(code)}</td>
                <td class="num">{fmtNumber(rate, f, 4)}</td>
                <td class="num">{fmtNumber(rate === 0 ? null : 1 / rate, f, 6)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {rows.length === 0 && <p class="muted small">No currency matches “{filter}”.</p>}
    </div>
  );
}

startView('rates', 'get_exchange_rates', RatesView);
