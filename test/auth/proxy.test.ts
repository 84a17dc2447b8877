import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorized,
} from '@modelcontextprotocol/client';
import { auth as legacyAuth, UnauthorizedError as LegacyUnauthorized } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { checkResourceAllowed } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAgentOAuthProvider } from '../support/auth/oauth-client.js';
import { TestOidcProvider } from '../support/auth/oidc.js';
import { TlsProxy } from '../support/auth/tls-proxy.js';
import { startService, type RunningService } from '../support/service.js';

const OWNER = 'owner-1';

/**
 * Deployed as a remote server is, behind a proxy that terminates HTTPS (Host
 * kept, X-Forwarded-Proto: https), the official clients' OAuth support runs the whole flow against
 * a real OpenID provider and ends connected over https. Before TRUSTED_PROXIES / PUBLIC_BASE_URL
 * the service advertised http:// URLs built from the request, and both SDKs refused the resource
 * ("Protected resource http://… does not match expected https://…").
 */
describe('behind a TLS-terminating proxy (TRUSTED_PROXIES): the official clients and a real OpenID provider', () => {
  let op: TestOidcProvider;
  let proxy: TlsProxy;
  let service: RunningService;

  beforeAll(async () => {
    op = await TestOidcProvider.start(OWNER);
    proxy = await TlsProxy.start();
    service = await startService('pglite', {
      env: {
        SERVICE_AUTH_MODE: 'oauth',
        OAUTH_ISSUER: op.issuer,
        OAUTH_JWKS_URL: op.jwksUrl,
        // The two resources the protected-resource documents name: /mcp, and the REST API (the root).
        OAUTH_AUDIENCE: `${proxy.url}/mcp,${proxy.url}`,
        ORG_OWNER_SUBJECT: OWNER,
        TRUSTED_PROXIES: 'loopback',
      },
    });
    proxy.target = service.url;
  });
  afterAll(async () => {
    await service?.close();
    await proxy?.close();
    await op?.close();
  });

  it('advertises the https URLs the client reached, in the 401 challenge and the RFC 9728 documents', async () => {
    const unauthenticated = await proxy.fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toContain(
      `resource_metadata="${proxy.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource/mcp', `${proxy.url}/mcp`],
      ['/.well-known/oauth-protected-resource', proxy.url],
    ]) {
      const document = (await (await proxy.fetch(`${proxy.url}${path}`)).json()) as { resource: string };
      expect(document.resource).toBe(resource);
    }
    // The SDKs' own rule that refused the http:// resource before (same origin, path within).
    const mcp = (await (await proxy.fetch(`${proxy.url}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
    };
    expect(checkResourceAllowed({ requestedResource: `${proxy.url}/mcp`, configuredResource: mcp.resource })).toBe(
      true,
    );
    const openapi = await proxy.fetch(`${proxy.url}/api/openapi.json`);
    expect(openapi.status).toBe(401);
  });

  it('the 2026-era client (v2 SDK): DCR, PKCE, the /mcp resource indicator, then tools/list over https', async () => {
    const user = new UserAgentOAuthProvider(proxy.fetch);
    const transport = () =>
      new ModernTransport(new URL(`${proxy.url}/mcp`), { authProvider: user, fetch: proxy.fetch });
    const client = () =>
      new ModernClient(
        { name: 'proxy-modern', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
    const first = transport();
    await expect(client().connect(first)).rejects.toBeInstanceOf(ModernUnauthorized);
    expect(op.authorizations.at(-1)?.resource).toBe(`${proxy.url}/mcp`);
    await first.finishAuth(user.callback!);
    expect(decodeJwt(user.accessToken!)).toMatchObject({ aud: `${proxy.url}/mcp`, iss: op.issuer, sub: OWNER });
    const connected = client();
    await connected.connect(transport());
    const { tools } = await connected.listTools();
    expect(tools.length).toBeGreaterThan(10);
    await connected.close();
  });

  it('the 2025-era client (v1 SDK): the same flow, then tools/list in its session over https', async () => {
    const user = new UserAgentOAuthProvider(proxy.fetch);
    const transport = () =>
      new LegacyTransport(new URL(`${proxy.url}/mcp`), { authProvider: user, fetch: proxy.fetch });
    const client = () => new LegacyClient({ name: 'proxy-legacy', version: '1.0.0' }, { capabilities: {} });
    const first = transport();
    await expect(client().connect(first)).rejects.toBeInstanceOf(LegacyUnauthorized);
    await first.finishAuth(user.callback!.get('code')!);
    const connected = client();
    await connected.connect(transport());
    const { tools } = await connected.listTools();
    expect(tools.length).toBeGreaterThan(10);
    await connected.close();
  });

  it('step-up: the 2025-era client follows a 403 insufficient_scope; its retried call succeeds', async () => {
    const user = new UserAgentOAuthProvider(proxy.fetch);
    const transport = () =>
      new LegacyTransport(new URL(`${proxy.url}/mcp`), { authProvider: user, fetch: proxy.fetch });
    const first = transport();
    await expect(
      new LegacyClient({ name: 'step-up', version: '1.0.0' }, { capabilities: {} }).connect(first),
    ).rejects.toBeInstanceOf(LegacyUnauthorized);
    await first.finishAuth(user.callback!.get('code')!);
    // The first token carries what the 401 asked for: enough to connect, list and read.
    expect(decodeJwt(user.accessToken!).scope).toBe('context.read data.read');
    const live = transport();
    const client = new LegacyClient({ name: 'step-up', version: '1.0.0' }, { capabilities: {} });
    await client.connect(live);
    const write = service.app.registry.tools.find((t) => t.permission === 'context.write')!;
    // The write tool is refused 403; the client asks the user for the challenge's scopes.
    await expect(client.callTool({ name: write.name, arguments: {} })).rejects.toBeInstanceOf(LegacyUnauthorized);
    expect(op.authorizations.at(-1)?.scope).toBe('context.read context.write');
    await live.finishAuth(user.callback!.get('code')!);
    // Before, the challenge named context.write alone: the new token lacked context.read, every
    // /mcp request was refused again, and each retry sent the user to authorize once more.
    const result = await client.callTool({ name: write.name, arguments: {} });
    expect(result.content).toBeDefined();
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    await client.close();
  });

  it('a token for the REST resource the root document names is accepted (OAUTH_AUDIENCE is a list)', async () => {
    const user = new UserAgentOAuthProvider(proxy.fetch);
    const options = {
      serverUrl: proxy.url,
      resourceMetadataUrl: new URL(`${proxy.url}/.well-known/oauth-protected-resource`),
      fetchFn: proxy.fetch,
    };
    expect(await legacyAuth(user, options)).toBe('REDIRECT');
    expect(op.authorizations.at(-1)?.resource).toBe(proxy.url);
    expect(await legacyAuth(user, { ...options, authorizationCode: user.callback!.get('code')! })).toBe('AUTHORIZED');
    expect(decodeJwt(user.accessToken!).aud).toBe(proxy.url);
    const projects = await proxy.fetch(`${proxy.url}/api/projects`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(projects.status).toBe(200);
  });
});

/**
 * PUBLIC_BASE_URL, with the service under a path prefix: the proxy serves it at /hub. Every URL it
 * advertises carries the prefix, and the 2024-11-05 SSE transport's endpoint event names the
 * prefixed /messages path, so a client that reached /hub/sse posts where the proxy forwards.
 */
describe('PUBLIC_BASE_URL with a path prefix', () => {
  let proxy: TlsProxy;
  let service: RunningService;
  const token = 's'.repeat(40);

  beforeAll(async () => {
    proxy = await TlsProxy.start({ prefix: '/hub' });
    service = await startService('pglite', {
      env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: token, PUBLIC_BASE_URL: `${proxy.url}/` },
    });
    proxy.target = service.url;
  });
  afterAll(async () => {
    await service?.close();
    await proxy?.close();
  });

  it('names the prefixed https URLs in the challenge, the RFC 9728 document and the OpenAPI server', async () => {
    const none = await proxy.fetch(`${proxy.url}/api/projects`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain(
      `resource_metadata="${proxy.url}/.well-known/oauth-protected-resource"`,
    );
    const document = (await (await proxy.fetch(`${proxy.url}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
    };
    expect(document.resource).toBe(`${proxy.url}/mcp`);
    const openapi = await proxy.fetch(`${proxy.url}/api/openapi.json`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await openapi.json()) as { servers: { url: string }[] }).servers).toEqual([{ url: proxy.url }]);
  });

  it("the SSE transport's endpoint event keeps the prefix; a 2024-11-05 client lists tools through it", async () => {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    const headers = { authorization: `Bearer ${token}` };
    const client = new LegacyClient({ name: 'proxy-sse', version: '1.0.0' }, { capabilities: {} });
    await client.connect(
      new SSEClientTransport(new URL(`${proxy.url}/sse`), {
        requestInit: { headers },
        fetch: proxy.fetch,
        eventSourceInit: {
          fetch: (url, init) =>
            proxy.fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
        },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    await client.close();
  });
});
