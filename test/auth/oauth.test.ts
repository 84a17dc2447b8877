import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI } from 'jose';
import { createOrgServices } from '../../src/app/org-services.js';
import { actorFromClaims, OAuthAuthenticator } from '../../src/platform/auth/oauth.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { createLogger } from '../../src/platform/logger.js';
import { openTestDatabase, STORES } from '../support/stores.js';
import { ManualClock, systemClock } from '../../src/platform/clock.js';
import { openRawSession, rawMcp } from '../support/raw-mcp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { AUDIENCE, ISSUER, TestIdp } from '../support/auth/idp.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('oauth mode: RS256 tokens from the issuer, keys from a JWKS over loopback', () => {
  let idp: TestIdp;
  let service: RunningService;
  const clock = new ManualClock('2026-11-22T06:00:00Z');

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService('pglite', { env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }), clock });
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  const get = (token: string, path = '/api/projects') => api(`${service.url}${path}`, { headers: bearer(token) });

  it('fetches the JWKS once and serves later tokens from the cache', async () => {
    expect(idp.jwksFetches).toBe(0);
    expect((await get(await idp.token('owner-1', {}, { now: clock.now() }))).status).toBe(200);
    expect((await get(await idp.token('owner-1', {}, { now: clock.now() }))).status).toBe(200);
    expect(idp.jwksFetches).toBe(1);
  });

  it('tolerates at most 60 s of clock skew on exp and nbf', async () => {
    const at = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000);
    expect((await get(await idp.token('owner-1', {}, { now: at(-3630), expiresIn: 3600 }))).status).toBe(200);
    const late = await get(await idp.token('owner-1', {}, { now: at(-3690), expiresIn: 3600 }));
    expect(late.status).toBe(401);
    expect(late.body.reason).toBe('expired');
    expect((await get(await idp.token('owner-1', {}, { now: clock.now(), notBefore: 30 }))).status).toBe(200);
    const early = await get(await idp.token('owner-1', {}, { now: clock.now(), notBefore: 90 }));
    expect(early.status).toBe(401);
    expect(early.body.reason).toBe('not_yet_valid');
  });

  it('refetches on an unknown kid at most once per cooldown, and picks up a rotated key', async () => {
    const before = idp.jwksFetches;
    clock.advance(31_000);
    const unknown = await get(await idp.token('owner-1', {}, { now: clock.now(), kid: 'k2' }));
    expect(unknown.status).toBe(401);
    expect(unknown.body.reason).toBe('unknown_key');
    expect(idp.jwksFetches).toBe(before + 1);
    for (let i = 0; i < 5; i++)
      expect((await get(await idp.token('owner-1', {}, { now: clock.now(), kid: `bogus-${i}` }))).status).toBe(401);
    expect(idp.jwksFetches).toBe(before + 1);
    await idp.addKey('k2');
    clock.advance(31_000);
    expect((await get(await idp.token('owner-1', {}, { now: clock.now(), kid: 'k2' }))).status).toBe(200);
    expect(idp.jwksFetches).toBe(before + 2);
  });

  it('refreshes a cached JWKS after its maximum age', async () => {
    const before = idp.jwksFetches;
    clock.advance(11 * 60_000);
    expect((await get(await idp.token('owner-1', {}, { now: clock.now() }))).status).toBe(200);
    expect(idp.jwksFetches).toBe(before + 1);
  });

  it('401s carry WWW-Authenticate with resource_metadata and scope; the MCP endpoint points at its own metadata', async () => {
    const none = await api(`${service.url}/api/projects`);
    expect(none.status).toBe(401);
    const challenge = none.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${service.url}/.well-known/oauth-protected-resource"`);
    expect(challenge).toContain('scope="context.read"');
    expect(challenge).not.toContain('error=');
    const mcp = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${await idp.token('owner-1', {}, { now: clock.now(), expiresIn: -600 })}` },
    );
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain(
      `resource_metadata="${service.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(mcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(mcp.text).not.toContain('eyJ');
  });

  it('serves RFC 9728 metadata naming the issuer and the scopes, without authentication', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource/mcp', `${service.url}/mcp`],
      ['/.well-known/oauth-protected-resource', service.url],
    ]) {
      const res = await api(`${service.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        resource,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ['header'],
      });
      expect([...res.body.scopes_supported].sort()).toEqual(['admin', 'context.read', 'context.write', 'data.read']);
    }
  });

  it('accepts tokens only in the Authorization header', async () => {
    const token = await idp.token('owner-1', {}, { now: clock.now() });
    expect((await api(`${service.url}/api/projects?access_token=${token}`)).status).toBe(401);
    expect(
      (await api(`${service.url}/api/projects`, { method: 'GET', headers: { cookie: `access_token=${token}` } }))
        .status,
    ).toBe(401);
  });

  it('a token scope narrows the role: REST answers 403 insufficient_scope with a step-up challenge', async () => {
    const dataOnly = await get(await idp.token('owner-1', { scope: 'data.read' }, { now: clock.now() }));
    expect(dataOnly.status).toBe(403);
    expect(dataOnly.body.code).toBe('insufficient_scope');
    expect(dataOnly.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="context.read"/);
    const readOnly = await idp.token('owner-1', { scope: 'context.read' }, { now: clock.now() });
    const settings = await api(`${service.url}/api/org/settings`, {
      method: 'PUT',
      headers: bearer(readOnly),
      json: { name: 'x' },
    });
    expect(settings.status).toBe(403);
    expect(settings.body.code).toBe('insufficient_scope');
  });

  it('on /mcp a narrowed token sees only the tools its scope allows and gets HTTP 403 insufficient_scope for others', async () => {
    const token = await idp.token('owner-1', { scope: 'context.read' }, { now: clock.now() });
    const session = await openRawSession(service.url, '2025-06-18', bearer(token));
    const listed = await rawMcp(service.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    const names: string[] = listed.messages[0].result.tools.map((t: { name: string }) => t.name);
    const registry = service.app.registry.tools;
    expect(names.sort()).toEqual(
      registry
        .filter((t) => t.permission === 'context.read')
        .map((t) => t.name)
        .sort(),
    );
    const other = registry.find((t) => t.permission !== 'context.read');
    expect(other, 'a tool that needs more than context.read is registered').toBeDefined();
    const call = await rawMcp(
      service.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: other!.name, arguments: {} } },
      session,
    );
    expect(call.status).toBe(403);
    expect(JSON.parse(call.text).code).toBe('insufficient_scope');
    // Every scope the call needs, the granted context.read included: a client that asks for exactly
    // this set keeps what it had.
    expect(call.headers.get('www-authenticate')).toContain(
      `error="insufficient_scope", scope="context.read ${other!.permission === 'owner' ? 'admin' : other!.permission}"`,
    );
  });

  it('a 403 insufficient_scope names every scope the request needs, granted ones included (eras, REST)', async () => {
    const challenge = (answer: { headers: Headers }) =>
      /error="insufficient_scope", scope="([^"]*)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1];
    const write = service.app.registry.tools.find((t) => t.permission === 'context.write')!;
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: write.name, arguments: {} },
    });
    const readOnly = bearer(await idp.token('owner-1', { scope: 'context.read' }, { now: clock.now() }));
    const writeOnly = bearer(await idp.token('owner-1', { scope: 'context.write' }, { now: clock.now() }));
    // 2025-era session: the write tool needs context.write on top of the endpoint's context.read.
    const session = await openRawSession(service.url, '2025-11-25', readOnly);
    const legacy = await rawMcp(service.url, call(1), session);
    expect([legacy.status, challenge(legacy)]).toEqual([403, 'context.read context.write']);
    expect(JSON.parse(legacy.text)).toMatchObject({
      required_scope: 'context.read context.write',
      missing_scope: 'context.write',
    });
    // 2026-07-28 (stateless): a token with only context.write still needs context.read for any call.
    const modern = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': write.name,
      ...writeOnly,
    };
    const stateless = await rawMcp(service.url, call(2), modern);
    expect([stateless.status, challenge(stateless)]).toEqual([403, 'context.read context.write']);
    // A batch needs the union of its calls' scopes.
    const data = service.app.registry.tools.find((t) => t.permission === 'data.read')!;
    const batch = await rawMcp(
      service.url,
      [call(3), { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: data.name, arguments: {} } }],
      session,
    );
    expect(challenge(batch)).toBe('context.read context.write data.read');
    // REST: the route's one scope.
    const rest = await api(`${service.url}/api/org/settings`, {
      method: 'PUT',
      headers: readOnly,
      json: { name: 'x' },
    });
    expect([rest.status, challenge(rest)]).toEqual([403, 'admin']);
  });
});

describe('oauth mode with OAUTH_PUBLIC_KEY', () => {
  let idp: TestIdp;
  let service: RunningService;
  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService('pglite', {
      env: {
        SERVICE_AUTH_MODE: 'oauth',
        OAUTH_ISSUER: ISSUER,
        OAUTH_AUDIENCE: AUDIENCE,
        OAUTH_PUBLIC_KEY: idp.publicPem,
        ORG_OWNER_SUBJECT: 'owner-1',
      },
    });
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('verifies RS256 with the PEM and refuses key confusion, ES256 and other keys', async () => {
    const get = async (token: string) => api(`${service.url}/api/projects`, { headers: bearer(token) });
    expect((await get(await idp.token('owner-1'))).status).toBe(200);
    const confused = await get(await idp.hs256WithPublicKey('owner-1'));
    expect([confused.status, confused.body.reason]).toEqual([401, 'algorithm']);
    const ec = await get(await idp.es256('owner-1'));
    expect([ec.status, ec.body.reason]).toEqual([401, 'algorithm']);
    const none = await get(idp.algNone('owner-1'));
    expect(none.status).toBe(401);
    const rogue = await get(await idp.token('owner-1', {}, { key: 'rogue' }));
    expect([rogue.status, rogue.body.reason]).toEqual([401, 'signature']);
    expect(idp.jwksFetches).toBe(0);
  });
});

describe('actorFromClaims: grants from the member record and the projects claim', () => {
  const payload = (extra: Record<string, unknown>) => ({ sub: 's', iss: ISSUER, ...extra });

  it('a subject without a member record gets its claim projects as viewer, nothing else', () => {
    const actor = actorFromClaims(payload({ projects: ['proj_a', 'not a project id'] }), undefined);
    expect(actor.kind).toBe('token');
    expect(actor.role).toBe('viewer');
    expect(actor.projects).toEqual(new Map([['proj_a', 'viewer']]));
  });

  it('the member record gives more than viewer on claimed projects; grants keep their own role', () => {
    const actor = actorFromClaims(payload({ projects: ['proj_a', 'proj_b'] }), {
      role: 'editor',
      grants: new Map([
        ['proj_b', 'admin'],
        ['proj_c', 'viewer'],
      ]),
    });
    expect(actor.projects).toEqual(
      new Map([
        ['proj_a', 'editor'],
        ['proj_b', 'admin'],
        ['proj_c', 'viewer'],
      ]),
    );
  });

  it('owners and admins act on every project; a scope claim narrows whatever the role is', () => {
    const actor = actorFromClaims(payload({ scope: 'context.read unknown.scope' }), {
      role: 'admin',
      grants: new Map(),
    });
    expect(actor.projects).toBe('all');
    expect([...actor.scopes!]).toEqual(['context.read']);
  });
});

describe('oauth configuration that cannot work refuses to start with one line naming the variable', () => {
  it('OAUTH_PUBLIC_KEY that is not an RSA public key (garbage, or an EC key)', async () => {
    const idp = await TestIdp.start();
    const store = await openTestDatabase(STORES[STORES.length - 1]!);
    await migrate(store.db);
    try {
      const members = createOrgServices({ db: store.db, clock: systemClock }).members;
      for (const pem of ['not a pem', await exportSPKI(idp.ec.publicKey)]) {
        const authenticator = new OAuthAuthenticator({
          issuer: ISSUER,
          audience: [AUDIENCE],
          publicKeyPem: pem,
          members,
          clock: systemClock,
          log: createLogger({ level: 'silent' }),
        });
        await expect(authenticator.ready()).rejects.toThrow(
          /^OAUTH_PUBLIC_KEY="<\d+ characters>" is not allowed: an RSA public key in PEM/,
        );
      }
    } finally {
      await store.drop();
      await idp.close();
    }
  });
});

describe('oauth mode when the issuer is down', () => {
  let idp: TestIdp;
  let service: RunningService;
  const clock = new ManualClock('2026-11-22T06:00:00Z');
  beforeAll(async () => {
    idp = await TestIdp.start();
    idp.failing = true;
    service = await startService(STORES[STORES.length - 1]!, { env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }), clock });
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('answers 503 jwks_unavailable (not 401), retries at most every few seconds, and recovers', async () => {
    const token = await idp.token('owner-1', {}, { now: clock.now() });
    const get = () => api(`${service.url}/api/projects`, { headers: bearer(token) });
    const first = await get();
    expect([first.status, first.body.code]).toEqual([503, 'jwks_unavailable']);
    expect(JSON.stringify(first.body)).not.toContain(token.slice(0, 20));
    expect(idp.jwksFetches).toBe(1);
    expect((await get()).status).toBe(503);
    expect(idp.jwksFetches).toBe(1);
    clock.advance(6_000);
    expect((await get()).status).toBe(503);
    expect(idp.jwksFetches).toBe(2);
    idp.failing = false;
    clock.advance(6_000);
    expect((await get()).status).toBe(200);
    expect(idp.jwksFetches).toBe(3);
  });
});
