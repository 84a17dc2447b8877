import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError } from './errors.js';

export type AuthMode = 'disabled' | 'static' | 'oauth';
export type HostValidationMode = 'auto' | 'strict' | 'off';

/** Every environment variable the service reads, parsed once at start. Names are part of the contract. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  authMode: AuthMode;
  staticToken: string | undefined;
  oauthIssuer: string | undefined;
  /** OAUTH_AUDIENCE, comma-separated: a token's `aud` must name at least one of them. */
  oauthAudience: string[];
  oauthJwksUrl: string | undefined;
  oauthPublicKey: string | undefined;
  /** CONSOLE_OAUTH_CLIENT_ID: the console's public client at OAUTH_ISSUER (authorization code + PKCE). */
  consoleOauthClientId: string | undefined;
  hostHeaderValidation: HostValidationMode;
  allowedHosts: string[];
  /** PUBLIC_BASE_URL without a trailing slash: the origin (and path prefix) every advertised URL uses. */
  publicBaseUrl: string | undefined;
  /** TRUSTED_PROXIES: addresses, CIDRs or proxy-addr range names whose X-Forwarded-* headers are believed. */
  trustedProxies: string[];
  allowedOrigins: string[] | undefined;
  schedulerEnabled: boolean;
  schedulerNightlyHour: number;
  schedulerTimezone: string;
  serveWorkers: boolean;
  secretsKey: string | undefined;
  fxRatesUrl: string;
  connectorServiceUrl: string | undefined;
  envelopeInlineBytes: number;
  searchCacheEntries: number;
  mcpLiveSessions: number;
  mcpConformanceFixtures: boolean;
  orgOwnerSubject: string | undefined;
  logLevel: string;
  /** ALERTS_ALLOW_PRIVATE_NETWORKS: alert destinations may resolve to loopback and private addresses. */
  alertsAllowPrivateNetworks: boolean;
  /** ALERTS_MAX_ATTEMPTS: attempts per alert message before it is dead-lettered. */
  alertsMaxAttempts: number;
  /** ALERTS_RETRY_BASE_SECONDS: the first retry's delay; doubled per attempt (with jitter), at most an hour. */
  alertsRetryBaseSeconds: number;
  /** ALERTS_TIMEOUT_SECONDS: one delivery attempt, answer included. */
  alertsTimeoutSeconds: number;
  /**
   * JOBS_SUPERVISE_SECONDS: how often the jobs supervisor fails the jobs of a process that died
   * (stale heartbeat) or ran out of time, and how often a process reads the queues' state again.
   * Unset: a pass every 15 s that checks each queue at most once a minute, the state read once a
   * minute (pg-boss's defaults); a value: all at that interval (tests use 1).
   */
  jobsSuperviseSeconds: number | undefined;
  /** DATASTREAM_RETRY_BASE_SECONDS: a failed run's first retry delay; doubled per retry with jitter, at most 15 min. */
  datastreamRetryBaseSeconds: number;
  /**
   * OUTBOUND_ALLOW_PRIVATE_NETWORKS: what connectors fetch (exports, APIs, token endpoints,
   * database hosts) may resolve to loopback, private and link-local addresses and use plain http.
   */
  outboundAllowPrivateNetworks: boolean;
  /** OUTBOUND_RETRY_MAX_TRIES: tries of one source request (a page) on 429/503 and transient errors. */
  outboundRetryMaxTries: number;
  /** OUTBOUND_RETRY_MAX_SECONDS: the longest total wait between the tries of one request. */
  outboundRetryMaxSeconds: number;
  /** OUTBOUND_RETRY_BASE_MS: the first backoff after a reset or timeout; doubled per try, with jitter. */
  outboundRetryBaseMs: number;
  /** NANGO_URL without a trailing slash: the connector-integration service connections may take credentials from. */
  nangoUrl: string | undefined;
  /** NANGO_SECRET_KEY: the Nango environment's secret key (Bearer); never logged, never answered. */
  nangoSecretKey: string | undefined;
  /** NANGO_WEBHOOK_SIGNING_KEY: verifies X-Nango-Hmac-Sha256; Nango's SDK falls back to the secret key, so do we. */
  nangoWebhookSigningKey: string | undefined;
}

export const DEFAULT_FX_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

