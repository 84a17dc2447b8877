import { describe, expect, it } from 'vitest';
import { prng } from '../../bench/detection/synthetic.js';
import {
  type CoveringEvent,
  evaluateSeries,
  type RuleParams,
  type SeriesPoint,
  type SeriesState,
} from '../../src/modules/anomalies/index.js';

// The rule runs each day's frame, weekly test and fit on reused buffers (detection/rule/rule.fit.ts,
// detection/rule/rule.select.ts) for speed; detection/rule/rule.baseline.ts keeps the same steps on plain arrays as
// docs/api.md spells them out. Both must give the same rows, bit for bit (Object.is on every
// number: a -0 where the reference has 0 is a difference), on series built to reach the corners:
// ties, runs of zeros of both signs, gaps, weekly patterns, trends, level shifts and spikes, and
// settings and carried state that change the frame (exclusion, anchors, runs, precedents, days
// context events cover, the quiet days a sustained move adds up with).

const DEFAULTS: RuleParams = {
  baseline: 'robust',
  seasonality: 'auto',
  window_days: 56,
  seasonal_weeks: 8,
  exclude_anomalies: true,
  level_shifts: true,
  level_shift_days: 5,
  precedent_days: 1460,
  precedent_margin: 0.08,
  precedent_margin_drop: 0.04,
  sustained_days: 2,
  threshold: 3.5,
  direction: 'both',
  min_relative_change: 0.05,
  min_abs_change: 1,
  min_training_days: 14,
  min_volume: null,
};

function series(kind: number, rnd: () => number): SeriesPoint[] {
  const points: SeriesPoint[] = [];
  let d = 9000 + Math.floor(rnd() * 7);
  let level = 100;
  const n = 80 + Math.floor(rnd() * 220);
  for (let i = 0; i < n; i += 1) {
    d += rnd() < 0.08 ? 2 + Math.floor(rnd() * 3) : 1;
    let value: number;
    if (kind === 0) value = Math.floor(rnd() * 4);
    else if (kind === 1) value = rnd() < 0.5 ? (rnd() < 0.5 ? -0 : 0) : Math.floor(rnd() * 3) - 1;
    else if (kind === 2) {
      if (rnd() < 0.01) level *= 1.6;
      value = level + 15 * Math.sin((2 * Math.PI * d) / 7) + 4 * rnd() + (rnd() < 0.03 ? 90 : 0);
    } else if (kind === 3) value = rnd() < 0.7 ? 0 : 10 * rnd();
    else if (kind === 4) value = 40 + 0.6 * (d - 9000) + 3 * rnd() + (d % 7 === 5 ? 25 : 0);
    else value = Math.round((rnd() - 0.5) * 16) / 4;
    points.push({ d, value, volume: Math.floor(rnd() * 150) });
  }
  return points;
}

function settings(rnd: () => number): RuleParams {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  return {
    ...DEFAULTS,
    baseline: pick(['robust', 'robust', 'mean'] as const),
    seasonality: pick(['auto', 'auto', 'none', 'day_of_week'] as const),
    window_days: pick([7, 28, 56, 90]),
    seasonal_weeks: pick([2, 4, 8, 12]),
    exclude_anomalies: rnd() < 0.8,
    level_shifts: rnd() < 0.8,
    level_shift_days: pick([2, 3, 5]),
    precedent_days: pick([0, 30, 365]),
    threshold: pick([2, 3, 3.5]),
    direction: pick(['both', 'spike', 'drop'] as const),
    min_relative_change: pick([0, 0.05]),
    min_abs_change: pick([0, 1]),
    min_training_days: pick([1, 7, 14]),
    min_volume: pick([null, null, 50]),
    precedent_margin: pick([0, 0.04, 0.5]),
    precedent_margin_drop: pick([0, 0.04, 0.5]),
    sustained_days: pick([1, 2, 3]),
  };
}

