import { type FormatContext, fmtMoney, fmtNumber } from './format.js';

/**
 * What a KPI is and which way is good for it, shared by the KPI cards, the insight card and the
 * anomaly list: a rise in CPA is bad news, a rise in ROAS good; spend is neither, it is a choice.
 */
export type KpiUnit = 'money' | 'count' | 'ratio' | 'percent';
export type Tone = 'good' | 'bad' | 'neutral';

export const KPI_META: Record<string, { label: string; unit: KpiUnit; upIs: Tone }> = {
  revenue: { label: 'Revenue', unit: 'money', upIs: 'good' },
  spend: { label: 'Spend', unit: 'money', upIs: 'neutral' },
  roas: { label: 'ROAS', unit: 'ratio', upIs: 'good' },
  conversions: { label: 'Conversions', unit: 'count', upIs: 'good' },
  cpa: { label: 'CPA', unit: 'money', upIs: 'bad' },
  clicks: { label: 'Clicks', unit: 'count', upIs: 'good' },
  impressions: { label: 'Impressions', unit: 'count', upIs: 'good' },
  ctr: { label: 'CTR', unit: 'percent', upIs: 'good' },
  cvr: { label: 'CVR', unit: 'percent', upIs: 'good' },
};

export const kpiLabel = (metric: string) => KPI_META[metric]?.label ?? metric;
export const kpiUnit = (metric: string): KpiUnit => KPI_META[metric]?.unit ?? 'count';

/** Good, bad or neutral for a change of `delta` (any sign convention: only the sign counts). */
export function toneOf(metric: string, delta: number | null | undefined): Tone {
  if (delta === null || delta === undefined || !Number.isFinite(delta) || delta === 0) return 'neutral';
  const upIs = KPI_META[metric]?.upIs ?? 'neutral';
  if (upIs === 'neutral') return 'neutral';
  const up = delta > 0;
  return up === (upIs === 'good') ? 'good' : 'bad';
}

/** Words for a tone, so colour is never the only signal. */
export const TONE_WORD: Record<Tone, string> = { good: 'better', bad: 'worse', neutral: '' };

/** A KPI value as its unit reads: money in the project's currency, ratios as 3.21, rates as 2.5 %. */
export function fmtKpi(
  value: number | null | undefined,
  unit: KpiUnit,
  currency: string | null | undefined,
  f: FormatContext,
): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  switch (unit) {
    case 'money':
      return fmtMoney(value, currency, f);
    case 'count':
      return fmtNumber(value, f, Number.isInteger(value) ? 0 : 1);
    case 'ratio':
      return new Intl.NumberFormat(f.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
    case 'percent':
      return new Intl.NumberFormat(f.locale, { style: 'percent', maximumFractionDigits: 2 }).format(value);
  }
}

/** The service writes relative changes in percent (12.5 = +12.5 %); the formatter takes ratios. */
export const pctToRatio = (pct: number | null | undefined) =>
  pct === null || pct === undefined || !Number.isFinite(pct) ? null : pct / 100;

/** Channel names as people say them; the project total has a reserved name. */
export const channelName = (channel: string) => (channel === '_total' ? 'All channels' : channel);
