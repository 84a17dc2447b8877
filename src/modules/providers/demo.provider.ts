import { z } from 'zod';
import type { CanonicalRecord, DateWindow, Provider, ProviderContext, VerifyOutcome } from './provider.js';
import { addDays, dayNumber, isoDay } from './dates.js';

/**
 * A deterministic synthetic ad platform. Every value is a pure function of (seed, campaign, date)
 * and the injected clock, so any window re-reads identical rows and tests can assert on them.
 * Weekly seasonality, a slow trend and noise, plus injected incidents in the last 30 days
 * (relative to the clock's today) that the anomaly evaluator should find.
 */
export const DemoConfig = z
  .object({
    campaigns: z.number().int().min(1).max(100_000).default(12),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(42),
    incidents: z.boolean().default(true).describe('Inject spikes and drops in the last 30 days.'),
  })
  .strict();
export type DemoConfig = z.infer<typeof DemoConfig>;

const CHANNELS = ['paid_search', 'paid_social', 'display', 'video', 'shopping'] as const;
const CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
const WEEKDAY_FACTOR = [0.78, 1.06, 1.1, 1.08, 1.04, 0.97, 0.82]; // Sunday..Saturday

/** Incidents relative to today: days ago, channel, which metric, factor. */
export const DEMO_INCIDENTS = [
  { daysAgo: 3, channel: 'paid_search', metric: 'spend', factor: 2.8 },
  { daysAgo: 9, channel: 'paid_social', metric: 'conversions', factor: 0.3 },
  { daysAgo: 17, channel: 'display', metric: 'clicks', factor: 2.6 },
  { daysAgo: 24, channel: 'video', metric: 'revenue', factor: 0.35 },
] as const;

/** A small, fast integer hash → [0, 1). */
function unit(a: number, b: number, c: number): number {
  let h = (a * 0x9e3779b1) ^ (b * 0x85ebca77) ^ (c * 0xc2b2ae3d);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

interface Campaign {
  id: string;
  name: string;
  channel: string;
  currency: string;
  baseSpend: number;
  ctr: number;
  cvr: number;
  aov: number;
  cpm: number;
}

function campaignsFor(config: DemoConfig): Campaign[] {
  const out: Campaign[] = [];
  for (let k = 0; k < config.campaigns; k += 1) {
    const channel = CHANNELS[k % CHANNELS.length]!;
    const currency = CURRENCIES[Math.floor(k / CHANNELS.length) % CURRENCIES.length]!;
    const r = (n: number) => unit(config.seed, k, n);
    out.push({
      id: `cmp_${String(k + 1).padStart(5, '0')}`,
      name: `${channel.replace('_', ' ')} ${currency} #${k + 1}`,
      channel,
      currency,
      baseSpend: 150 + r(1) * 900,
      ctr: 0.006 + r(2) * 0.03,
      cvr: 0.01 + r(3) * 0.05,
      aov: 40 + r(4) * 120,
      cpm: 4 + r(5) * 14,
    });
  }
  return out;
}

/** Per-date factors, computed once per date rather than per campaign-day. */
interface Day {
  date: string;
  day: number;
  base: number; // weekday factor × trend
}

function dayOf(date: string, todayNumber: number): Day {
  const day = dayNumber(date);
  const weekday = new Date(day * 86_400_000).getUTCDay();
  return { date, day, base: WEEKDAY_FACTOR[weekday]! * (1 + 0.0012 * (day - todayNumber + 365)) };
}

export function demoRecord(c: Campaign, k: number, d: Day, config: DemoConfig, todayNumber: number): CanonicalRecord {
  const { date, day } = d;
  const noise = (n: number) => 0.85 + unit(config.seed + n, k, day) * 0.3;
  let spend = c.baseSpend * d.base * noise(11);
  let impressions = (spend / c.cpm) * 1000 * noise(12);
  let clicks = impressions * c.ctr * noise(13);
  let conversions = clicks * c.cvr * noise(14);
  let revenue = conversions * c.aov * noise(15);
  if (config.incidents) {
    for (const incident of DEMO_INCIDENTS) {
      if (incident.channel !== c.channel || day !== todayNumber - incident.daysAgo) continue;
      if (incident.metric === 'spend') spend *= incident.factor;
      if (incident.metric === 'conversions') {
        conversions *= incident.factor;
        revenue *= incident.factor;
      }
      if (incident.metric === 'clicks') {
        clicks *= incident.factor;
        impressions *= incident.factor;
      }
      if (incident.metric === 'revenue') revenue *= incident.factor;
    }
  }
  return {
    date,
    campaign_id: c.id,
    campaign_name: c.name,
    channel: c.channel,
    currency: c.currency,
    spend: Math.round(spend * 100) / 100,
    impressions: Math.round(impressions),
    clicks: Math.round(clicks),
    conversions: Math.round(conversions * 100) / 100,
    revenue: Math.round(revenue * 100) / 100,
  };
}

export const demoProvider: Provider<DemoConfig, Record<string, never>, CanonicalRecord> = {
  name: 'demo',
  description: 'Deterministic synthetic ad platform (no network): campaigns in several channels and currencies.',
  configSchema: DemoConfig,
  secretsSchema: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  async verify(): Promise<VerifyOutcome> {
    return {
      status: 'active',
      token_check: { ok: true, ms: 0, reason: 'no credentials needed' },
      connectivity: { ok: true, ms: 0, reason: null },
    };
  },
  async *fetch(ctx: ProviderContext<DemoConfig>, window: DateWindow) {
    const config = DemoConfig.parse(ctx.config);
    const campaigns = campaignsFor(config);
    const today = dayNumber(isoDay(ctx.clock.now()));
    for (let date = window.from; date <= window.to; date = addDays(date, 1)) {
      const d = dayOf(date, today);
      for (let k = 0; k < campaigns.length; k += 1) yield demoRecord(campaigns[k]!, k, d, config, today);
    }
  },
  toCanonical: (record) => record,
};
