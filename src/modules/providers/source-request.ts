import { OutboundError } from '../../platform/outbound/outbound-http.js';
import { outboundRequest, type OutboundStreamResponse } from '../../platform/outbound/outbound-request.js';
import { type RetriedResponse, type RetryHint, withRetries } from '../../platform/outbound/request-retry.js';
import { ProviderError, type ProviderContext } from './provider.js';

/**
 * One request of a provider to its source: under the outbound policy, retried as a request (429,
 * 503, resets, timeouts) within the configured bound. `what` names the request in every failure
 * ("page 3 of 2026-05-01..2026-05-31"), so a failed run says which page it stopped at.
 */
export async function sourceRequest(
  ctx: Pick<ProviderContext, 'outbound' | 'clock' | 'signal'>,
  url: string | URL,
  request: {
    what: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    timeoutMs: number;
    hint?: RetryHint;
  },
): Promise<RetriedResponse> {
  try {
    return await withRetries(
      () =>
        outboundRequest(String(url), {
          method: request.method,
          headers: request.headers,
          body: request.body,
          policy: ctx.outbound.policy,
          timeoutMs: request.timeoutMs,
          signal: ctx.signal,
        }),
      { ...ctx.outbound.retry, clock: ctx.clock, sleep: ctx.outbound.sleep, signal: ctx.signal, hint: request.hint },
    );
  } catch (error) {
    if (error instanceof OutboundError)
      // A policy refusal is told on its own: the same words whatever the request was.
      throw new ProviderError(
        error.kind === 'refused' || error.kind === 'unresolved' ? error.message : `${request.what}: ${error.message}`,
      );
    throw error;
  }
}

/** "HTTP 429 … after 5 tries" when the retries ran out, so the log says why the page failed. */
export function statusFailure(what: string, source: string, answer: RetriedResponse, extra = ''): string {
  const tries = answer.exhausted ? ` after ${answer.tries} tries` : '';
  return `${what}: HTTP ${answer.res.status} from ${source}${tries}${extra}`;
}

export type { OutboundStreamResponse };

/**
 * A request started before its answer is wanted (the next page, while this one is mapped and
 * written): its failure is kept for whoever awaits it, not reported as unhandled meanwhile, and
 * dropped if the run stops first. One such request at a time keeps memory to two pages.
 */
export function ahead<T>(request: Promise<T>): Promise<T> {
  request.catch(() => undefined);
  return request;
}
