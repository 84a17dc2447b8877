/** The user at the provider's sign-in page. */
export interface TestUser {
  login: string;
  password: string;
}

/** A page the user agent was shown and answered by submitting its form. */
export interface ShownPage {
  url: string;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ENTITIES[name]!);

/**
 * The one form of a provider page, filled in as a person would: its hidden fields kept, the
 * login and password typed where the page asks for them. Undefined when the page has no form.
 */
function filledForm(
  html: string,
  base: string,
  user: TestUser | undefined,
): { action: string; body: URLSearchParams } | undefined {
  const form = /<form[^>]*action="([^"]*)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const body = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const name = /\bname="([^"]*)"/.exec(input[1]!)?.[1];
    if (!name) continue;
    const value = /\bvalue="([^"]*)"/.exec(input[1]!)?.[1];
    if (name === 'login' && user) body.set(name, user.login);
    else if (name === 'password' && user) body.set(name, user.password);
    else body.set(name, decodeEntities(value ?? ''));
  }
  return { action: new URL(decodeEntities(form[1]!), base).href, body };
}

/**
 * The client side of an interactive OAuth flow as the official MCP SDKs drive it: an
 * OAuthClientProvider (DCR client information, tokens and the PKCE verifier kept in memory) whose
 * "browser" follows the authorization redirects with a cookie jar until the provider sends it back
 * to the redirect URI, and keeps the callback's parameters for `transport.finishAuth`. Given a
 * user, it answers the provider's own pages (sign-in, consent) by submitting their forms.
 */
export class UserAgentOAuthProvider {
  readonly redirectUrl = 'http://localhost:65000/callback';
  private client: Record<string, unknown> | undefined;
  private saved: Record<string, unknown> | undefined;
  private verifier = '';
  /** The callback's query (code, state, iss) after the last authorization. */
  callback: URLSearchParams | undefined;

  /** The pages the provider showed during the last authorization, in order. */
  readonly pages: ShownPage[] = [];

  constructor(
    private readonly fetchFn: typeof fetch,
    private readonly user?: TestUser,
  ) {}

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
    let post: URLSearchParams | undefined;
    this.pages.length = 0;
    for (let hop = 0; hop < 20; hop++) {
      if (next.startsWith(this.redirectUrl)) {
        this.callback = new URL(next).searchParams;
        return;
      }
      const headers: Record<string, string> = {};
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      if (cookie) headers.cookie = cookie;
      if (post) headers['content-type'] = 'application/x-www-form-urlencoded';
      const res = await this.fetchFn(next, {
        redirect: 'manual',
        headers,
        ...(post ? { method: 'POST', body: post.toString() } : {}),
      });
      post = undefined;
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';', 1);
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      const location = res.headers.get('location');
      const text = await res.text();
      if (location) {
        next = new URL(location, next).href;
        continue;
      }
      const form = res.status === 200 && this.user ? filledForm(text, next, this.user) : undefined;
      if (!form) throw new Error(`authorization stopped at ${next}: HTTP ${res.status}`);
      this.pages.push({ url: next, text });
      next = form.action;
      post = form.body;
    }
    throw new Error('authorization did not come back to the redirect URI');
  }
}
