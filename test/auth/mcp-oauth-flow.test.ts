import {
  auth,
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorized,
} from '@modelcontextprotocol/client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeFor } from '../../src/platform/auth/permissions.js';
import { type TestUser, UserAgentOAuthProvider } from '../support/auth/oauth-client.js';
import { TestOidcProvider } from '../support/auth/oidc.js';
import { freePort } from '../support/process.js';
import { startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const OWNER: TestUser = { login: 'owner-1', password: 'owner-password' };
const ANALYST: TestUser = { login: 'analyst-1', password: 'analyst-password' };
const P = 'proj_oauth_flow';
const OTHER = 'proj_oauth_other';

interface Step {
  method: string;
  url: URL;
  status: number;
  body?: string;
}

/**
 * One identity provider carries an MCP client through the flow Claude and VS Code
 * run against a remote server, on plain loopback (test/auth/proxy.test.ts runs it behind TLS):
 * protected-resource metadata → authorization-server metadata → dynamic client registration →
 * authorization code with PKCE and the resource indicator, the user signing in and consenting on
 * the provider's own pages → token → tools/list, with the official v2 client's OAuth support. The
 * provider (oidc-provider, certified) issues RS256 JWT access tokens for the /mcp resource and, for
 * a user who is no member of the organization, the `projects` claim that grants them a project.
 */
describe.each(STORES)('an MCP client signs in through a real OpenID provider [%s]', (store) => {
  let op: TestOidcProvider;
  let service: RunningService;
  let url: string;
  const steps: Step[] = [];
  /** Every request the client and its user agent make, as a proxy would log them. */
  const traced: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const res = await fetch(input, init);
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
    steps.push({ method: request.method, url: new URL(request.url), status: res.status, body });
    return res;
  };

  beforeAll(async () => {
    op = await TestOidcProvider.start(OWNER.login, {
      pages: true,
      accessTokenClaims: { [ANALYST.login]: { projects: [P] } },
    });
    // The audience is the URL clients reach, which the resource indicator names: known before start.
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    service = await startService(store, {
      env: {
        PORT: String(port),
        SERVICE_AUTH_MODE: 'oauth',
        OAUTH_ISSUER: op.issuer,
        OAUTH_JWKS_URL: op.jwksUrl,
        OAUTH_AUDIENCE: `${url}/mcp,${url}`,
        ORG_OWNER_SUBJECT: OWNER.login,
      },
    });
    expect(service.url).toBe(url);
    for (const id of [P, OTHER])
      await service.app.services.projects.create(service.app.systemContext(), { id, name: id });
  });
  afterAll(async () => {
    await service?.close();
    await op?.close();
  });

  /** The whole flow for one user; answers the connected client and what the provider showed. */
  async function signIn(user: TestUser) {
    steps.length = 0;
    const agent = new UserAgentOAuthProvider(traced, user);
    const transport = () => new ModernTransport(new URL(`${url}/mcp`), { authProvider: agent, fetch: traced });
    const client = () =>
      new ModernClient(
        { name: 'oauth-flow', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
    const first = transport();
    await expect(client().connect(first)).rejects.toBeInstanceOf(ModernUnauthorized);
    await first.finishAuth(agent.callback!);
    const connected = client();
    await connected.connect(transport());
    return { agent, client: connected };
  }

  it('the owner: every step of the flow, an RS256 JWT for /mcp, then tools/list as the scope allows', async () => {
    const { agent, client } = await signIn(OWNER);
    try {
      const at = (method: string, where: string) =>
        steps.findIndex((s) => s.method === method && `${s.url.origin}${s.url.pathname}` === where);
      // 1. The unauthenticated call is refused with a challenge naming the resource's metadata.
      expect(steps[0]).toMatchObject({ method: 'POST', status: 401 });
      expect(steps[0]!.url.href).toBe(`${url}/mcp`);
      // 2. Protected-resource metadata (RFC 9728), then 3. the issuer's metadata (RFC 8414 / OIDC).
      const resourceMetadata = at('GET', `${url}/.well-known/oauth-protected-resource/mcp`);
      expect(steps[resourceMetadata]!.status).toBe(200);
      const issuerMetadata = steps.findIndex(
        (s) => s.url.origin === op.issuer && s.url.pathname.startsWith('/.well-known/') && s.status === 200,
      );
      expect(issuerMetadata).toBeGreaterThan(resourceMetadata);
      // 4. Dynamic client registration (RFC 7591): a public client with the redirect URI.
      const registration = at('POST', `${op.issuer}/reg`);
      expect(registration).toBeGreaterThan(issuerMetadata);
      expect(steps[registration]!.status).toBe(201);
      expect(JSON.parse(steps[registration]!.body!)).toMatchObject({
        redirect_uris: [agent.redirectUrl],
        token_endpoint_auth_method: 'none',
      });
      const clientId = (agent.clientInformation() as { client_id: string }).client_id;
      // 5. The authorization request: code, PKCE S256, and the /mcp resource indicator (RFC 8707).
      const authorize = at('GET', `${op.issuer}/auth`);
      expect(authorize).toBeGreaterThan(registration);
      const query = steps[authorize]!.url.searchParams;
      expect(Object.fromEntries(query)).toMatchObject({
        response_type: 'code',
        client_id: clientId,
        code_challenge_method: 'S256',
        resource: `${url}/mcp`,
        redirect_uri: agent.redirectUrl,
      });
      // The challenge's scopes, plus offline_access: the SDK asks for a refresh token when it can.
      expect(query.get('scope')!.split(' ').sort()).toEqual(['context.read', 'data.read', 'offline_access']);
      expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The user signed in on the provider's page, then consented to the scopes for that resource.
      expect(agent.pages.map((page) => new URL(page.url).pathname.split('/')[1])).toEqual([
        'interaction',
        'interaction',
      ]);
      expect(agent.pages[0]!.text).toMatch(/name="password"/);
      expect(agent.pages[1]!.text).toContain(`${url}/mcp`);
      for (const scope of ['context.read', 'data.read']) expect(agent.pages[1]!.text).toContain(scope);
      expect(Object.fromEntries(agent.callback!)).toMatchObject({ iss: op.issuer, code: expect.any(String) });
      // 6. The token request proves the PKCE verifier and names the resource again.
      const token = at('POST', `${op.issuer}/token`);
      expect(token).toBeGreaterThan(authorize);
      expect(steps[token]!.status).toBe(200);
      const form = new URLSearchParams(steps[token]!.body!);
      expect(form.get('grant_type')).toBe('authorization_code');
      expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
      expect(form.get('resource')).toBe(`${url}/mcp`);
      // The access token is what the service verifies: an RS256 JWT from the issuer for /mcp.
      const accessToken = agent.accessToken!;
      expect(decodeProtectedHeader(accessToken)).toMatchObject({ alg: 'RS256', kid: 'op-1' });
      expect(decodeJwt(accessToken)).toMatchObject({
        iss: op.issuer,
        aud: `${url}/mcp`,
        sub: OWNER.login,
        client_id: clientId,
        scope: 'context.read data.read',
      });
      // 7. tools/list: exactly the tools that scope allows (the owner's role allows them all), but
      // app-only ones: this client renders no MCP Apps views.
      const granted = new Set(['context.read', 'data.read']);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        service.app.registry.tools
          .filter((t) => granted.has(scopeFor(t.permission)) && !t.visibility?.every((v) => v === 'app'))
          .map((t) => t.name)
          .sort(),
      );
      const listed = await client.callTool({ name: 'list_projects', arguments: {} });
      expect(JSON.stringify(listed.structuredContent ?? listed.content)).toContain(OTHER);

      // 8. Later, as a client does when the token runs out: the refresh grant, for the same
      // resource, without the user; the connected client goes on with the new token.
      expect(agent.tokens()).toMatchObject({ refresh_token: expect.any(String) });
      steps.length = 0;
      expect(await auth(agent, { serverUrl: `${url}/mcp`, fetchFn: traced })).toBe('AUTHORIZED');
      expect(steps.some((s) => s.url.pathname === '/auth')).toBe(false);
      const refresh = new URLSearchParams(steps.find((s) => s.url.href === `${op.issuer}/token`)!.body!);
      expect(refresh.get('grant_type')).toBe('refresh_token');
      expect(refresh.get('resource')).toBe(`${url}/mcp`);
      expect(agent.accessToken).not.toBe(accessToken);
      expect(decodeJwt(agent.accessToken!)).toMatchObject({ aud: `${url}/mcp`, sub: OWNER.login });
      steps.length = 0;
      expect((await client.listTools()).tools).toHaveLength(tools.length);
      expect(steps.at(-1)!.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it("a user who is no member gets the projects claim's project from the provider, and only that", async () => {
    const { agent, client } = await signIn(ANALYST);
    try {
      expect(decodeJwt(agent.accessToken!)).toMatchObject({ sub: ANALYST.login, aud: `${url}/mcp`, projects: [P] });
      expect(agent.pages).toHaveLength(2);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_context');
      const search = (project_id: string) =>
        client.callTool({ name: 'search_context', arguments: { query: 'roas', project_id } }) as Promise<{
          isError?: boolean;
          content: { text: string }[];
          structuredContent?: { meta: { project_id: string } };
        }>;
      const own = await search(`https://hub.example.com/console/${P}/overview`);
      expect(own.isError, own.content[0]?.text).toBeFalsy();
      expect(own.structuredContent!.meta.project_id).toBe(P);
      const other = await search(OTHER);
      expect(other.isError).toBe(true);
      expect(other.content[0]!.text).toMatch(/^project_forbidden/);
    } finally {
      await client.close();
    }
  });
});
