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

function num(value: unknown, field: string, lenient: boolean): number {
  if (value === undefined || value === null || value === '') {
    if (lenient) return 0;
    throw new ProviderError(`record has no ${field}`);
  }
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n))
    throw new ProviderError(`${field} is not a number: ${JSON.stringify(String(value).slice(0, 40))}`);
  return n;
}

function isoDate(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const text = String(value ?? '').trim();
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  if (!match) throw new ProviderError(`date is not YYYY-MM-DD: ${JSON.stringify(text.slice(0, 40))}`);
  return match[1]!;
}

export function mapRecord(
  record: unknown,
  mapping: FieldMapping,
  defaults: MappingDefaults,
  get = pick,
): CanonicalRecord {
  const text = (field: keyof FieldMapping, fallback?: string): string => {
    const source = mapping[field];
    const value = source ? get(record, source) : undefined;
    const out = value === undefined || value === null || value === '' ? fallback : String(value);
    if (out === undefined) throw new ProviderError(`record has no ${field}`);
    return out;
  };
  const campaignId = text('campaign_id');
  return {
    date: isoDate(get(record, mapping.date)),
    campaign_id: campaignId,
    campaign_name: text('campaign_name', campaignId),
    channel: text('channel', defaults.channel),
    currency: text('currency', defaults.currency).toUpperCase(),
    spend: num(get(record, mapping.spend), 'spend', false),
    impressions: Math.round(num(mapping.impressions ? get(record, mapping.impressions) : 0, 'impressions', true)),
    clicks: Math.round(num(mapping.clicks ? get(record, mapping.clicks) : 0, 'clicks', true)),
    conversions: num(mapping.conversions ? get(record, mapping.conversions) : 0, 'conversions', true),
    revenue: num(mapping.revenue ? get(record, mapping.revenue) : 0, 'revenue', true),
  };
}

/** Whether a mapped date falls in the window (sources that cannot filter server-side). */
export function inWindow(date: string, window: { from: string; to: string }): boolean {
  return date >= window.from && date <= window.to;
}
