import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { rawMcp } from '../support/raw-mcp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const TOKEN = `${'s'.repeat(12)}static-token-for-org-tests-0123456789`;
const auth = { authorization: `Bearer ${TOKEN}` };

describe.each(STORES)('organization governance: settings, members, grants, limits, audit, rate limit [%s]', (store) => {
  let service: RunningService;
  const clock = new ManualClock('2026-11-22T06:00:10Z');
  const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
    api(`${service.url}${path}`, { method, headers: { ...auth, ...headers }, ...(json === undefined ? {} : { json }) });

  beforeAll(async () => {
    service = await startService(store, { env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: TOKEN }, clock });
    expect((await call('POST', '/api/projects', { id: 'proj_org_a', name: 'A' })).status).toBe(201);
  });
  afterAll(async () => service?.close());

  it('GET /api/org/settings: organization, default limits and the member access roles', async () => {
    const res = await call('GET', '/api/org/settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'org',
      default_reporting_currency: 'USD',
      default_timezone: 'UTC',
      auth_mode: 'static',
      limits: {
        projects: 50,
        datastreams_per_project: 100,
        members: 200,
        context_objects_per_project: 200_000,
        api_requests_per_minute: 6_000,
      },
    });
    expect(res.body.roles.map((r: { role: string }) => r.role)).toEqual(['viewer', 'editor', 'admin', 'owner']);
    expect(res.body.roles.find((r: { role: string }) => r.role === 'editor').permissions).toContain('context.write');
  });

  it('PUT /api/org/settings validates every field and reports each violation', async () => {
    const res = await call('PUT', '/api/org/settings', {
      default_timezone: 'Mars/Base',
      default_reporting_currency: 'usd',
      limits: { projects: 0, bogus: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.length).toBeGreaterThanOrEqual(4);
    const ok = await call('PUT', '/api/org/settings', { name: 'Northwind', default_timezone: 'Europe/Berlin' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Northwind', default_timezone: 'Europe/Berlin' });
  });

  it('members: add with grants, read, replace grants, change role; unknown projects are a 400', async () => {
    const bad = await call('POST', '/api/org/members', {
      subject: 'alice',
      role: 'editor',
      grants: [{ project_id: 'proj_missing', role: 'editor' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toContain('grants.0.project_id');
    const added = await call('POST', '/api/org/members', {
      subject: 'alice',
      email: 'alice@example.com',
      role: 'editor',
      grants: [{ project_id: 'proj_org_a', role: 'editor' }],
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      subject: 'alice',
      role: 'editor',
      grants: [{ project_id: 'proj_org_a', role: 'editor' }],
      created_by: 'operator',
    });
    expect((await call('POST', '/api/org/members', { subject: 'alice' })).body.code).toBe('member_exists');
    expect((await call('GET', '/api/org/members/alice')).body.email).toBe('alice@example.com');
    const grants = await call('PUT', '/api/org/members/alice/grants', { grants: [] });
    expect(grants.body).toEqual({ subject: 'alice', grants: [] });
    expect((await call('GET', '/api/org/members/alice/grants')).body.grants).toEqual([]);
    expect((await call('PATCH', '/api/org/members/alice', { role: 'admin' })).body.role).toBe('admin');
    expect((await call('GET', '/api/org/members/nobody')).status).toBe(404);
    const subjectWithPipe = encodeURIComponent('auth0|5f1c');
    expect((await call('POST', '/api/org/members', { subject: 'auth0|5f1c' })).status).toBe(201);
    expect((await call('GET', `/api/org/members/${subjectWithPipe}`)).body.subject).toBe('auth0|5f1c');
    const list = await call('GET', '/api/org/members?limit=1');
    expect(list.body.members).toHaveLength(1);
    expect(list.body.next_cursor).not.toBeNull();
  });

  it('the last owner can be neither demoted nor removed', async () => {
    expect((await call('POST', '/api/org/members', { subject: 'olga', role: 'owner' })).status).toBe(201);
    const demote = await call('PATCH', '/api/org/members/olga', { role: 'viewer' });
    expect([demote.status, demote.body.code]).toEqual([409, 'last_owner']);
    expect((await call('DELETE', '/api/org/members/olga')).body.code).toBe('last_owner');
    expect((await call('POST', '/api/org/members', { subject: 'oscar', role: 'owner' })).status).toBe(201);
    expect((await call('DELETE', '/api/org/members/olga')).status).toBe(204);
  });

  it('entitlement limits: creating past a limit is a 409 naming it', async () => {
    const members = (await call('GET', '/api/org/members?limit=500')).body.members.length;
    const projects = (await call('GET', '/api/projects?limit=500')).body.projects.length;
    expect((await call('PUT', '/api/org/settings', { limits: { members, projects } })).status).toBe(200);
    const member = await call('POST', '/api/org/members', { subject: 'one-too-many' });
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({ code: 'limit_exceeded', limit: 'members', max: members });
    const project = await call('POST', '/api/projects', { id: 'proj_one_too_many', name: 'x' });
    expect(project.status).toBe(409);
    expect(project.body).toMatchObject({ code: 'limit_exceeded', limit: 'projects', max: projects });
    expect((await call('PUT', '/api/org/settings', { limits: { members: 200, projects: 50 } })).status).toBe(200);
    expect((await call('POST', '/api/projects', { id: 'proj_org_b', name: 'B' })).status).toBe(201);
  });

  it('the audit log records every write with who, when, what and the request id, newest first, paginated', async () => {
    const rid = 'audit-request-0001';
    expect(
      (await call('PATCH', '/api/projects/proj_org_b', { name: 'B renamed' }, { 'x-request-id': rid })).status,
    ).toBe(200);
    const page1 = await call('GET', '/api/org/audit?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.entries).toHaveLength(2);
    expect(page1.body.entries[0]).toMatchObject({
      action: 'project.update',
      target: 'proj_org_b',
      project_id: 'proj_org_b',
      request_id: rid,
      actor: { subject: 'operator', kind: 'operator' },
      at: clock.now().toISOString(),
    });
    const page2 = await call('GET', `/api/org/audit?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body.entries[0].id).toBeLessThan(page1.body.entries[1].id);
    const all = (await call('GET', '/api/org/audit?limit=500')).body.entries.map((e: { action: string }) => e.action);
    for (const action of [
      'project.create',
      'project.update',
      'org.settings.update',
      'member.create',
      'member.update',
      'member.grants.replace',
      'member.delete',
    ])
      expect(all).toContain(action);
    const filtered = await call('GET', '/api/org/audit?action=member.delete');
    expect(filtered.body.entries.map((e: { target: string }) => e.target)).toEqual(['member:olga']);
    expect((await call('GET', '/api/org/audit?cursor=garbage')).status).toBe(400);
  });

  it('rate limit per identity: 429 with Retry-After past api_requests_per_minute, open again next minute', async () => {
    clock.set('2026-11-22T07:00:00Z');
    expect((await call('PUT', '/api/org/settings', { limits: { api_requests_per_minute: 5 } })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await call('GET', '/api/projects')).status).toBe(200);
    clock.advance(15_000);
    const limited = await call('GET', '/api/projects');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.projects).toBeUndefined();
    expect((await call('GET', '/healthz')).status).toBe(200);
    const mcp = await rawMcp(service.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, auth);
    expect(mcp.status).toBe(429);
    expect(mcp.headers.get('retry-after')).toBe('45');
    clock.advance(45_000);
    expect((await call('PUT', '/api/org/settings', { limits: { api_requests_per_minute: 6000 } })).status).toBe(200);
  });
});

describe('disabled mode has no rate limit', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite');
  });
  afterAll(async () => service?.close());

  it('serves past api_requests_per_minute', async () => {
    expect(
      (
        await api(`${service.url}/api/org/settings`, {
          method: 'PUT',
          json: { limits: { api_requests_per_minute: 1 } },
        })
      ).status,
    ).toBe(200);
    for (let i = 0; i < 5; i++) expect((await api(`${service.url}/api/projects`)).status).toBe(200);
  });
});
