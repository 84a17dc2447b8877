import {
  excerptOf,
  OutboundError,
  type OutboundOptions,
  postOutbound,
} from '../../../platform/outbound/outbound-http.js';
import type { MessagePayload } from '../alerts.content.js';
import type { DestinationKind } from '../alerts.schemas.js';

/** One message to send through one destination (secrets decrypted for this attempt only). */
export interface Outgoing {
  /** The message id: the webhook-id, the same on every attempt. */
  id: string;
  payload: MessagePayload;
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
  /**
   * This attempt's wall-clock time: the webhook-timestamp, which receivers compare with their own
   * clock against replays, and the base of an HTTP-date Retry-After. Not business time.
   */
  sentAt: Date;
  outbound: OutboundOptions;
}

/**
 * How an attempt ended: `delivered`; `retry` (the receiver or the network may do better later:
 * timeouts, connection errors, 408, 425, 429, 5xx); `permanent` (retrying cannot help: a refused
 * address, a redirect, another 4xx, a rejected login).
 */
export interface SendResult {
  outcome: 'delivered' | 'retry' | 'permanent';
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
  /** Retry-After of a 429 or 503, in milliseconds from now. */
  retryAfterMs?: number;
}

export interface Sender {
  readonly kind: DestinationKind;
  send(out: Outgoing): Promise<SendResult>;
}

const RETRYABLE_STATUSES = new Set([408, 425, 429]);

/** POSTs JSON through the outbound guard and classifies the answer. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  out: Outgoing,
): Promise<SendResult> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  try {
    const res = await postOutbound(
      url,
      {
        headers: { 'content-type': 'application/json', 'user-agent': 'context-hub-alerts/1', ...headers },
        body: text,
      },
      out.outbound,
    );
    const excerpt = excerptOf(res.body);
    const base = { httpStatus: res.status, latencyMs: res.latencyMs, excerpt: excerpt || null };
    if (res.status >= 200 && res.status < 300) return { ...base, outcome: 'delivered', error: null };
    if (res.status >= 300 && res.status < 400)
      return {
        ...base,
        outcome: 'permanent',
        error: `the receiver answered ${res.status} (a redirect); redirects are not followed: use the final URL`,
      };
    const retryAfterMs =
      res.status === 429 || res.status === 503 ? retryAfterMsOf(res.headers['retry-after'], out.sentAt) : undefined;
    if (res.status >= 500 || RETRYABLE_STATUSES.has(res.status))
      return { ...base, outcome: 'retry', error: `the receiver answered ${res.status}`, retryAfterMs };
    return { ...base, outcome: 'permanent', error: `the receiver refused the message (${res.status})` };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return {
      outcome: error.kind === 'refused' || error.kind === 'invalid_url' ? 'permanent' : 'retry',
      httpStatus: null,
      latencyMs: error.latencyMs,
      error: error.message,
      excerpt: null,
    };
  }
}

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMsOf(header: string | string[] | undefined, now: Date): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
