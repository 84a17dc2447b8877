import { z } from 'zod';
import { ProviderError, type CanonicalRecord } from './provider.js';

/**
 * Column mapping from a source's field names to the canonical schema. Text fields may instead
 * take a constant from `defaults` (a CSV of one channel has no channel column).
 */
export const FieldMapping = z
  .object({
    date: z.string().min(1),
    campaign_id: z.string().min(1),
    campaign_name: z.string().min(1).optional(),
    channel: z.string().min(1).optional(),
    currency: z.string().min(1).optional(),
    spend: z.string().min(1),
    impressions: z.string().min(1).optional(),
    clicks: z.string().min(1).optional(),
    conversions: z.string().min(1).optional(),
    revenue: z.string().min(1).optional(),
  })
  .strict();
export type FieldMapping = z.infer<typeof FieldMapping>;

export const MappingDefaults = z
  .object({
    channel: z.string().min(1).max(64).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
  })
  .strict()
  .default({});
export type MappingDefaults = z.infer<typeof MappingDefaults>;

export function checkMappingDefaults(mapping: FieldMapping, defaults: MappingDefaults, ctx: z.RefinementCtx): void {
  if (!mapping.channel && !defaults.channel)
    ctx.addIssue({
      code: 'custom',
      path: ['defaults', 'channel'],
      message: 'map a channel column or give defaults.channel',
    });
  if (!mapping.currency && !defaults.currency)
    ctx.addIssue({
      code: 'custom',
      path: ['defaults', 'currency'],
      message: 'map a currency column or give defaults.currency',
    });
}

/** Reads a dotted path (`metrics.spend`) from a JSON record. */
export function pick(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** How a mapped field is read from a record: `pick` unless the source reads its own way. */
export type FieldReader = (record: unknown, path: string) => unknown;
type Read = (record: unknown) => unknown;

/** `pick` for one path, split once rather than for every record. */
function pathReader(path: string): Read {
  if (!path.includes('.'))
    return (record) =>
      record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[path] : undefined;
  const parts = path.split('.');
  return (record) => {
    let value: unknown = record;
    for (const part of parts) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value;
  };
}

function num(value: unknown, field: string, lenient: boolean): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
  } else if (value === undefined || value === null || value === '') {
    if (lenient) return 0;
    throw new ProviderError(`record has no ${field}`);
  } else {
    // Exact decimal text (NUMERIC, micros, "12.340000") parses to the nearest double, as before.
    const n = Number(typeof value === 'string' ? value : String(value).trim());
    if (Number.isFinite(n)) return n;
  }
  throw new ProviderError(`${field} is not a number: ${JSON.stringify(String(value).slice(0, 40))}`);
}

const DASH = 45;
function isoDate(value: unknown): string {
  // The common case, a plain YYYY-MM-DD, without a regular expression's match array per record.
  if (typeof value === 'string' && value.length === 10 && value.charCodeAt(4) === DASH && value.charCodeAt(7) === DASH)
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const text = String(value ?? '').trim();
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  if (!match) throw new ProviderError(`date is not YYYY-MM-DD: ${JSON.stringify(text.slice(0, 40))}`);
  return match[1]!;
}

/**
 * The mapping made into one function: each field's reader built once (paths split once, absent
 * optional fields read as nothing) instead of for every record of a run.
 */
export function recordMapper(
  mapping: FieldMapping,
  defaults: MappingDefaults,
  get?: FieldReader,
): (record: unknown) => CanonicalRecord {
  const reader = (path: string | undefined): Read | undefined =>
    path === undefined ? undefined : get ? (record) => get(record, path) : pathReader(path);
  const date = reader(mapping.date)!;
  const campaignId = reader(mapping.campaign_id)!;
  const campaignName = reader(mapping.campaign_name);
  const channel = reader(mapping.channel);
  const currency = reader(mapping.currency);
  const spend = reader(mapping.spend)!;
  const impressions = reader(mapping.impressions);
  const clicks = reader(mapping.clicks);
  const conversions = reader(mapping.conversions);
  const revenue = reader(mapping.revenue);
  const text = (record: unknown, read: Read | undefined, field: string, fallback?: string): string => {
    const value = read ? read(record) : undefined;
    const out = value === undefined || value === null || value === '' ? fallback : String(value);
    if (out === undefined) throw new ProviderError(`record has no ${field}`);
    return out;
  };
  const count = (record: unknown, read: Read | undefined, field: string) => (read ? num(read(record), field, true) : 0);
  return (record) => {
    const id = text(record, campaignId, 'campaign_id');
    return {
      date: isoDate(date(record)),
      campaign_id: id,
      campaign_name: text(record, campaignName, 'campaign_name', id),
      channel: text(record, channel, 'channel', defaults.channel),
      currency: text(record, currency, 'currency', defaults.currency).toUpperCase(),
      spend: num(spend(record), 'spend', false),
      impressions: Math.round(count(record, impressions, 'impressions')),
      clicks: Math.round(count(record, clicks, 'clicks')),
      conversions: count(record, conversions, 'conversions'),
      revenue: count(record, revenue, 'revenue'),
    };
  };
}

/** A run's mapping is one parsed object: its mapper is built on the first record and kept. */
const mappers = new WeakMap<
  FieldMapping,
  { defaults: MappingDefaults; get: FieldReader | undefined; map: (record: unknown) => CanonicalRecord }
>();

export function mapRecord(
  record: unknown,
  mapping: FieldMapping,
  defaults: MappingDefaults,
  get?: FieldReader,
): CanonicalRecord {
  let built = mappers.get(mapping);
  if (!built || built.defaults !== defaults || built.get !== get) {
    built = { defaults, get, map: recordMapper(mapping, defaults, get) };
    mappers.set(mapping, built);
  }
  return built.map(record);
}

/** Whether a mapped date falls in the window (sources that cannot filter server-side). */
export function inWindow(date: string, window: { from: string; to: string }): boolean {
  return date >= window.from && date <= window.to;
}
