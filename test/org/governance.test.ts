import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../src/platform/http/app.js';
import type { AnyRouteSpec } from '../../src/platform/http/route.js';
import { DisabledAuthenticator } from '../../src/platform/auth/authenticator.js';
import { systemClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { connectLegacy, connectSse } from '../support/mcp-clients.js';
import { rawMcp } from '../support/raw-mcp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { TestIdp } from '../support/auth/idp.js';

describe('governance under oauth: who may manage whom', () => {
  let idp: TestIdp;
  let service: RunningService;
  const as = async (sub: string, method: string, path: string, json?: unknown) =>
    api(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${await idp.token(sub)}` },
      ...(json === undefined ? {} : { json }),
    });

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService('pglite', { env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1' }) });
    expect((await as('owner-1', 'POST', '/api/projects', { id: 'proj_gov', name: 'Gov' })).status).toBe(201);
    expect((await as('owner-1', 'POST', '/api/org/members', { subject: 'admin-1', role: 'admin' })).status).toBe(201);
    const padmin = await as('owner-1', 'POST', '/api/org/members', {
      subject: 'padmin',
      role: 'editor',
      grants: [{ project_id: 'proj_gov', role: 'admin' }],
    });
    expect(padmin.status).toBe(201);
    expect(
      (
        await as('owner-1', 'POST', '/api/org/members', {
          subject: 'viewer-1',
          role: 'viewer',
          grants: [{ project_id: 'proj_gov', role: 'viewer' }],
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('ORG_OWNER_SUBJECT is the first owner', async () => {
    const me = await as('owner-1', 'GET', '/api/org/members/owner-1');
    expect(me.body).toMatchObject({ subject: 'owner-1', role: 'owner' });
  });

  it('an admin manages members but cannot create, promote or remove owners', async () => {
    expect((await as('admin-1', 'POST', '/api/org/members', { subject: 'ed', role: 'editor' })).status).toBe(201);
    expect((await as('admin-1', 'POST', '/api/org/members', { subject: 'o2', role: 'owner' })).body.code).toBe(
      'role_forbidden',
    );
    expect((await as('admin-1', 'PATCH', '/api/org/members/ed', { role: 'owner' })).body.code).toBe('role_forbidden');
    expect((await as('admin-1', 'DELETE', '/api/org/members/owner-1')).body.code).toBe('role_forbidden');
    expect((await as('admin-1', 'PUT', '/api/org/settings', { name: 'x' })).body.code).toBe('role_forbidden');
  });

  it('an admin grant on one project does not make an organization admin', async () => {
    expect((await as('padmin', 'PATCH', '/api/projects/proj_gov', { name: 'Gov 2' })).status).toBe(200);
    expect((await as('padmin', 'GET', '/api/org/members')).body.code).toBe('role_forbidden');
    expect((await as('padmin', 'GET', '/api/org/audit')).body.code).toBe('role_forbidden');
    expect((await as('padmin', 'POST', '/api/projects', { id: 'proj_sneaky', name: 'x' })).body.code).toBe(
      'role_forbidden',
    );
  });

  it('grant changes apply on the next request', async () => {
    expect((await as('viewer-1', 'GET', '/api/projects/proj_gov')).status).toBe(200);
    expect((await as('owner-1', 'PUT', '/api/org/members/viewer-1/grants', { grants: [] })).status).toBe(200);
    expect((await as('viewer-1', 'GET', '/api/projects/proj_gov')).body.code).toBe('project_forbidden');
    expect((await as('owner-1', 'DELETE', '/api/org/members/viewer-1')).status).toBe(204);
    expect((await as('viewer-1', 'GET', '/api/projects')).body.projects).toEqual([]);
  });

  it('tools/list is filtered in the 2025 era and over HTTP+SSE too; a hidden tool answers role_forbidden', async () => {
    const token = await idp.token('ed');
    const writeTools = service.app.registry.tools
      .filter((t) => t.permission === 'admin' || t.permission === 'owner')
      .map((t) => t.name);
    const { client, transport } = await connectLegacy(service.url, token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_projects');
    for (const name of writeTools) expect(names).not.toContain(name);
    await transport.terminateSession();
    await client.close();
    const viewer = await idp.token('someone', { projects: ['proj_gov'] });
    const sse = await connectSse(service.url, viewer);
    const sseNames = (await sse.listTools()).tools.map((t) => t.name);
    const contextWrite = service.app.registry.tools.filter((t) => t.permission === 'context.write').map((t) => t.name);
    for (const name of contextWrite) expect(sseNames).not.toContain(name);
    if (contextWrite[0]) {
      const refused = await sse.callTool({ name: contextWrite[0], arguments: {} });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]!.text).toMatch(/^role_forbidden:/);
    }
    await sse.close();
  });
});

describe('host validation (strict) refuses before any other work; probes are exempt', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite', {
      env: {
        HOST_HEADER_VALIDATION: 'strict',
        ALLOWED_HOST: 'hub.example.com',
        SERVICE_AUTH_MODE: 'static',
        SERVICE_STATIC_TOKEN: 'x'.repeat(40),
      },
    });
  });
  afterAll(async () => service?.close());

  it('answers 403 problem+json on REST and on /mcp, not 401, for a Host outside ALLOWED_HOST', async () => {
    const rest = await api(`${service.url}/api/projects`);
    expect([rest.status, rest.body.code]).toEqual([403, 'host_forbidden']);
    const mcp = await rawMcp(service.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(403);
    expect(JSON.parse(mcp.text).code).toBe('host_forbidden');
    expect((await api(`${service.url}/healthz`)).status).toBe(200);
    // fetch cannot set Host; node:http can.
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${service.url}/api/projects`, { headers: { host: 'hub.example.com' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(401);
  });
});

describe('a route without an authorization rule cannot be registered', () => {
  it('buildHttpApp throws naming the route, so the suite fails', () => {
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' });
    const ruleless = {
      method: 'GET',
      url: '/api/no-rule',
      summary: 'x',
      tags: [],
      handler: async () => ({}),
    } as unknown as AnyRouteSpec;
    expect(() =>
      buildHttpApp(
        {
          config,
          logger: createLogger({ level: 'silent' }),
          clock: systemClock,
          authenticator: new DisabledAuthenticator(),
          version: 't',
          challenge: () => 'Bearer',
        },
        [ruleless],
      ),
    ).toThrow(/GET \/api\/no-rule has no authorization rule/);
  });
});
