import { ProviderError } from './provider.js';

export interface OAuthSettings {
  token_url: string;
  grant_type: 'refresh_token' | 'client_credentials';
  scope?: string;
  timeout_ms: number;
}

export interface OAuthSecrets {
  client_id: string;
  client_secret: string;
  refresh_token?: string;
}

/**
 * One real token request (RFC 6749 §4.4 / §6). Failures become ProviderErrors with a reason an
 * operator can act on; `invalid_grant` on a refresh token means the grant expired or was revoked.
 */
export async function requestAccessToken(settings: OAuthSettings, secrets: OAuthSecrets): Promise<string> {
  const form = new URLSearchParams({ grant_type: settings.grant_type });
  if (settings.grant_type === 'refresh_token') {
    if (!secrets.refresh_token)
      throw new ProviderError('no refresh_token stored for this connection; rotate it with one', 'expired');
    form.set('refresh_token', secrets.refresh_token);
  }
  if (settings.scope) form.set('scope', settings.scope);
  const basic = Buffer.from(
    `${encodeURIComponent(secrets.client_id)}:${encodeURIComponent(secrets.client_secret)}`,
  ).toString('base64');
  const res = await fetch(settings.token_url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${basic}`,
    },
    body: form,
    signal: AbortSignal.timeout(settings.timeout_ms),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: judged by the status alone
  }
  if (!res.ok) {
    const code = typeof body.error === 'string' ? body.error.slice(0, 60) : undefined;
    const expired = code === 'invalid_grant';
    throw new ProviderError(
      `${res.status} from the token endpoint${code ? ` (${code})` : ''}${expired ? ': the grant expired or was revoked; reconnect and rotate the refresh token' : res.status === 401 ? ': client credentials refused' : ''}`,
      expired ? 'expired' : 'error',
    );
  }
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new ProviderError('the token endpoint answered without an access_token');
  return body.access_token;
}
