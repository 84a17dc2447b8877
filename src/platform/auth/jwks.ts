import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters, type FlattenedJWSInput } from 'jose';
import type { Clock } from '../clock.js';
import { ServiceUnavailableError, UnauthorizedError } from '../errors.js';
import type { Logger } from '../logger.js';

type KeyGetter = ReturnType<typeof createLocalJWKSet>;

/** While no key was ever fetched, a failed fetch is retried at most this often. */
const RETRY_UNAVAILABLE_MS = 5_000;

function unavailable(): ServiceUnavailableError {
  return new ServiceUnavailableError('jwks_unavailable', "The token issuer's keys cannot be fetched right now.", {
    hint: 'Retry in a few seconds.',
  });
}

export interface JwksCacheOptions {
  url: string;
  clock: Clock;
  log: Logger;
  /** Keys are refetched on use after this long, even when every kid is known. */
  maxAgeMs?: number;
  /** An unknown kid triggers at most one refetch per this interval (a flood of bogus kids cannot hammer the issuer). */
  cooldownMs?: number;
  fetchTimeoutMs?: number;
}

/**
 * The issuer's JWKS, fetched on first use and cached. An unknown `kid` refetches once (key
 * rotation) unless a fetch happened within the cooldown; concurrent callers share one fetch.
 * Time comes from the injected clock so tests can walk through rotation and rate limiting.
 */
export class JwksCache {
  private getter: KeyGetter | undefined;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private inflight: Promise<void> | undefined;
  private fetches = 0;
  private readonly maxAgeMs: number;
  private readonly cooldownMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: JwksCacheOptions) {
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.timeoutMs = options.fetchTimeoutMs ?? 5_000;
  }

  /** How many times the JWKS was fetched (observability; tests prove caching with it). */
  get fetchCount(): number {
    return this.fetches;
  }

  /** jose key resolver: `jwtVerify(token, cache.resolver, …)`. */
  readonly resolver = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    const now = this.options.clock.now().getTime();
    if (!this.getter && now - this.fetchedAt < RETRY_UNAVAILABLE_MS) {
      // The issuer is down and we hold no keys: answer at once instead of fetching on every request.
      throw unavailable();
    }
    if (!this.getter || now - this.fetchedAt >= this.maxAgeMs) await this.refresh(!this.getter);
    try {
      return (await this.getter!(header, token)) as CryptoKey;
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      if (this.options.clock.now().getTime() - this.fetchedAt < this.cooldownMs) throw error;
      await this.refresh(false);
      return (await this.getter!(header, token)) as CryptoKey;
    }
  };

  private refresh(required: boolean): Promise<void> {
    this.inflight ??= this.fetchKeys(required).finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async fetchKeys(required: boolean): Promise<void> {
    this.fetches += 1;
    // Counted as fetched even when it fails: the cooldown also protects an issuer that is down.
    this.fetchedAt = this.options.clock.now().getTime();
    try {
      const response = await fetch(this.options.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new Error(`JWKS answered HTTP ${response.status}`);
      const body = (await response.json()) as JSONWebKeySet;
      this.getter = createLocalJWKSet(body);
    } catch (error) {
      this.options.log.warn(
        { err: { message: (error as Error).message }, jwks: this.options.url },
        'JWKS fetch failed',
      );
      if (required && !this.getter) {
        throw unavailable();
      }
      if (!this.getter)
        throw new UnauthorizedError('invalid_token', "The token's signing key is unknown.", {
          details: { reason: 'unknown_key' },
        });
    }
  }
}