function state(points: SeriesPoint[], fromIndex: number, rnd: () => number): SeriesState {
  const s: SeriesState = { excluded: new Set(), anchor: null, run: null };
  // Days context events cover (before and in the range), a few windows of up to 15 days.
  if (rnd() < 0.5) {
    const covered = new Map<number, CoveringEvent>();
    for (let k = 0, n = 2 + Math.floor(rnd() * 4); k < n; k += 1) {
      const first = points[Math.floor(rnd() * points.length)]!.d;
      const event = { id: `evt_${k}`, title: `event ${k}`, event_type: 'holiday' };
      for (let d = first, last = first + Math.floor(rnd() * 15); d <= last; d += 1)
        if (!covered.has(d)) covered.set(d, event);
    }
    s.covered = covered;
  }
  if (fromIndex === 0) return s;
  const from = points[fromIndex]!.d;
  for (let j = 0; j < fromIndex; j += 1) if (rnd() < 0.06) s.excluded.add(points[j]!.d);
  if (rnd() < 0.3) s.anchor = points[Math.max(0, fromIndex - 1 - Math.floor(rnd() * 10))]!.d;
  if (rnd() < 0.3)
    s.run = { start: from - 1 - Math.floor(rnd() * 3), last: from - 1, side: rnd() < 0.5 ? 'spike' : 'drop' };
  if (rnd() < 0.5)
    s.precedents = {
      spike: [
        { d: from - 20, size: 40 },
        { d: from - 3, size: 4 },
      ],
      drop: [{ d: from - 90, size: 25 }],
    };
  if (rnd() < 0.3) s.confirmed = new Set([points[Math.floor(rnd() * points.length)]!.d]);
  if (rnd() < 0.3) {
    const side = rnd() < 0.5 ? 1 : -1;
    s.quiet = [
      { d: from - 2, z: side * 2.5 },
      { d: from - 1, z: side * 1.5 },
    ];
  }
  return s;
}

/** Deep equality with Object.is on numbers; the first difference as a path, or null. */
function difference(a: unknown, b: unknown, path: string): string | null {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) ? null : `${path}: ${a} ≠ ${b}`;
  if (a instanceof Set && b instanceof Set) return difference([...a].sort(), [...b].sort(), path);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return a === b ? null : `${path}: ${String(a)} ≠ ${String(b)}`;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const k of keys) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

describe('the rule on reused buffers gives the reference rule’s rows', () => {
  it('bit for bit over 360 series, settings and carried states', () => {
    const rnd = prng(29);
    let rows = 0;
    let fired = 0;
    let explained = 0;
    let sustained = 0;
    for (let c = 0; c < 360; c += 1) {
      const points = series(c % 6, rnd);
      const p = c < 60 ? DEFAULTS : settings(rnd);
      const fromIndex = rnd() < 0.5 ? 0 : Math.floor(rnd() * points.length);
      const seed = Math.floor(rnd() * 1e9);
      const fast = state(points, fromIndex, prng(seed));
      const reference = state(points, fromIndex, prng(seed));
      const from = points[fromIndex]!.d;
      const a = evaluateSeries(points, from, p, fast);
      const b = evaluateSeries(points, from, p, reference, { reference: true });
      const diff = difference(a, b, `case ${c} ${JSON.stringify(p)}`) ?? difference(fast, reference, `state ${c}`);
      expect(diff).toBeNull();
      rows += a.rows.length;
      fired += a.rows.filter((r) => r.fired).length;
      explained += a.rows.filter((r) => r.explainedByEvent).length;
      sustained += a.rows.filter((r) => r.fired && r.z !== null && Math.abs(r.z) < p.threshold).length;
    }
    // The cases do reach the rule's decisions, not only quiet days.
    expect(rows).toBeGreaterThan(30_000);
    expect(fired).toBeGreaterThan(300);
    expect(explained).toBeGreaterThan(30);
    // Days fired on a sustained z (step 7a), their own |z| short of the threshold.
    expect(sustained).toBeGreaterThan(30);
  });
});
