import type { OutboundStreamResponse } from '../../platform/outbound/outbound-request.js';
import { peekJson } from '../../platform/outbound/outbound-request.js';
import type { HintVerdict } from '../../platform/outbound/request-retry.js';

/**
 * The Google Ads API's failures (google.rpc.Status with a GoogleAdsFailure and a RetryInfo in
 * `details`). A quota answer says when to ask again in the body, not in Retry-After.
 */
export interface AdsStatus {
  code?: number;
  status?: string;
  message?: string;
  details?: {
    '@type'?: string;
    retryDelay?: string;
    errors?: {
      errorCode?: Record<string, string>;
      message?: string;
      details?: { quotaErrorDetails?: { retryDelay?: string } };
    }[];
  }[];
}

/** A proto Duration as JSON ("30s", "1.5s") in ms; undefined when it is not one. */
export function durationMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** RetryInfo first, then the quota error's own delay. */
export function retryDelayMs(status: AdsStatus | undefined): number | undefined {
  for (const detail of status?.details ?? [])
    if (detail['@type']?.endsWith('google.rpc.RetryInfo')) {
      const ms = durationMs(detail.retryDelay);
      if (ms !== undefined) return ms;
    }
  for (const detail of status?.details ?? [])
    for (const error of detail.errors ?? []) {
      const ms = durationMs(error.details?.quotaErrorDetails?.retryDelay);
      if (ms !== undefined) return ms;
    }
  return undefined;
}

/** The first GoogleAdsError code, `quotaError.RESOURCE_EXHAUSTED`, and its message. */
export function adsErrorCode(status: AdsStatus | undefined): { code: string; message: string } | undefined {
  for (const detail of status?.details ?? [])
    for (const error of detail.errors ?? []) {
      const [kind, value] = Object.entries(error.errorCode ?? {})[0] ?? [];
      if (kind) return { code: `${kind}.${value}`, message: (error.message ?? '').slice(0, 200) };
    }
  return undefined;
}

const statusOf = (body: unknown): AdsStatus | undefined => {
  const top = Array.isArray(body) ? body.find((e) => e && typeof e === 'object' && 'error' in e) : body;
  return (top as { error?: AdsStatus } | undefined)?.error;
};

export async function adsStatusOf(res: OutboundStreamResponse): Promise<AdsStatus | undefined> {
  return statusOf(await peekJson(res));
}

const RETRIED = new Set(['RESOURCE_EXHAUSTED', 'RESOURCE_TEMPORARILY_EXHAUSTED', 'UNAVAILABLE', 'INTERNAL']);

/** 429 and 5xx wait as the body says; every other failure is final (asking again changes nothing). */
export async function adsHint(res: OutboundStreamResponse): Promise<HintVerdict> {
  if (res.status < 400 || res.status === 401) return undefined;
  const status = await adsStatusOf(res);
  if (status?.status && RETRIED.has(status.status)) {
    const waitMs = retryDelayMs(status);
    return waitMs === undefined ? { retry: true } : { retry: true, waitMs };
  }
  return res.status >= 500 ? { retry: true } : { final: true };
}

export { statusOf as adsStatusOfBody };
