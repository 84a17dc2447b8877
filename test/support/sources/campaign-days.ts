/**
 * The records every source server of these tests serves: `campaigns` campaigns on each day, with
 * amounts in micros and decimals that only an exact reading keeps to 1e-6. Deterministic, so a
 * test (or the bench) can compute each day's totals without asking the server.
 */
export interface CampaignDay {
  date: string;
  campaign_id: string;
  campaign_name: string;
  channel: string;
  currency: string;
  /** Spend in micros (Google's unit): an integer, exact. */
  cost_micros: number;
  impressions: number;
  clicks: number;
  conversions: number;
  /** Revenue to six decimals. */
  revenue: number;
}

const CHANNELS = ['SEARCH', 'DISPLAY', 'VIDEO', 'PERFORMANCE_MAX', 'SHOPPING'];

export function dayList(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** `version` changes the amounts (a source restating its last days). */
export function campaignDay(date: string, campaign: number, version = 0): CampaignDay {
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  const seed = (day * 7919 + campaign * 104_729 + version * 31) % 1_000_003;
  const zero = seed % 11 === 0; // some days spend nothing: a source that omits zeros must still read 0
  return {
    date,
    campaign_id: `c${campaign}`,
    campaign_name: `Campaign ${campaign}`,
    channel: CHANNELS[campaign % CHANNELS.length]!,
    currency: 'EUR',
    cost_micros: zero ? 0 : 1_000_001 + seed * 13,
    impressions: zero ? 0 : 1000 + (seed % 5000),
    clicks: zero ? 0 : 10 + (seed % 300),
    conversions: zero ? 0 : (seed % 17) + 0.5,
    revenue: zero ? 0 : Math.round((seed % 9973) * 1_000_000 + 1) / 1_000_000 + 100,
  };
}

export function campaignDays(from: string, to: string, campaigns: number, version: (date: string) => number = () => 0) {
  return dayList(from, to).flatMap((date) =>
    Array.from({ length: campaigns }, (_, c) => campaignDay(date, c, version(date))),
  );
}

export interface DayTotals {
  spend: number;
  revenue: number;
  conversions: number;
  rows: number;
}

export function totalsByDay(records: CampaignDay[]): Map<string, DayTotals> {
  const out = new Map<string, DayTotals>();
  for (const r of records) {
    const t = out.get(r.date) ?? { spend: 0, revenue: 0, conversions: 0, rows: 0 };
    t.spend += r.cost_micros / 1e6;
    t.revenue += r.revenue;
    t.conversions += r.conversions;
    t.rows += 1;
    out.set(r.date, t);
  }
  return out;
}
