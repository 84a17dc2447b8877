import type { Clock } from '../clock.js';
import { OutboundError } from './outbound-http.js';
import type { OutboundStreamResponse } from './outbound-request.js';
import { discard } from './outbound-request.js';

/**
 * Retries of one request (a page), not of the run: a 429 or 503 waits as long as `Retry-After`
 * says (seconds or an HTTP date) and asks for the same page again; a reset connection or a timeout
 * waits an exponential backoff with jitter. Both stop at `maxTries` tries or when the next wait
 * would take the total past `maxWaitMs`; then the last answer (or error) is the caller's to report.
 */
export interface RetrySettings {
  maxTries: number;
  maxWaitMs: number;
  baseDelayMs: number;
}

/** Waits `ms` (tests pass one that records and returns at once); rejects when `signal` aborts. */
export type Sleeper = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleeper = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });

export type HintVerdict = { retry: true; waitMs?: number } | { final: true } | undefined;

/**
 * A source's own reading of an answer: `retry` with a wait in ms (Google's `retryDelay`, Meta's
 * usage headers), `final` for an answer that must not be retried, or undefined to let the
 * standard rules (429/503 and Retry-After) decide. It may be async: Google and Meta say in the
 * body, not the headers, whether and when to ask again (`peekJson` reads it and keeps it readable).
 */
export type RetryHint = (res: OutboundStreamResponse) => HintVerdict | Promise<HintVerdict>;

export interface RetryOptions extends RetrySettings {
  clock: Clock;
  sleep: Sleeper;
  signal?: AbortSignal;
  hint?: RetryHint;
  random?: () => number;
}

export interface RetriedResponse {
  res: OutboundStreamResponse;
  tries: number;
  /** The tries ran out (or the wait bound): `res` is the last, still failing, answer. */
  exhausted: boolean;
}

const RETRIED_STATUSES = new Set([429, 503]);

export async function withRetries(
  attempt: () => Promise<OutboundStreamResponse>,
  options: RetryOptions,
): Promise<RetriedResponse> {
  let waited = 0;
  const random = options.random ?? Math.random;
  for (let tries = 1; ; tries += 1) {
    let wait: number;
    let res: OutboundStreamResponse | undefined;
    try {
      res = await attempt();
    } catch (error) {
      if (!(error instanceof OutboundError) || (error.kind !== 'network' && error.kind !== 'timeout')) throw error;
      wait = backoff(options.baseDelayMs, tries, random);
      if (tries >= options.maxTries || waited + wait > options.maxWaitMs)
        throw new OutboundError(error.kind, `${error.message} (after ${tries} ${tries === 1 ? 'try' : 'tries'})`, 0);
      waited += wait;
      await options.sleep(wait, options.signal);
      continue;
    }
    const hinted = await options.hint?.(res);
    if (hinted && 'final' in hinted) return { res, tries, exhausted: false };
    if (!hinted && !RETRIED_STATUSES.has(res.status)) return { res, tries, exhausted: false };
    wait =
      hinted?.waitMs ??
      retryAfterMs(res.headers['retry-after'], options.clock) ??
      backoff(options.baseDelayMs, tries, random);
    if (tries >= options.maxTries || waited + wait > options.maxWaitMs) return { res, tries, exhausted: true };
    discard(res);
    waited += wait;
    await options.sleep(wait, options.signal);
  }
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined if neither. */
export function retryAfterMs(header: string | string[] | undefined, clock: Clock): number | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - clock.now().getTime());
}

/** base·2^(n-1), at most a minute, with jitter: somewhere in its upper half. */
function backoff(baseMs: number, tries: number, random: () => number): number {
  const full = Math.min(60_000, baseMs * 2 ** (tries - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}
