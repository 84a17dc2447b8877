/**
 * The decomposition behind explain_anomaly, pure so it can be checked by hand. Two periods are
 * compared: the anomaly's days (`current`) and its baseline days (`baseline`). Every part (a
 * channel of the total, a campaign of a channel) carries its sums over each period.
 *
 * Additive metrics (spend, revenue, conversions, clicks, impressions): the value compared is the
 * mean per day, so part i contributes S_cur,i / n_cur − S_base,i / n_base, and the contributions
 * sum to the change of the series' daily mean exactly (a part absent on a day counts 0).
 *
 * Ratio KPIs R = N / D (roas = revenue/spend, cpa = spend/conversions, cvr = conversions/clicks,
 * ctr = clicks/impressions) over a period are ΣN / ΣD. With w_i = D_i / D (the part's share of the
 * denominator) and r_i = N_i / D_i (its own rate), R = Σ w_i r_i and part i contributes
 * c_i = N_i / D. Its change Δc_i splits into
 *   mix effect  = (w_cur,i − w_base,i) × (r_base,i + r_cur,i) / 2   (the share moved)
 *   rate effect = Δc_i − mix effect = (r_cur,i − r_base,i) × (w_base,i + w_cur,i) / 2
 * (the symmetric two-factor split; with both rates defined the two forms are identical). A part
 * with no denominator in one period has no rate there: the other period's rate stands in, so a
 * new part is all mix and a vanished one all mix. The effects sum to R_cur − R_base exactly.
 */

export const RATIO_PARTS = {
  roas: { numerator: 'revenue', denominator: 'spend' },
  cpa: { numerator: 'spend', denominator: 'conversions' },
  cvr: { numerator: 'conversions', denominator: 'clicks' },
  ctr: { numerator: 'clicks', denominator: 'impressions' },
} as const;
export type RatioMetric = keyof typeof RATIO_PARTS;
export type BaseMeasure = 'spend' | 'revenue' | 'conversions' | 'clicks' | 'impressions';

export const isRatio = (metric: string): metric is RatioMetric => metric in RATIO_PARTS;

export type Sums = Record<BaseMeasure, number>;

export interface PartSums {
  key: string;
  label: string;
  current: Sums;
  baseline: Sums;
}

export interface Contribution {
  key: string;
  label: string;
  /** Additive: the part's mean per day; ratio: the part's own rate (null without a denominator). */
  current: number | null;
  baseline: number | null;
  /** The part's contribution to the change; the parts' changes sum to the observed change. */
  change: number;
  /** change / observed change (null when the observed change is 0). */
  share_of_change: number | null;
  /** Ratio KPIs only. */
  rate_effect?: number;
  mix_effect?: number;
  current_weight?: number;
  baseline_weight?: number;
}

/** A part as listed: with its |change| against the largest mover's (1 for that one; 0 when none moved). */
export type ListedContribution = Contribution & { share_of_largest: number };

export interface Decomposition {
  method: 'additive' | 'rate_mix';
  current_value: number | null;
  baseline_value: number | null;
  change: number | null;
  relative_change: number | null;
  /** Sum of the parts' rate and mix effects (ratio KPIs). */
  rate_effect?: number;
  mix_effect?: number;
  parts: Contribution[];
  /** Why there is no decomposition (a period without data or without a denominator). */
  unavailable?: string;
}

export const EMPTY_SUMS: Sums = { spend: 0, revenue: 0, conversions: 0, clicks: 0, impressions: 0 };

/** A decomposition that cannot be made, and why (no data on one side, a ratio without denominator). */
export function unavailable(method: Decomposition['method'], reason: string): Decomposition {
  return {
    method,
    current_value: null,
    baseline_value: null,
    change: null,
    relative_change: null,
    parts: [],
    unavailable: reason,
  };
}

const relative = (cur: number, base: number) => (base !== 0 ? (cur - base) / Math.abs(base) : null);

