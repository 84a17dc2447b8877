import type { ZodType } from 'zod';
import type { Clock } from '../../platform/clock.js';
import type { OutboundPolicy } from '../../platform/outbound/address-policy.js';
import { OutboundError } from '../../platform/outbound/outbound-http.js';
import { realSleep, type RetrySettings, type Sleeper } from '../../platform/outbound/request-retry.js';

/** The canonical ad-performance record every provider maps its rows to (one campaign-day). */
export interface CanonicalRecord {
  date: string; // YYYY-MM-DD
  campaign_id: string;
  campaign_name: string;
  channel: string;
  currency: string; // ISO 4217, the currency spend and revenue are in
  spend: number;
  impressions: number;
  clicks: number;
  conversions: number;
  revenue: number;
}

/** Inclusive date window, YYYY-MM-DD. */
export interface DateWindow {
  from: string;
  to: string;
}

export interface CheckResult {
  ok: boolean;
  ms: number;
  reason: string | null;
}

export type ConnectionStatus = 'active' | 'error' | 'expired' | 'revoked';

export interface VerifyOutcome {
  status: ConnectionStatus;
  token_check: CheckResult;
  connectivity: CheckResult;
}

/** How a provider reaches its source: under the outbound policy, with per-request retries. */
export interface SourceOutbound {
  policy: OutboundPolicy;
  retry: RetrySettings;
  sleep: Sleeper;
}

/**
 * Where an OAuth connection's access token comes from: the token manager (its own token endpoint)
 * or Nango. `current` is cached until shortly before it expires; `renew` is called once after the
 * source refused `rejected`, and answers a token another run already refreshed when there is one.
 */
export interface AccessTokens {
  readonly source: 'stored' | 'nango';
  current(): Promise<string>;
  renew(rejected: string): Promise<string>;
  /** Verify's token check: a token asked for now, not a cached one. */
  check(): Promise<string>;
}

/**
 * A run's sleeper that keeps count: every wait the source asked for (RetryInfo, Retry-After,
 * backoff after a throttle, a usage-header pause) adds the milliseconds it asked to wait.
 */
export function countedSleep(sleep: Sleeper): { sleep: Sleeper; waitedMs(): number } {
  let waited = 0;
  return {
    sleep: async (ms, signal) => {
      await sleep(ms, signal);
      waited += ms;
    },
    waitedMs: () => waited,
  };
}

/** The defaults: private networks refused, 5 tries and 5 minutes per request, real waiting. */
export function defaultSourceOutbound(): SourceOutbound {
  return {
    policy: { allowPrivate: false, setting: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' },
    retry: { maxTries: 5, maxWaitMs: 300_000, baseDelayMs: 1000 },
    sleep: realSleep,
  };
}

/** What a provider call gets: the connection's settings and (decrypted, in memory only) secrets. */
export interface ProviderContext<C = Record<string, unknown>, S = Record<string, unknown>> {
  config: C;
  secrets: S;
  dataDir: string;
  clock: Clock;
  signal?: AbortSignal;
  outbound: SourceOutbound;
  /** Set for connections that use OAuth (own token endpoint or Nango). */
  tokens?: AccessTokens;
}

/** The OAuth settings of a connection that gets its tokens from its own token endpoint. */
export interface OAuthSettings {
  /** For `jwt_bearer`, optional: the service account key names its own (`token_uri`). */
  token_url?: string | undefined;
  /** `jwt_bearer`: a service account's signed assertion (RFC 7523), no client secret. */
  grant_type: 'refresh_token' | 'client_credentials' | 'jwt_bearer';
  scope?: string | undefined;
  /** Client credentials in a Basic header (RFC 6749 §2.3.1's preferred way) or in the form body. */
  token_auth: 'basic' | 'body';
  timeout_ms: number;
}

/** A URL or host of a connection, judged by the outbound policy when the connection is saved. */
export type OutboundTarget = { path: string; url: string } | { path: string; host: string };

/**
 * One built-in source. `fetch` streams the window's source records (never the whole window in
 * memory); `toCanonical` maps one of them to the canonical schema. Bad configuration is caught by
 * the schemas when the connection is created, before anything is stored.
 */
export interface Provider<C = Record<string, unknown>, S = Record<string, unknown>, R = unknown> {
  readonly name: string;
  readonly description: string;
  readonly configSchema: ZodType<C>;
  readonly secretsSchema: ZodType<S>;
  /** Whether the connection may take its credentials from Nango (`config.nango`). */
  readonly nango?: boolean;
  /**
   * What a Nango connection still stores here (Google Ads' developer token is no part of the OAuth
   * grant Nango holds); without it a Nango connection stores no secrets.
   */
  readonly nangoSecretsSchema?: ZodType<Partial<S>>;
  /** The token endpoint settings, for connections that get tokens themselves. */
  oauth?(config: C): OAuthSettings | undefined;
  /**
   * Problems of a parsed configuration that only the service's surroundings show (a path that
   * leaves DATA_DIR through a symlink), checked when the connection is saved: `path` is the field
   * under `config`.
   */
  configProblems?(config: C, env: { dataDir: string }): Promise<{ path: string; message: string }[]>;
  /** What the connection will reach, for the checks that need no resolver (at creation). */
  outboundTargets?(config: C, secrets: Partial<S>): OutboundTarget[];
  verify(ctx: ProviderContext<C, S>): Promise<VerifyOutcome>;
  fetch(ctx: ProviderContext<C, S>, window: DateWindow): AsyncIterable<R>;
  toCanonical(record: R, ctx: ProviderContext<C, S>): CanonicalRecord;
}

// Providers of different config types live side by side in the registry; each is checked where it
// is defined.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyProvider = Provider<any, any, any>;

/** Times one check and turns a thrown error into a clear reason (never a stack or secret). */
export async function timed(
  // biome-ignore lint/suspicious/noConfusingVoidType: a check that finds nothing to report returns nothing
  check: () => Promise<string | null | void>,
  explain: (error: unknown) => string,
): Promise<CheckResult> {
  const started = performance.now();
  try {
    const note = await check();
    return { ok: true, ms: Math.round(performance.now() - started), reason: note ?? null };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), reason: explain(error) };
  }
}

