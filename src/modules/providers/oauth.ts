import { discard, readBody } from '../../platform/outbound/outbound-request.js';
import { ProviderError, type OAuthSettings, type ProviderContext } from './provider.js';
import { GOOGLE_TOKEN_URL, parseServiceAccount, signAssertion } from './service-account.js';
import { sourceRequest } from './source-request.js';

export interface OAuthSecrets {
  client_id?: string;
  client_secret?: string;
  refresh_token?: string;
  /** The JWT bearer grant's key file (a Google service account). */
  service_account_json?: string;
}

/** The form of the jwt_bearer grant: a signed assertion, and no client authentication. */
async function jwtBearerForm(
  settings: OAuthSettings,
  secrets: OAuthSecrets,
  now: Date,
): Promise<{ url: string; form: URLSearchParams }> {
  const parsed = parseServiceAccount(secrets.service_account_json ?? '');
  if ('problem' in parsed) throw new ProviderError(`service_account_json ${parsed.problem}; rotate it`);
  const url = settings.token_url ?? parsed.key.token_uri ?? GOOGLE_TOKEN_URL;
  const assertion = await signAssertion(parsed.key, url, settings.scope, now);
  return { url, form: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }) };
}

export interface IssuedToken {
  access_token: string;
  /** Seconds, as the token endpoint said; undefined when it did not say. */
  expires_in: number | undefined;
  /** A new refresh token when the endpoint rotates them (RFC 6749 §6): the old one is dead now. */
  refresh_token: string | undefined;
}

/**
 * One real token request (RFC 6749 §4.4 / §6) under the outbound policy. Failures become
 * ProviderErrors with a reason an operator can act on; `invalid_grant` on a refresh token means the
 * grant expired or was revoked. Client credentials go where the connection says (`token_auth`).
 */
export async function requestAccessToken(
  settings: OAuthSettings,
  secrets: OAuthSecrets,
  ctx: Pick<ProviderContext, 'outbound' | 'clock' | 'signal'>,
): Promise<IssuedToken> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  let tokenUrl = settings.token_url ?? '';
  let form: URLSearchParams;
  if (settings.grant_type === 'jwt_bearer') {
    ({ url: tokenUrl, form } = await jwtBearerForm(settings, secrets, ctx.clock.now()));
  } else {
    const { client_id, client_secret } = secrets;
    if (!client_id || !client_secret)
      throw new ProviderError('no client_id and client_secret stored for this connection; rotate it with them');
    form = new URLSearchParams({ grant_type: settings.grant_type });
    if (settings.grant_type === 'refresh_token') {
      if (!secrets.refresh_token)
        throw new ProviderError('no refresh_token stored for this connection; rotate it with one', 'expired');
      form.set('refresh_token', secrets.refresh_token);
    }
    if (settings.scope) form.set('scope', settings.scope);
    if (settings.token_auth === 'body') {
      form.set('client_id', client_id);
      form.set('client_secret', client_secret);
    } else {
      headers.authorization = `Basic ${Buffer.from(
        `${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`,
      ).toString('base64')}`;
    }
  }
  const answer = await sourceRequest(ctx, tokenUrl, {
    what: 'the token request',
    method: 'POST',
    headers,
    body: form.toString(),
    timeoutMs: settings.timeout_ms,
  });
  const { res } = answer;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse((await readBody(res, 1024 * 1024)).toString('utf8')) as Record<string, unknown>;
  } catch {
    discard(res);
    // not JSON: judged by the status alone
  }
  if (res.status < 200 || res.status >= 300) {
    const code = typeof body.error === 'string' ? body.error.slice(0, 60) : undefined;
    const expired = code === 'invalid_grant';
    const tries = answer.exhausted ? ` after ${answer.tries} tries` : '';
    throw new ProviderError(
      `${res.status} from the token endpoint${tries}${code ? ` (${code})` : ''}${expired ? (settings.grant_type === 'jwt_bearer' ? ': the service account key was refused (deleted or disabled?); rotate it' : ': the grant expired or was revoked; reconnect and rotate the refresh token') : res.status === 401 ? ': client credentials refused' : ''}`,
      expired ? 'expired' : 'error',
    );
  }
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new ProviderError('the token endpoint answered without an access_token');
  const expiresIn = Number(body.expires_in);
  return {
    access_token: body.access_token,
    expires_in: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
    refresh_token: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined,
  };
}
