// Labelled synthetic marketing series for bench:detection (its part (a)): a seeded generator,
// so every run and every machine sees the same days. Each series is one channel of daily ad rows
// (spend, revenue, conversions, clicks, impressions) with one watched metric; the labels are
// windows of days, NAB-style, around what a person would want to be told about.
//
// What is normal (never labelled): weekly seasonality, trend, noise, and holidays (Black Friday,
// Cyber Monday, the Christmas weeks and New Year's Day lift revenue and spend: a known calendar
// effect, for context events, not an alert). What is labelled: spikes and drops of a few days,
// level shifts (the first days of the new level), a tracking outage to zero, and a real collapse
// of a ratio KPI on volume; on low volume a ratio's noise is not labelled.
import { addDays } from '../../src/platform/calendar.js';

export interface DayRow {
  date: string;
  spend: number;
  revenue: number;
  conversions: number;
  clicks: number;
  impressions: number;
}

export type WatchedMetric = 'spend' | 'revenue' | 'conversions' | 'clicks' | 'roas' | 'cpa' | 'cvr' | 'ctr';

export interface LabelledSeries {
  name: string;
  category: string;
  metric: WatchedMetric;
  rows: DayRow[];
  /** Inclusive windows of dates. */
  windows: [string, string][];
  /** What the labels mark, for the output. */
  anomalies: string[];
}

/** mulberry32: a small, well-known seeded PRNG; identical sequences on every platform. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): () => number {
  return () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
}

/** Poisson by inversion (small means) or a rounded normal (large ones). */
function poisson(rand: () => number, normal: () => number, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal()));
  const l = Math.exp(-mean);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rand();
  } while (p > l);
  return k - 1;
}

export const FIRST_DATE = '2024-01-01';
export const DAYS = 546; // 78 weeks: two Black Fridays and two Christmases

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/**
 * The holidays of the US retail calendar of 2024 and 2025 the series carry: a lift (or a dip) of
 * every field on their days. Listed once: holiday() generates from it, and holidayPeriods() hands
 * the same days to the benchmarks as the context events a team would record.
 */
const HOLIDAYS: { title: string; lift: number; dates?: string[]; annual?: [from: string, to: string] }[] = [
  { title: 'Black Friday', lift: 1.9, dates: ['2024-11-29', '2025-11-28'] },
  { title: 'Cyber Monday', lift: 1.6, dates: ['2024-12-02', '2025-12-01'] },
  { title: 'Christmas shopping weeks', lift: 1.25, annual: ['12-15', '12-23'] },
  { title: 'Christmas Day', lift: 0.6, annual: ['12-25', '12-25'] },
  { title: "New Year's Day", lift: 0.6, annual: ['01-01', '01-01'] },
];

/** Holiday lift on a date (1 = none). */
function holiday(date: string): number {
  const md = date.slice(5);
  for (const h of HOLIDAYS)
    if (h.dates?.includes(date) || (h.annual && md >= h.annual[0] && md <= h.annual[1])) return h.lift;
  return 1;
}

/** One holiday (or holiday period) of the calendar: its first and last date, inclusive. */
export interface HolidayPeriod {
  title: string;
  from: string;
  to: string;
}

/** The holidays holiday() lifts that touch [first, last], oldest first: one per day or period. */
export function holidayPeriods(first: string, last: string): HolidayPeriod[] {
  const out: HolidayPeriod[] = [];
  for (const h of HOLIDAYS) {
    for (const date of h.dates ?? []) out.push({ title: `${h.title} ${date.slice(0, 4)}`, from: date, to: date });
    if (h.annual)
      for (let y = Number(first.slice(0, 4)); y <= Number(last.slice(0, 4)); y++)
        out.push({ title: `${h.title} ${y}`, from: `${y}-${h.annual[0]}`, to: `${y}-${h.annual[1]}` });
  }
  return out.filter((p) => p.to >= first && p.from <= last).sort((a, b) => a.from.localeCompare(b.from));
}

interface Event {
  /** Day index of the first affected day. */
  at: number;
  days: number;
  /** Multiplier of the affected field(s) over those days; 0 = tracking outage. */
  factor: number;
  what: string;
  /** Level shifts change every later day, and are labelled on their first `days` days. */
  persistent?: boolean;
  fields?: (keyof Omit<DayRow, 'date'>)[];
}

interface Shape {
  name: string;
  metric: WatchedMetric;
  seed: number;
  /** Mean daily spend at the start; revenue, clicks, conversions and impressions follow it. */
  spend: number;
  weekly: number;
  /** Relative growth per year. */
  trend: number;
  noise: number;
  cpc: number;
  cvr: number;
  roas: number;
  events: Event[];
}

