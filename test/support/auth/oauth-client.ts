/**
 * The client side of an interactive OAuth flow as the official MCP SDKs drive it: an
 * OAuthClientProvider (DCR client information, tokens and the PKCE verifier kept in memory) whose
 * "browser" follows the authorization redirects with a cookie jar until the provider sends it back
 * to the redirect URI, and keeps the callback's parameters for `transport.finishAuth`.
 */
export class UserAgentOAuthProvider {
  readonly redirectUrl = 'http://localhost:65000/callback';
  private client: Record<string, unknown> | undefined;
  private saved: Record<string, unknown> | undefined;
  private verifier = '';
  /** The callback's query (code, state, iss) after the last authorization. */
  callback: URLSearchParams | undefined;

  constructor(private readonly fetchFn: typeof fetch) {}

  get clientMetadata() {
    return {
      client_name: 'context-hub test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client as never;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.client = info;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.saved = tokens;
  }
  private discovery: unknown;
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }

  /** The access token the client holds now. */
  get accessToken(): string | undefined {
    return this.saved?.access_token as string | undefined;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const jar = new Map<string, string>();
    let next = url.href;
    for (let hop = 0; hop < 20; hop++) {
      if (next.startsWith(this.redirectUrl)) {
        this.callback = new URL(next).searchParams;
        return;
      }
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await this.fetchFn(next, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';', 1);
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      const location = res.headers.get('location');
      await res.arrayBuffer();
      if (!location) throw new Error(`authorization stopped at ${next}: HTTP ${res.status}`);
      next = new URL(location, next).href;
    }
    throw new Error('authorization did not come back to the redirect URI');
  }
}