export function decomposeAdditive(
  measure: BaseMeasure,
  parts: PartSums[],
  days: { current: number; baseline: number },
): Decomposition {
  if (days.current === 0 || days.baseline === 0)
    return unavailable('additive', days.current === 0 ? 'no data on the anomaly days' : 'no data on the baseline days');
  const rows = parts.map((p) => {
    const current = p.current[measure] / days.current;
    const baseline = p.baseline[measure] / days.baseline;
    return { key: p.key, label: p.label, current, baseline, change: current - baseline };
  });
  const cur = rows.reduce((a, r) => a + r.current, 0);
  const base = rows.reduce((a, r) => a + r.baseline, 0);
  const change = rows.reduce((a, r) => a + r.change, 0);
  return {
    method: 'additive',
    current_value: cur,
    baseline_value: base,
    change,
    relative_change: relative(cur, base),
    parts: rank(rows.map((r) => ({ ...r, share_of_change: change !== 0 ? r.change / change : null }))),
  };
}

export function decomposeRatio(metric: RatioMetric, parts: PartSums[]): Decomposition {
  const { numerator: nk, denominator: dk } = RATIO_PARTS[metric];
  const total = (period: 'current' | 'baseline', k: BaseMeasure) => parts.reduce((a, p) => a + p[period][k], 0);
  const D1 = total('current', dk);
  const D0 = total('baseline', dk);
  if (D1 === 0 || D0 === 0)
    return unavailable(
      'rate_mix',
      `no ${dk} on the ${D1 === 0 ? 'anomaly' : 'baseline'} days: ${metric} is undefined there`,
    );
  const R1 = total('current', nk) / D1;
  const R0 = total('baseline', nk) / D0;
  const rows = parts.map((p) => {
    const w1 = p.current[dk] / D1;
    const w0 = p.baseline[dk] / D0;
    const r1 = p.current[dk] !== 0 ? p.current[nk] / p.current[dk] : null;
    const r0 = p.baseline[dk] !== 0 ? p.baseline[nk] / p.baseline[dk] : null;
    // c_i = N_i / D also holds a numerator booked without a denominator (revenue with no spend).
    const change = p.current[nk] / D1 - p.baseline[nk] / D0;
    const meanRate = r0 !== null && r1 !== null ? (r0 + r1) / 2 : (r0 ?? r1 ?? 0);
    const mix = (w1 - w0) * meanRate;
    return {
      key: p.key,
      label: p.label,
      current: r1,
      baseline: r0,
      change,
      rate_effect: change - mix,
      mix_effect: mix,
      current_weight: w1,
      baseline_weight: w0,
    };
  });
  const change = R1 - R0;
  return {
    method: 'rate_mix',
    current_value: R1,
    baseline_value: R0,
    change,
    relative_change: relative(R1, R0),
    rate_effect: rows.reduce((a, r) => a + r.rate_effect, 0),
    mix_effect: rows.reduce((a, r) => a + r.mix_effect, 0),
    parts: rank(rows.map((r) => ({ ...r, share_of_change: change !== 0 ? r.change / change : null }))),
  };
}

/** Largest movers first; ties by key so the order is stable. */
function rank(rows: Contribution[]): Contribution[] {
  return rows.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.key.localeCompare(b.key));
}

/**
 * At most `max` parts: the rest fold into one `_other` part whose figures are the sums of theirs,
 * so the parts still sum to the observed change (rates and weights of a fold are left out). Each
 * listed part then gets its share of the largest mover (what a bar of the views draws).
 */
export function foldTail(
  d: Decomposition,
  max: number,
): Omit<Decomposition, 'parts'> & { parts: ListedContribution[]; folded_parts: number } {
  const folded = foldParts(d, max);
  return { ...folded, parts: withShareOfLargest(folded.parts) };
}