function generate(shape: Shape): LabelledSeries {
  const rand = prng(shape.seed);
  const normal = gaussian(rand);
  const rows: DayRow[] = [];
  let level = 1;
  for (let i = 0; i < DAYS; i++) {
    const date = addDays(FIRST_DATE, i);
    const dow = weekday(date);
    const weekly = dow === 0 || dow === 6 ? 1 - shape.weekly : 1 + (shape.weekly * 2) / 5;
    const trend = 1 + (shape.trend * i) / 365;
    for (const e of shape.events) if (e.persistent && i === e.at) level *= e.factor;
    const base = shape.spend * weekly * trend * holiday(date) * level;
    const mult: Record<keyof Omit<DayRow, 'date'>, number> = {
      spend: 1,
      revenue: 1,
      conversions: 1,
      clicks: 1,
      impressions: 1,
    };
    for (const e of shape.events) {
      if (e.persistent || i < e.at || i >= e.at + e.days) continue;
      for (const f of e.fields ?? (['spend', 'revenue', 'conversions', 'clicks', 'impressions'] as const))
        mult[f] *= e.factor;
    }
    const spend = Math.max(0, base * (1 + shape.noise * normal()));
    const clicksMean = (spend / shape.cpc) * (1 + 0.5 * shape.noise * normal());
    const clicks = poisson(rand, normal, clicksMean * mult.clicks);
    const conversions = poisson(rand, normal, clicks * shape.cvr * mult.conversions);
    const aov = (shape.roas * shape.cpc) / shape.cvr;
    const revenue = conversions * aov * (1 + 0.3 * normal()) * mult.revenue;
    rows.push({
      date,
      spend: Math.round(spend * mult.spend * 100) / 100,
      revenue: Math.max(0, Math.round(revenue * 100) / 100),
      conversions,
      clicks,
      impressions: poisson(rand, normal, clicks * 40 * mult.impressions),
    });
  }
  // A window starts the day before the first anomalous day (a detector can be no earlier) and ends
  // two days after the last one (a day's data often settles a day late); a level shift's window
  // covers its first `days` days, after which the new level is normal.
  const windows = shape.events
    .map((e) => [addDays(FIRST_DATE, e.at - 1), addDays(FIRST_DATE, Math.min(DAYS - 1, e.at + e.days - 1 + 2))])
    .sort(([a], [b]) => a.localeCompare(b)) as [string, string][];
  return {
    name: shape.name,
    category: 'synthetic',
    metric: shape.metric,
    rows,
    windows,
    anomalies: shape.events.map((e) => `${addDays(FIRST_DATE, e.at)} ${e.what}`),
  };
}

const TYPICAL = { cpc: 0.8, cvr: 0.03, roas: 3.5 };

/** The benchmark's synthetic series; `seeds` variants of each shape, with shifted incident days. */
export function syntheticSeries(seeds = 2): LabelledSeries[] {
  const out: LabelledSeries[] = [];
  for (let s = 0; s < seeds; s++) {
    const k = s * 17; // a variant moves its incidents by a few weeks
    const shapes: Shape[] = [
      {
        name: `spend_weekly_spikes_${s}`,
        metric: 'spend',
        seed: 101 + s,
        spend: 1200,
        weekly: 0.25,
        trend: 0.3,
        noise: 0.06,
        ...TYPICAL,
        events: [
          { at: 120 + k, days: 1, factor: 2.2, what: 'spend spike (runaway bid)', fields: ['spend'] },
          { at: 260 + k, days: 2, factor: 0.35, what: 'spend drop (budget capped)', fields: ['spend'] },
          { at: 400 + k, days: 1, factor: 1.9, what: 'spend spike', fields: ['spend'] },
        ],
      },
      {
        name: `revenue_holidays_noisy_${s}`,
        metric: 'revenue',
        seed: 201 + s,
        spend: 3000,
        weekly: 0.35,
        trend: 0.15,
        noise: 0.15,
        ...TYPICAL,
        events: [
          {
            at: 150 + k,
            days: 3,
            factor: 0.3,
            what: 'revenue drop (checkout broken)',
            fields: ['revenue', 'conversions'],
          },
          { at: 380 + k, days: 1, factor: 2.8, what: 'revenue spike (bulk order)', fields: ['revenue'] },
        ],
      },
      {
        name: `clicks_level_shifts_${s}`,
        metric: 'clicks',
        seed: 301 + s,
        spend: 800,
        weekly: 0.2,
        trend: 0,
        noise: 0.08,
        ...TYPICAL,
        events: [
          { at: 180 + k, days: 5, factor: 1.6, what: 'level shift up (budget raised)', persistent: true },
          { at: 360 + k, days: 5, factor: 0.55, what: 'level shift down (campaign paused)', persistent: true },
        ],
      },
      {
        name: `conversions_tracking_outage_${s}`,
        metric: 'conversions',
        seed: 401 + s,
        spend: 2000,
        weekly: 0.15,
        trend: 0.2,
        noise: 0.07,
        ...TYPICAL,
        events: [
          {
            at: 210 + k,
            days: 4,
            factor: 0,
            what: 'tracking outage: conversions 0',
            fields: ['conversions', 'revenue'],
          },
          {
            at: 430 + k,
            days: 2,
            factor: 0,
            what: 'tracking outage: conversions 0',
            fields: ['conversions', 'revenue'],
          },
        ],
      },
      {
        name: `roas_low_volume_${s}`,
        metric: 'roas',
        seed: 501 + s,
        spend: 90, // ~110 clicks, ~3 conversions a day: ROAS is mostly noise
        weekly: 0.2,
        trend: 0.1,
        noise: 0.1,
        ...TYPICAL,
        events: [
          // Revenue tracking loses the order value for a week while conversions still count.
          { at: 300 + k, days: 7, factor: 0.05, what: 'ROAS collapse (order value lost)', fields: ['revenue'] },
        ],
      },
      {
        name: `cpa_volume_${s}`,
        metric: 'cpa',
        seed: 601 + s,
        spend: 2500,
        weekly: 0.2,
        trend: 0.1,
        noise: 0.05,
        ...TYPICAL,
        events: [{ at: 240 + k, days: 3, factor: 0.4, what: 'CPA spike (conversions lost)', fields: ['conversions'] }],
      },
      {
        name: `ctr_low_volume_${s}`,
        metric: 'ctr',
        seed: 701 + s,
        spend: 20, // ~25 clicks on ~1,000 impressions a day
        weekly: 0.1,
        trend: 0,
        noise: 0.1,
        ...TYPICAL,
        events: [{ at: 330 + k, days: 4, factor: 8, what: 'CTR drop (bot impressions)', fields: ['impressions'] }],
      },
    ];
    for (const shape of shapes) out.push(generate(shape));
  }
  return out;
}
