import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES } from '../../../src/platform/auth/permissions.js';

/** What the user agent sent to the authorization endpoint (the client's scope and resource choice). */
export interface AuthorizationRequest {
  scope: string;
  resource: string | undefined;
}

export interface TestOidcOptions {
  /**
   * The provider's own login and consent pages (its devInteractions: a login form that takes any
   * login, a consent form listing the scopes per resource), which a user agent must fill in and
   * submit. Without it, the interaction URL approves at once as the start's `subject`.
   */
  pages?: boolean;
  /** Claims the access tokens of a subject carry beyond the standard ones (e.g. `projects`). */
  accessTokenClaims?: Record<string, Record<string, unknown>>;
}

/**
 * A real OpenID provider (oidc-provider) on loopback, as a deployment would put in front of the
 * service: dynamic client registration, PKCE (required), RFC 8707 resource indicators, and RS256
 * JWT access tokens whose `aud` is the requested resource and whose `scope` is what was granted.
 * Its interaction pages approve at once, as `subject`, whatever the client asked for (the user
 * consents to everything), so a test drives the whole redirect flow without a browser.
 */
export class TestOidcProvider {
  readonly authorizations: AuthorizationRequest[] = [];
  private server!: http.Server;
  private provider!: Provider;
  issuer = '';

  private constructor(
    private readonly subject: string,
    private readonly options: TestOidcOptions,
  ) {}

  static async start(subject: string, options: TestOidcOptions = {}): Promise<TestOidcProvider> {
    const op = new TestOidcProvider(subject, options);
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'op-1', alg: 'RS256', use: 'sig' };
    op.server = http.createServer((req, res) => void op.handle(req, res));
    await new Promise<void>((resolve) => op.server.listen(0, '127.0.0.1', resolve));
    op.issuer = `http://127.0.0.1:${(op.server.address() as AddressInfo).port}`;
    op.provider = new Provider(op.issuer, {
      jwks: { keys: [jwk] },
      cookies: { keys: ['test-cookie-key-for-the-loopback-provider'] },
      pkce: { required: () => true },
      // Explicit lifetimes keep the provider from warning about its defaults on every artifact.
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400 },
      // DCR refuses a registration whose `scope` names a value the provider does not list.
      scopes: ['openid', 'offline_access', ...SCOPES],
      features: {
        devInteractions: { enabled: options.pages === true },
        registration: { enabled: true },
        resourceIndicators: {
          enabled: true,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => ({
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt' as const,
            accessTokenTTL: 3600,
            jwt: { sign: { alg: 'RS256' as const } },
          }),
        },
      },
      // A registered client may later ask for any scope the provider supports: the MCP clients
      // register with the first challenge's scopes and step up beyond them (RFC 7591 leaves this
      // policy to the provider; by default oidc-provider holds a client to its registered scope).
      // The validator runs before the metadata is checked and may change it: it drops `scope`.
      extraClientMetadata: {
        properties: ['x_test_marker'],
        validator: (_ctx: unknown, _key: string, _value: unknown, metadata: Record<string, unknown>) => {
          delete metadata.scope;
        },
      },
      // devInteractions route /interaction/:uid themselves (and warn when a url is configured too).
      ...(options.pages
        ? {}
        : {
            interactions: {
              url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
            },
          }),
      extraTokenClaims: (_ctx: KoaContextWithOIDC, token: object) => {
        const account = 'accountId' in token ? (token.accountId as string | undefined) : undefined;
        return (account ? options.accessTokenClaims?.[account] : undefined) ?? {};
      },
      findAccount: (_ctx: KoaContextWithOIDC, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    });
    return op;
  }

  get jwksUrl(): string {
    return `${this.issuer}/jwks`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', this.issuer);
      if (url.pathname === '/auth' && url.searchParams.has('client_id'))
        this.authorizations.push({
          scope: url.searchParams.get('scope') ?? '',
          resource: url.searchParams.get('resource') ?? undefined,
        });
      if (url.pathname.startsWith('/interaction/') && !this.options.pages) return await this.approve(req, res);
      await this.provider.callback()(req, res);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  }

  /** The user logs in as `subject` and consents to every scope and resource the client asked for. */
  private async approve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await this.provider.interactionFinished(req, res, { login: { accountId: this.subject } });
      return;
    }
    const grant = details.grantId
      ? (await this.provider.Grant.find(details.grantId))!
      : new this.provider.Grant({
          accountId: details.session!.accountId,
          clientId: details.params.client_id as string,
        });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    await this.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
