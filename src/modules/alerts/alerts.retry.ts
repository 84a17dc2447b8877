/** When to try a message again (ALERTS_RETRY_BASE_SECONDS, ALERTS_MAX_ATTEMPTS). */
export interface RetryPolicy {
  baseSeconds: number;
  maxAttempts: number;
}

/** No backoff step waits longer than this. */
export const MAX_BACKOFF_SECONDS = 3600;
/** A Retry-After beyond this is taken as this (a receiver asking for a week is not waited for). */
export const MAX_RETRY_AFTER_SECONDS = 6 * 3600;

/**
 * Exponential backoff with equal jitter after failed attempt `attempt` (1-based): the step doubles
 * (base, 2·base, 4·base… capped), and the wait is a random point in its upper half, so receivers
 * that failed together are not retried together and no wait is shorter than half a step.
 */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(MAX_BACKOFF_SECONDS, policy.baseSeconds * 2 ** Math.max(0, attempt - 1)) * 1000;
  return Math.round(step / 2 + random() * (step / 2));
}

/** The wait before the next attempt: what the receiver asked for (Retry-After), else the backoff. */
export function nextDelayMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random?: () => number,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_SECONDS * 1000);
  return backoffMs(attempt, policy, random);
}
