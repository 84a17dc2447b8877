import type { IncomingHttpHeaders } from 'node:http';
import { type OutboundStreamResponse, peekJson } from '../../platform/outbound/outbound-request.js';
import type { HintVerdict } from '../../platform/outbound/request-retry.js';

/**
 * Meta's rate limiting, read from what each answer carries: the usage headers (JSON, percentages
 * of the budget and the time until access is regained) and, once throttled, error codes in a 400
 * body. The reader slows down as usage climbs, before the platform throttles it.
 */
interface Usage {
  pct: number;
  /** The longest wait any header names, in ms. */
  regainMs: number;
}

function parse(header: string | string[] | undefined): unknown {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // an unreadable header says nothing
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function usageOf(headers: IncomingHttpHeaders): Usage {
  let pct = 0;
  let regainMs = 0;
  const business = parse(headers['x-business-use-case-usage']);
  if (business && typeof business === 'object')
    for (const entries of Object.values(business as Record<string, unknown>))
      for (const e of Array.isArray(entries) ? (entries as Record<string, unknown>[]) : []) {
        pct = Math.max(pct, num(e.call_count), num(e.total_cputime), num(e.total_time));
        regainMs = Math.max(regainMs, num(e.estimated_time_to_regain_access) * 60_000);
      }
  const account = parse(headers['x-ad-account-usage']) as Record<string, unknown> | undefined;
  if (account && typeof account === 'object') {
    pct = Math.max(pct, num(account.acc_id_util_pct));
    regainMs = Math.max(regainMs, num(account.reset_time_duration) * 1000);
  }
  for (const name of ['x-app-usage', 'x-fb-ads-insights-throttle']) {
    const value = parse(headers[name]) as Record<string, unknown> | undefined;
    if (value && typeof value === 'object')
      for (const v of Object.values(value)) if (typeof v === 'number') pct = Math.max(pct, v);
  }
  return { pct, regainMs };
}

/** How long to pause after an answer: none below 75 %, then more the closer usage is to 100 %. */
export function slowDownMs(headers: IncomingHttpHeaders): number {
  const { pct, regainMs } = usageOf(headers);
  if (pct >= 90) return Math.max(regainMs, 10_000);
  if (pct >= 75) return Math.round(((pct - 75) / 15) * 10_000);
  return 0;
}

export interface MetaError {
  code?: number;
  error_subcode?: number;
  message?: string;
  type?: string;
}

/** Throttles: app, user, page, ad account, and the ads_insights business use case. */
const THROTTLES = new Set([4, 17, 32, 613, 80000, 80004]);
export const EXPIRED_TOKEN = 190;

export function metaErrorOf(body: unknown): MetaError | undefined {
  const error = (body as { error?: MetaError } | undefined)?.error;
  return error && typeof error === 'object' ? error : undefined;
}

/** A throttle (Meta answers it as 400) waits as the headers say; other errors are final. */
export async function metaHint(res: OutboundStreamResponse): Promise<HintVerdict> {
  if (res.status < 400) return undefined;
  const error = metaErrorOf(await peekJson(res));
  if (error?.code !== undefined && THROTTLES.has(error.code)) {
    const { regainMs } = usageOf(res.headers);
    return regainMs > 0 ? { retry: true, waitMs: regainMs } : { retry: true };
  }
  return res.status >= 500 ? { retry: true } : { final: true };
}