/** A failure a provider explains itself: the message is safe to show. */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** `expired` when the source says the grant is no longer valid. */
    readonly status: ConnectionStatus = 'error',
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export function explainError(error: unknown): string {
  if (error instanceof ProviderError) return error.message;
  return explainNetworkError(error);
}

/** Node/undici network failures → the words an operator needs: timeout, DNS, TLS, refused. */
export function explainNetworkError(error: unknown): string {
  // The outbound module's own words (a policy refusal above all) are already safe and complete.
  if (error instanceof OutboundError) return error.message;
  const err = error as { name?: string; code?: string; cause?: { code?: string; name?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError' || err?.name === 'AbortError')
    return 'timeout: no answer within the time limit';
  const code = err?.cause?.code ?? err?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return `DNS: the host name could not be resolved (${code})`;
  if (err?.cause?.message === 'bad port')
    return 'the port is one that HTTP clients refuse to use (fetch "bad port"); use another port';
  if (code === 'ECONNREFUSED') return 'connection refused: nothing listens at that address';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the server';
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code))
    return `TLS: the certificate could not be verified (${code})`;
  if (code === '28P01' || code === '28000') return 'authentication failed: the database refused the credentials';
  if (code === '3D000') return 'the database does not exist';
  if (code === '25006') return 'the query tried to write; only read-only queries are allowed';
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return `the database rejected the query (SQLSTATE ${code})`;
  return code ? `network error (${code})` : 'the source could not be reached';
}

/** A connection's token source; a provider that needs one and has none cannot call its platform. */
export function tokensOf(ctx: { tokens?: AccessTokens | undefined }): AccessTokens {
  if (!ctx.tokens) throw new ProviderError('no token source for this connection');
  return ctx.tokens;
}

/**
 * Verify's token step for an OAuth source: asks for a fresh token, and says whether one was issued
 * (so connectivity is worth trying) and whether the source called the grant expired.
 */
export async function checkAccessToken(
  ctx: { tokens?: AccessTokens | undefined },
  issuedNote: string,
  explain: (error: unknown) => string,
): Promise<{ result: CheckResult; issued: boolean; expired: boolean }> {
  let issued = false;
  let expired = false;
  const result = await timed(async () => {
    try {
      await tokensOf(ctx).check();
      issued = true;
    } catch (error) {
      expired = error instanceof ProviderError && error.status === 'expired';
      throw error;
    }
    return ctx.tokens?.source === 'nango' ? 'access token from Nango' : issuedNote;
  }, explain);
  return { result, issued, expired };
}
