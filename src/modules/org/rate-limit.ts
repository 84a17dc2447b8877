import type { Actor } from '../../platform/auth/actor.js';
import type { Clock } from '../../platform/clock.js';
import { RateLimitedError } from '../../platform/errors.js';

const WINDOW_MS = 60_000;
/** Bounds memory when many identities call once: windows that ended are swept at this size. */
const SWEEP_AT = 10_000;

/**
 * Per-identity request budget (api_requests_per_minute): a fixed one-minute window per subject,
 * counted in this process. With several replicas each enforces the budget for the traffic it
 * sees; a proxy in front can enforce a global one.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limitPerMinute: () => Promise<number>,
  ) {}

  async check(actor: Actor): Promise<void> {
    const limit = await this.limitPerMinute();
    const now = this.clock.now().getTime();
    const start = now - (now % WINDOW_MS);
    let window = this.windows.get(actor.subject);
    if (!window || window.start !== start) {
      if (this.windows.size >= SWEEP_AT) this.sweep(start);
      window = { start, count: 0 };
      this.windows.set(actor.subject, window);
    }
    window.count += 1;
    if (window.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000));
      throw new RateLimitedError(
        retryAfter,
        `More than ${limit} requests this minute for this identity; retry in ${retryAfter} s.`,
      );
    }
  }

  private sweep(currentStart: number): void {
    for (const [subject, window] of this.windows) if (window.start !== currentStart) this.windows.delete(subject);
  }
}
