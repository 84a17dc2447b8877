import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { OutboundError } from '../../platform/outbound/outbound-http.js';
import { discard, outboundRequest, readBody } from '../../platform/outbound/outbound-request.js';
import { withRetries } from '../../platform/outbound/request-retry.js';
import { type AccessTokens, ProviderError, type SourceOutbound } from '../providers/index.js';
import * as repo from './credentials.repo.js';
import { TOKEN_EXPIRY_MARGIN_MS } from './token-manager.js';

/**
 * Nango's backend API (https://docs.nango.dev/reference/api): `GET /connections/{id}` hands out the
 * connection's current credentials (Nango refreshes them; `force_refresh=true` makes it refresh
 * now), `POST /connect/sessions` makes a connect link. NANGO_URL is the operator's own setting, not
 * a user's, so its address may be private (a self-hosted Nango); it is still pinned, bounded and
 * never redirected. The secret key goes in the Authorization header and nowhere else.
 */
export interface NangoSettings {
  url: string;
  secretKey: string;
}

export interface NangoToken {
  accessToken: string;
  expiresAt: Date | null;
}

const TIMEOUT_MS = 15_000;

export class NangoClient {
  constructor(
    private readonly settings: NangoSettings,
    private readonly deps: { clock: Clock; outbound: SourceOutbound; signal?: AbortSignal },
  ) {}

  private async call(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}) {
    const outbound = this.deps.outbound;
    try {
      const { res } = await withRetries(
        () =>
          outboundRequest(`${this.settings.url}${path}`, {
            method: init.method ?? 'GET',
            headers: {
              authorization: `Bearer ${this.settings.secretKey}`,
              accept: 'application/json',
              ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
            policy: { ...outbound.policy, allowPrivate: true },
            timeoutMs: TIMEOUT_MS,
            maxRedirects: 0,
            signal: this.deps.signal,
          }),
        { ...outbound.retry, clock: this.deps.clock, sleep: outbound.sleep, signal: this.deps.signal },
      );
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse((await readBody(res, 4 * 1024 * 1024)).toString('utf8')) as Record<string, unknown>;
      } catch {
        discard(res);
      }
      return { status: res.status, body };
    } catch (error) {
      if (error instanceof OutboundError) throw new ProviderError(`Nango could not be reached: ${error.message}`);
      throw error;
    }
  }

  /** The connection's credentials now; 424 → expired, 404 → no such connection, 401/403 → the key. */
  async token(providerConfigKey: string, connectionId: string, forceRefresh: boolean): Promise<NangoToken> {
    const query = new URLSearchParams({ provider_config_key: providerConfigKey });
    if (forceRefresh) query.set('force_refresh', 'true');
    const { status, body } = await this.call(`/connections/${encodeURIComponent(connectionId)}?${query}`);
    if (status === 200) return credentialsOf(body);
    const error = (body.error ?? {}) as { code?: unknown; message?: unknown };
    const said = typeof error.message === 'string' ? `: ${error.message.slice(0, 300)}` : '';
    if (status === 424)
      throw new ProviderError(
        `Nango cannot refresh this connection (${String(error.code ?? 'invalid_credentials')})${said}; reconnect it in Nango`,
        'expired',
      );
    if (status === 404)
      throw new ProviderError('no such connection in Nango (check connection_ref_id and provider_config_key)');
    if (status === 401 || status === 403)
      throw new ProviderError('the Nango secret key was refused (NANGO_SECRET_KEY)');
    throw new ProviderError(`Nango answered HTTP ${status}${said}`);
  }

  /** A connect link for one integration (Nango's Connect UI), tagged with the connection it is for. */
  async connectSession(
    providerConfigKey: string,
    tags: Record<string, string>,
  ): Promise<{ connect_link: string | null; token: string; expires_at: string }> {
    const { status, body } = await this.call('/connect/sessions', {
      method: 'POST',
      body: { allowed_integrations: [providerConfigKey], tags },
    });
    const data = body.data as { token?: unknown; connect_link?: unknown; expires_at?: unknown } | undefined;
    if ((status === 200 || status === 201) && data && typeof data.token === 'string')
      return {
        token: data.token,
        connect_link: typeof data.connect_link === 'string' ? data.connect_link : null,
        expires_at: String(data.expires_at ?? ''),
      };
    if (status === 401 || status === 403)
      throw new ProviderError('the Nango secret key was refused (NANGO_SECRET_KEY)');
    throw new ProviderError(`Nango answered HTTP ${status} to the connect session`);
  }
}

/** The token in Nango's `credentials` (ConnectionFull.credentials, by auth type). */
function credentialsOf(body: Record<string, unknown>): NangoToken {
  const credentials = (body.credentials ?? {}) as Record<string, unknown>;
  const value =
    typeof credentials.access_token === 'string'
      ? credentials.access_token
      : typeof credentials.token === 'string'
        ? credentials.token
        : typeof credentials.apiKey === 'string'
          ? credentials.apiKey
          : undefined;
  if (!value)
    throw new ProviderError(
      `Nango's credentials (${String(credentials.type ?? 'unknown type')}) carry no access token`,
    );
  const expires = typeof credentials.expires_at === 'string' ? new Date(credentials.expires_at) : null;
  return { accessToken: value, expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires : null };
}

/** Nango's X-Nango-Hmac-Sha256: hex HMAC-SHA256 of the raw body with the signing key, compared in constant time. */
export function nangoSignatureValid(rawBody: string, header: string | undefined, signingKey: string): boolean {
  if (!header || !/^[0-9a-f]{64}$/i.test(header.trim())) return false;
  const expected = createHmac('sha256', signingKey).update(rawBody, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(header.trim(), 'hex'));
}

/**
 * The tokens of a connection whose credentials Nango holds: asked for before each use (Nango
 * refreshes them), kept for the run while they last, and asked for with `force_refresh` once when
 * the source refuses one. Only the expiry and the time of the fetch are stored here.
 */
export class NangoTokens implements AccessTokens {
  readonly source = 'nango' as const;
  private token: NangoToken | undefined;

  constructor(
    private readonly client: NangoClient,
    private readonly deps: { db: Database; clock: Clock },
    private readonly key: { project_id: string; connection_ref_id: string },
    private readonly providerConfigKey: string,
  ) {}

  async current(): Promise<string> {
    const t = this.token;
    if (t && (!t.expiresAt || t.expiresAt.getTime() - TOKEN_EXPIRY_MARGIN_MS > this.deps.clock.now().getTime()))
      return t.accessToken;
    return this.fetch(false);
  }

  renew(): Promise<string> {
    return this.fetch(true);
  }

  check(): Promise<string> {
    return this.fetch(false);
  }

  private async fetch(forceRefresh: boolean): Promise<string> {
    const now = this.deps.clock.now();
    try {
      this.token = await this.client.token(this.providerConfigKey, this.key.connection_ref_id, forceRefresh);
    } catch (error) {
      if (error instanceof ProviderError)
        await repo
          .recordTokenError(this.deps.db, this.key, error.message, error.status === 'expired', now)
          .catch(() => undefined);
      throw error;
    }
    await repo.storeToken(this.deps.db, this.key, {
      access: null,
      expiresAt: this.token.expiresAt,
      secrets: null,
      now,
    });
    return this.token.accessToken;
  }
}