/** Each part's |change| against the largest |change| among them, in [0, 1]. */
function withShareOfLargest(parts: Contribution[]): ListedContribution[] {
  const largest = parts.reduce((m, p) => Math.max(m, Math.abs(p.change)), 0);
  return parts.map((p) => ({ ...p, share_of_largest: largest > 0 ? Math.abs(p.change) / largest : 0 }));
}

function foldParts(d: Decomposition, max: number): Decomposition & { folded_parts: number } {
  if (d.parts.length <= max) return { ...d, folded_parts: 0 };
  const head = d.parts.slice(0, max - 1);
  const tail = d.parts.slice(max - 1);
  const sum = (f: (c: Contribution) => number | undefined) => tail.reduce((a, c) => a + (f(c) ?? 0), 0);
  const other: Contribution = {
    key: '_other',
    label: `${tail.length} other parts`,
    current: d.method === 'additive' ? sum((c) => c.current ?? 0) : null,
    baseline: d.method === 'additive' ? sum((c) => c.baseline ?? 0) : null,
    change: sum((c) => c.change),
    share_of_change: d.change ? sum((c) => c.change) / d.change : null,
    ...(d.method === 'rate_mix'
      ? {
          rate_effect: sum((c) => c.rate_effect),
          mix_effect: sum((c) => c.mix_effect),
          current_weight: sum((c) => c.current_weight),
          baseline_weight: sum((c) => c.baseline_weight),
        }
      : {}),
  };
  return { ...d, parts: [...head, other], folded_parts: tail.length };
}

export type Weighting = 'equal' | 'same_weekday';

/**
 * Weights that turn day sums into a period's mean per day. Current days weigh 1/n each. Baseline
 * days weigh 1/m each, unless the detector's baseline was weekly (day-of-week seasonality, or a
 * weekly profile kept by `auto`): then each anomaly day is compared with the baseline days of its
 * own weekday, so a Saturday is not held against a week's mean. That is still a fixed weighted
 * mean of baseline days, so the parts stay additive. A weekday with no baseline day falls back to
 * equal weights.
 */
export function dayWeights(
  current: string[],
  baseline: string[],
  weekly: boolean,
): { current: Map<string, number>; baseline: Map<string, number>; weighting: Weighting } {
  const cur = new Map(current.map((d) => [d, 1 / current.length]));
  const equal = () => new Map(baseline.map((d) => [d, 1 / baseline.length]));
  if (!weekly || current.length === 0 || baseline.length === 0)
    return { current: cur, baseline: equal(), weighting: 'equal' };
  const wd = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
  const curPer = new Array<number>(7).fill(0);
  const basePer = new Array<number>(7).fill(0);
  for (const d of current) curPer[wd(d)]! += 1;
  for (const d of baseline) basePer[wd(d)]! += 1;
  if (curPer.some((n, w) => n > 0 && basePer[w] === 0)) return { current: cur, baseline: equal(), weighting: 'equal' };
  const base = new Map<string, number>();
  for (const d of baseline) {
    const w = wd(d);
    if (curPer[w]! > 0) base.set(d, curPer[w]! / current.length / basePer[w]!);
  }
  return { current: cur, baseline: base, weighting: 'same_weekday' };
}

/** Each part's weighted sums over the two periods (a part missing on a day counts 0 there). */
export function weightedParts(
  rows: (Sums & { date: string; key: string; label: string })[],
  weights: { current: Map<string, number>; baseline: Map<string, number> },
): PartSums[] {
  const byKey = new Map<string, PartSums>();
  for (const r of rows) {
    const part = byKey.get(r.key) ?? {
      key: r.key,
      label: r.label,
      current: { ...EMPTY_SUMS },
      baseline: { ...EMPTY_SUMS },
    };
    byKey.set(r.key, part);
    for (const period of ['current', 'baseline'] as const) {
      const w = weights[period].get(r.date);
      if (w === undefined) continue;
      if (period === 'current') part.label = r.label;
      for (const k of Object.keys(EMPTY_SUMS) as BaseMeasure[]) part[period][k] += w * r[k];
    }
  }
  return [...byKey.values()];
}
