import { describe, expect, it } from 'vitest';
import { fmtKpi, KPI_META, pctToRatio, toneOf } from '../../web/shared/kpi.js';
import { bandOf, chartKindOf, chartRange, isSettled, MAX_POLLS, pollDelayMs } from '../../web/shared/series.js';
import { badgeRows, numberMarkers, placeBadges } from '../../web/shared/chart-markers.js';
import { KPI_LINES } from '../../src/modules/insights/index.js';
import { METRICS } from '../../src/modules/anomalies/index.js';

const en = { locale: 'en-US' };

describe('KPI logic of the data views (web/shared/kpi.ts)', () => {
  it('knows every KPI the service answers, with the unit the service gives it', () => {
    for (const line of KPI_LINES) expect(KPI_META[line.metric]?.unit, line.metric).toBe(line.unit);
    for (const metric of METRICS) expect(KPI_META[metric], metric).toBeDefined();
  });

  it('colours a change by whether up is good for that KPI', () => {
    expect(toneOf('cpa', 12)).toBe('bad');
    expect(toneOf('cpa', -3)).toBe('good');
    expect(toneOf('roas', 5)).toBe('good');
    expect(toneOf('revenue', -0.5)).toBe('bad');
    expect(toneOf('cvr', 0.1)).toBe('good');
    // Spend is a decision, not a result: neither colour.
    expect(toneOf('spend', 40)).toBe('neutral');
    expect(toneOf('roas', 0)).toBe('neutral');
    expect(toneOf('roas', null)).toBe('neutral');
    expect(toneOf('unknown_metric', 5)).toBe('neutral');
  });

  it('formats each unit: money in the currency, ratios with two decimals, rates as percent', () => {
    expect(fmtKpi(1234.5, 'money', 'USD', en)).toBe('$1,234.50');
    expect(fmtKpi(3.2, 'ratio', 'USD', en)).toBe('3.20');
    expect(fmtKpi(0.0345, 'percent', 'USD', en)).toBe('3.45%');
    expect(fmtKpi(1200, 'count', 'USD', en)).toBe('1,200');
    expect(fmtKpi(null, 'money', 'USD', en)).toBe('–');
    expect(pctToRatio(12.5)).toBe(0.125);
    expect(pctToRatio(null)).toBeNull();
  });
});

describe('chart and polling logic of the data views (web/shared/series.ts)', () => {
  it('bands are mean ± threshold × σ; no baseline, no band; a flat baseline collapses onto the mean', () => {
    const band = bandOf(
      [
        { date: '2026-01-01', value: 10, baseline_mean: null, baseline_stddev: null, fired: false },
        { date: '2026-01-02', value: 11, baseline_mean: 10, baseline_stddev: 2, fired: false },
        { date: '2026-01-03', value: 30, baseline_mean: 10.5, baseline_stddev: 0, fired: true },
      ],
      3,
    );
    expect(band.days).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(band.values).toEqual([10, 11, 30]);
    expect(band.baseline).toEqual([null, 10, 10.5]);
    expect(band.lower).toEqual([null, 4, 10.5]);
    expect(band.upper).toEqual([null, 16, 10.5]);
    expect(band.fired).toEqual(['2026-01-03']);
  });

  it('charts an anomaly over its whole baseline window and a week after', () => {
    expect(chartRange('2026-03-10', '2026-02-10')).toEqual({ from: '2026-02-10', to: '2026-03-17' });
    expect(chartRange('2026-03-10', '2026-03-12')).toEqual({ from: '2026-03-10', to: '2026-03-17' });
  });

  it('draws a line over a date dimension and bars otherwise', () => {
    expect(chartKindOf(['date'])).toBe('line');
    expect(chartKindOf(['channel', 'date'])).toBe('line');
    expect(chartKindOf(['channel'])).toBe('bars');
    expect(chartKindOf([])).toBe('bars');
  });

  it('a run settles when it succeeds or fails for good; polls back off and stay bounded', () => {
    expect(isSettled({ status: 'succeeded', retries_exhausted: false })).toBe(true);
    expect(isSettled({ status: 'failed', retries_exhausted: true })).toBe(true);
    expect(isSettled({ status: 'failed', retries_exhausted: false })).toBe(false);
    expect(isSettled({ status: 'running', retries_exhausted: false })).toBe(false);
    expect(isSettled({ status: 'queued', retries_exhausted: false })).toBe(false);
    const delays = Array.from({ length: MAX_POLLS }, (_, i) => pollDelayMs(i));
    expect(delays[0]).toBe(500);
    for (let i = 1; i < delays.length; i += 1) expect(delays[i]!).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(Math.max(...delays)).toBe(5000);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(11 * 60_000);
  });
});

describe('chart markers (web/shared/chart-markers.ts)', () => {
  const SIZE = 16;
  const GAP = 3;
  /** No two badges of a row overlap, and every badge lies within [left, right]. */
  const assertClear = (placed: { cx: number; row: number }[], left: number, right: number) => {
    for (const b of placed) {
      expect(b.cx - SIZE / 2).toBeGreaterThanOrEqual(left - 1e-9);
      expect(b.cx + SIZE / 2).toBeLessThanOrEqual(right + 1e-9);
    }
    for (const a of placed)
      for (const b of placed)
        if (a !== b && a.row === b.row) expect(Math.abs(a.cx - b.cx)).toBeGreaterThanOrEqual(SIZE + GAP - 1e-9);
  };

  it('numbers markers in day order, keeping the given order within a day', () => {
    const numbered = numberMarkers([
      { day: '2026-11-23', label: 'b' },
      { day: '2026-11-20', label: 'a' },
      { day: '2026-11-23', label: 'c' },
    ]);
    expect(numbered.map((m) => `${m.n}${m.label}`)).toEqual(['1a', '2b', '3c']);
  });

  it('keeps badges apart and inside the plot: same day, both edges, a crowded phone-wide plot', () => {
    // Two events on one day, one at each edge of a 300 px plot starting at 60.
    const xs = [60, 200, 200, 200.5, 360];
    const one = placeBadges(xs, 60, 360, SIZE, GAP, badgeRows(xs.length, 300, SIZE, GAP));
    expect(new Set(one.map((b) => b.row))).toEqual(new Set([0]));
    assertClear(one, 60, 360);
    expect(one[0]!.cx).toBe(68); // pulled in from the left edge instead of cut
    expect(one[4]!.cx).toBe(352); // and from the right
    // Forty events across a 300 px plot: more than one row holds, so they alternate over rows.
    const many = Array.from({ length: 40 }, (_, i) => 60 + i * 7);
    const rows = badgeRows(many.length, 300, SIZE, GAP);
    expect(rows).toBe(3);
    assertClear(placeBadges(many, 60, 360, SIZE, GAP, rows), 60, 360);
    // Too few rows for the count: spread evenly, still inside.
    const squeezed = placeBadges(many, 60, 360, SIZE, GAP, 1);
    for (const b of squeezed) expect(b.cx).toBeGreaterThanOrEqual(68);
    for (const b of squeezed) expect(b.cx).toBeLessThanOrEqual(352);
  });
});