type Env = Record<string, string | undefined>;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(name, raw, `one of ${allowed.join(', ')}`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, raw, 'true or false');
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const parsed = new URL(raw);
    if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
    return raw;
  } catch {
    throw new ConfigError(name, raw.replace(/\/\/[^@/]*@/, '//***@'), `a URL with scheme ${protocols.join(' or ')}`);
  }
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * PUBLIC_BASE_URL: where clients reach the service (e.g. https://hub.example.com or
 * https://example.com/hub). Advertised URLs are built from it, never from the request.
 */
function publicBase(env: Env): string | undefined {
  const raw = env.PUBLIC_BASE_URL;
  if (raw === undefined || raw === '') return undefined;
  const allowed = 'an http(s) URL without credentials, query or fragment, e.g. https://hub.example.com';
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL', raw, allowed);
  }
  if (
    !['http:', 'https:'].includes(parsed.protocol) ||
    parsed.username ||
    parsed.password ||
    parsed.search ||
    parsed.hash
  )
    throw new ConfigError('PUBLIC_BASE_URL', raw, allowed);
  if (raw.includes('?') || raw.includes('#')) throw new ConfigError('PUBLIC_BASE_URL', raw, allowed);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** The range names Fastify's trustProxy (proxy-addr) understands besides addresses and CIDRs. */
export const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

function isProxyEntry(entry: string): boolean {
  if ((PROXY_RANGE_NAMES as readonly string[]).includes(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const authMode = oneOf(env, 'SERVICE_AUTH_MODE', ['disabled', 'static', 'oauth'] as const, 'disabled');
  const staticToken = env.SERVICE_STATIC_TOKEN || undefined;
  if (authMode === 'static' && (!staticToken || staticToken.length < 32)) {
    throw new ConfigError(
      'SERVICE_STATIC_TOKEN',
      staticToken,
      'required with SERVICE_AUTH_MODE=static, at least 32 characters',
    );
  }
  const oauthIssuer = env.OAUTH_ISSUER || undefined;
  const oauthAudience = list(env.OAUTH_AUDIENCE);
  const oauthJwksUrl = url(env, 'OAUTH_JWKS_URL', ['http:', 'https:']);
  const oauthPublicKey = env.OAUTH_PUBLIC_KEY || undefined;
  if (authMode === 'oauth') {
    if (!oauthIssuer) throw new ConfigError('OAUTH_ISSUER', undefined, 'required with SERVICE_AUTH_MODE=oauth');
    if (oauthAudience.length === 0)
      throw new ConfigError(
        'OAUTH_AUDIENCE',
        env.OAUTH_AUDIENCE,
        'required with SERVICE_AUTH_MODE=oauth: the resource URL(s) tokens are issued for, comma-separated',
      );
    if (!oauthJwksUrl && !oauthPublicKey) {
      throw new ConfigError(
        'OAUTH_JWKS_URL',
        undefined,
        'OAUTH_JWKS_URL or OAUTH_PUBLIC_KEY is required with SERVICE_AUTH_MODE=oauth',
      );
    }
  }
  const hostHeaderValidation = oneOf(env, 'HOST_HEADER_VALIDATION', ['auto', 'strict', 'off'] as const, 'auto');
  const allowedHosts = list(env.ALLOWED_HOST).map((h) => h.toLowerCase());
  if (hostHeaderValidation === 'strict' && allowedHosts.length === 0) {
    throw new ConfigError(
      'ALLOWED_HOST',
      env.ALLOWED_HOST,
      'a comma-separated host[:port] list, required with HOST_HEADER_VALIDATION=strict',
    );
  }
  const publicBaseUrl = publicBase(env);
  const trustedProxies = list(env.TRUSTED_PROXIES);
  const badProxy = trustedProxies.find((entry) => !isProxyEntry(entry));
  if (badProxy !== undefined) {
    throw new ConfigError(
      'TRUSTED_PROXIES',
      env.TRUSTED_PROXIES,
      `a comma-separated list of IP addresses, CIDRs (10.0.0.0/8) or ${PROXY_RANGE_NAMES.join(', ')}; ` +
        `"${badProxy}" is none`,
    );
  }
  const schedulerTimezone = env.SCHEDULER_TIMEZONE || 'UTC';
  if (!isValidTimeZone(schedulerTimezone)) {
    throw new ConfigError('SCHEDULER_TIMEZONE', schedulerTimezone, 'an IANA time zone such as UTC or Europe/Berlin');
  }
  const secretsKey = env.SECRETS_KEY || undefined;
  if (secretsKey !== undefined && Buffer.from(secretsKey, 'base64').length !== 32) {
    throw new ConfigError('SECRETS_KEY', secretsKey, '32 bytes, base64-encoded (openssl rand -base64 32)');
  }
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const allowedOrigins =
    env.ALLOWED_ORIGINS === undefined || env.ALLOWED_ORIGINS === '' ? undefined : list(env.ALLOWED_ORIGINS);
  return {
    port: integer(env, 'PORT', 8000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    authMode,
    staticToken,
    oauthIssuer,
    oauthAudience,
    oauthJwksUrl,
    oauthPublicKey,
    consoleOauthClientId: env.CONSOLE_OAUTH_CLIENT_ID || undefined,
    hostHeaderValidation,
    allowedHosts,
    publicBaseUrl,
    trustedProxies,
    allowedOrigins,
    schedulerEnabled: bool(env, 'SCHEDULER_ENABLED', false),
    schedulerNightlyHour: integer(env, 'SCHEDULER_NIGHTLY_HOUR', 3, 0, 23),
    schedulerTimezone,
    serveWorkers: bool(env, 'SERVE_WORKERS', true),
    secretsKey,
    fxRatesUrl: url(env, 'FX_RATES_URL', ['http:', 'https:', 'file:']) ?? DEFAULT_FX_RATES_URL,
    connectorServiceUrl: env.CONNECTOR_SERVICE_URL || undefined,
    envelopeInlineBytes: integer(env, 'ENVELOPE_INLINE_BYTES', 4096, 64, 64 * 1024 * 1024),
    searchCacheEntries: integer(env, 'SEARCH_CACHE_ENTRIES', 2000, 0, 1_000_000),
    mcpLiveSessions: integer(env, 'MCP_LIVE_SESSIONS', 1000, 1, 1_000_000),
    mcpConformanceFixtures: bool(env, 'MCP_CONFORMANCE_FIXTURES', false),
    orgOwnerSubject: env.ORG_OWNER_SUBJECT || undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    alertsAllowPrivateNetworks: bool(env, 'ALERTS_ALLOW_PRIVATE_NETWORKS', false),
    alertsMaxAttempts: integer(env, 'ALERTS_MAX_ATTEMPTS', 8, 1, 50),
    alertsRetryBaseSeconds: integer(env, 'ALERTS_RETRY_BASE_SECONDS', 30, 1, 3600),
    alertsTimeoutSeconds: integer(env, 'ALERTS_TIMEOUT_SECONDS', 10, 1, 120),
    jobsSuperviseSeconds: env.JOBS_SUPERVISE_SECONDS ? integer(env, 'JOBS_SUPERVISE_SECONDS', 15, 1, 600) : undefined,
    datastreamRetryBaseSeconds: integer(env, 'DATASTREAM_RETRY_BASE_SECONDS', 30, 1, 900),
    outboundAllowPrivateNetworks: bool(env, 'OUTBOUND_ALLOW_PRIVATE_NETWORKS', false),
    outboundRetryMaxTries: integer(env, 'OUTBOUND_RETRY_MAX_TRIES', 5, 1, 50),
    outboundRetryMaxSeconds: integer(env, 'OUTBOUND_RETRY_MAX_SECONDS', 300, 0, 3600),
    outboundRetryBaseMs: integer(env, 'OUTBOUND_RETRY_BASE_MS', 1000, 1, 60_000),
    ...nango(env),
  };
}

/** NANGO_URL and NANGO_SECRET_KEY come together: one without the other is a start error. */
function nango(env: Env): Pick<Config, 'nangoUrl' | 'nangoSecretKey' | 'nangoWebhookSigningKey'> {
  const nangoUrl = url(env, 'NANGO_URL', ['http:', 'https:'])?.replace(/\/+$/, '');
  const nangoSecretKey = env.NANGO_SECRET_KEY || undefined;
  if (nangoUrl && !nangoSecretKey)
    throw new ConfigError('NANGO_SECRET_KEY', undefined, 'required with NANGO_URL: the Nango environment secret key');
  if (nangoSecretKey && !nangoUrl)
    throw new ConfigError('NANGO_URL', undefined, 'required with NANGO_SECRET_KEY, e.g. https://api.nango.dev');
  return { nangoUrl, nangoSecretKey, nangoWebhookSigningKey: env.NANGO_WEBHOOK_SIGNING_KEY || nangoSecretKey };
}

/**
 * Serving processes on PostgreSQL need a shared key: several replicas share one database, so a key
 * generated on one machine would not decrypt on another. `migrate` does not need it.
 */
export function assertSecretsKeyForServing(config: Config): void {
  if (config.databaseUrl && !config.secretsKey) {
    throw new ConfigError(
      'SECRETS_KEY',
      undefined,
      'required with DATABASE_URL: 32 bytes, base64-encoded (openssl rand -base64 32)',
    );
  }
}
