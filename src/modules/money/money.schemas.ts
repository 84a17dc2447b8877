import { z } from 'zod';
import { CalendarDate } from '../../platform/calendar.js';

/** A 3-letter code in any case; whether it is supported is the service's answer (it lists the codes). */
export const CurrencyInput = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 4217 code such as USD or EUR')
  .transform((s) => s.toUpperCase());

export const RatesQuery = z
  .object({
    base: CurrencyInput.default('EUR').describe(
      'Currency the rates are quoted against (1 base = rate × CODE). Default EUR.',
    ),
    date: CalendarDate.optional().describe(
      'YYYY-MM-DD; default today (UTC). Weekends and holidays answer the last publication before.',
    ),
    symbols: z
      .string()
      .optional()
      .describe('Comma-separated codes to answer (default: every currency quoted that day).')
      .transform((s, ctx) => {
        if (s === undefined) return undefined;
        const codes = s
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean);
        const bad = codes.filter((c) => !/^[A-Za-z]{3}$/.test(c));
        for (const c of bad) ctx.addIssue({ code: 'custom', message: `"${c}" is not a 3-letter ISO 4217 code` });
        // An empty list (symbols=) means no restriction, like leaving it out.
        return codes.length ? codes.map((c) => c.toUpperCase()) : undefined;
      }),
  })
  .strict();
export type RatesQuery = z.infer<typeof RatesQuery>;

export const RatesToolInput = z
  .object({
    base: CurrencyInput.default('EUR').describe('1 base = rate units of each code.'),
    date: CalendarDate.optional().describe('Default: today (UTC).'),
    symbols: z.array(CurrencyInput).max(60).optional().describe('Only these codes (default: all).'),
  })
  .strict();

export interface RatesRequest {
  base: string;
  date?: string | undefined;
  symbols?: string[] | undefined;
}

export const RatesShape = {
  base: z.string().describe('The base currency: each rate is units of CODE per 1 base.'),
  rate_date: z
    .string()
    .describe('The ECB publication day the rates come from (the last one on or before requested_date).'),
  requested_date: z.string(),
  source: z.string(),
  stale: z.boolean().describe('True when rate_date is more than 14 days before requested_date.'),
  rates: z.record(z.string(), z.number()),
};
export const RatesOutput = z.object(RatesShape);
export type RatesOutput = z.infer<typeof RatesOutput>;

export const RefreshOutput = z.object({
  source: z.string(),
  format: z.enum(['xml', 'csv', 'csv-zip']),
  days_in_feed: z.number().int(),
  first_date: z.string(),
  last_date: z.string(),
  rates_in_feed: z.number().int(),
  rates_added: z.number().int(),
  rates_already_stored: z
    .number()
    .int()
    .describe('Rates the store already had for those days; stored rates are never rewritten.'),
  rates_differing_kept: z
    .number()
    .int()
    .describe('Of those, how many the feed states differently (the stored value was kept).'),
  latest_rate_date: z.string(),
});
export type RefreshOutput = z.infer<typeof RefreshOutput>;

/**
 * How old a rate may be before an answer says stale: more than 14 days, longer than any gap
 * between two ECB publication days.
 */
export const STALE_AFTER_DAYS = 14;
