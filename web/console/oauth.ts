import { BASE } from './router.js';

export interface ConsoleConfig {
  auth_mode: 'disabled' | 'static' | 'oauth';
  oauth: { issuer: string; client_id: string | null; scopes: string[]; resource: string } | null;
}

type OAuthConfig = NonNullable<ConsoleConfig['oauth']>;

interface Metadata {
  authorization_endpoint: string;
  token_endpoint: string;
}

/** Sign-in in progress, across the redirect to the provider: the verifier and state, never a token. */
const PENDING_KEY = 'context-hub.console.oauth';

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (n: number) => b64url(crypto.getRandomValues(new Uint8Array(n)));

async function challengeOf(verifier: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** The provider's endpoints from its metadata: RFC 8414 first, then OpenID Connect discovery. */
async function discover(issuer: string): Promise<Metadata> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
  ];
  for (const candidate of candidates) {
    const response = await fetch(candidate).catch(() => undefined);
    if (response?.ok) {
      const doc = (await response.json()) as Partial<Metadata>;
      if (doc.authorization_endpoint && doc.token_endpoint) return doc as Metadata;
    }
  }
  throw new Error(`The identity provider at ${issuer} publishes no authorization server metadata.`);
}

export const redirectUri = () => `${location.origin}${BASE}callback`;

/** Authorization code with PKCE (S256) and the REST API as the resource indicator: leaves the page. */
export async function startSignIn(oauth: OAuthConfig, returnTo: string): Promise<void> {
  if (!oauth.client_id) throw new Error('CONSOLE_OAUTH_CLIENT_ID is not set on the service.');
  const metadata = await discover(oauth.issuer);
  const verifier = random(48);
  const state = random(16);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, returnTo }));
  const target = new URL(metadata.authorization_endpoint);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: oauth.client_id,
    redirect_uri: redirectUri(),
    scope: oauth.scopes.join(' '),
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: 'S256',
    resource: oauth.resource,
  }))
    target.searchParams.set(k, v);
  location.assign(target.toString());
}

/** Back from the provider: checks the state, trades the code for an access token (kept in memory). */
export async function finishSignIn(
  oauth: OAuthConfig,
  query: URLSearchParams,
): Promise<{ token: string; returnTo: string }> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as {
    verifier: string;
    state: string;
    returnTo: string;
  } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (query.get('error')) throw new Error(query.get('error_description') ?? query.get('error') ?? 'sign-in refused');
  const code = query.get('code');
  if (!pending || !code || query.get('state') !== pending.state) throw new Error('This sign-in answer is not ours.');
  const metadata = await discover(oauth.issuer);
  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: oauth.client_id ?? '',
      code_verifier: pending.verifier,
      resource: oauth.resource,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.access_token)
    throw new Error(body.error_description ?? body.error ?? `token endpoint answered ${response.status}`);
  return { token: body.access_token, returnTo: pending.returnTo };
}
