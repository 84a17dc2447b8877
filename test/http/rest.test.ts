import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startService, type RunningService } from '../support/service.js';
import { logCapture } from '../support/log-capture.js';
import { STORES } from '../support/stores.js';
import { httpRequest, postLarge } from '../support/raw-mcp.js';

describe.each(STORES)('REST skeleton [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store);
  });
  afterAll(async () => service?.close());

  it('answers /healthz and /readyz with JSON', async () => {
    const health = await api(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    const ready = await api(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', store });
  });

  it('creates projects with organization defaults and lists them with a cursor', async () => {
    const created = await api(`${service.url}/api/projects`, {
      method: 'POST',
      json: { id: 'proj_alpha', name: 'Alpha' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: 'proj_alpha',
      name: 'Alpha',
      reporting_currency: 'USD',
      timezone: 'UTC',
      agent_writes: 'publish',
    });
    for (const id of ['proj_beta', 'proj_gamma']) {
      expect(
        (
          await api(`${service.url}/api/projects`, {
            method: 'POST',
            json: { id, name: id, reporting_currency: 'EUR', timezone: 'Europe/Berlin' },
          })
        ).status,
      ).toBe(201);
    }
    const page1 = await api(`${service.url}/api/projects?limit=2`);
    expect(page1.body.projects.map((p: { id: string }) => p.id)).toEqual(['proj_alpha', 'proj_beta']);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await api(`${service.url}/api/projects?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body.projects.map((p: { id: string }) => p.id)).toContain('proj_gamma');
    expect(page2.body.next_cursor).toBeNull();
  });

  it('answers a duplicate id with 409 problem+json', async () => {
    const dup = await api(`${service.url}/api/projects`, { method: 'POST', json: { id: 'proj_alpha', name: 'Again' } });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('content-type')).toContain('application/problem+json');
    expect(dup.body).toMatchObject({
      status: 409,
      code: 'project_exists',
      title: expect.any(String),
      type: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('validates every field and reports one errors[] entry per violation', async () => {
    const bad = await api(`${service.url}/api/projects`, {
      method: 'POST',
      json: { id: 'Project One', name: '', reporting_currency: 'dollars', timezone: 'Mars/Olympus', extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    const paths = bad.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['body.id', 'body.name', 'body.reporting_currency', 'body.timezone']));
    expect(bad.body.errors.length).toBeGreaterThanOrEqual(5);
  });

  it('answers malformed JSON, unknown routes and bad cursors with problem+json, never a stack trace', async () => {
    const malformed = await api(`${service.url}/api/projects`, {
      method: 'POST',
      body: '{"id": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_json');
    const missing = await api(`${service.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('route_not_found');
    const cursor = await api(`${service.url}/api/projects?cursor=%%%`);
    expect(cursor.status).toBe(400);
    for (const answer of [malformed, missing, cursor])
      expect(JSON.stringify(answer.body)).not.toMatch(/\bat .*\.(ts|js):\d+|SELECT|INSERT/);
  });

  it('refuses U+0000 anywhere in a request with a 400 that names each place, stores nothing and keeps serving', async () => {
    // PostgreSQL text and jsonb cannot hold NUL: before the check these reached the store and came
    // back as 500s.
    const body = await api(`${service.url}/api/projects`, {
      method: 'POST',
      json: { id: 'proj_nul', name: 'a\u0000b', timezone: 'UTC' },
    });
    expect(body.status).toBe(400);
    expect(body.headers.get('content-type')).toContain('application/problem+json');
    expect(body.body.code).toBe('validation_failed');
    expect(body.body.errors).toEqual([{ path: 'body.name', message: expect.stringContaining('U+0000') }]);
    expect((await api(`${service.url}/api/projects/proj_nul`)).status).toBe(404);
    const nested = await api(`${service.url}/api/projects`, {
      method: 'POST',
      json: { id: 'proj_nul', name: 'ok', extra: [{ 'k\u0000': 'v' }, 'x\u0000'] },
    });
    expect(nested.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.extra.0.k\u0000', 'body.extra.1']);
    const path = await api(`${service.url}/api/context/business-links/link%00x`, { method: 'DELETE' });
    expect(path.status).toBe(400);
    expect(path.body.errors).toEqual([{ path: 'path.id', message: expect.stringContaining('U+0000') }]);
    const query = await api(`${service.url}/api/projects?cursor=%00`);
    expect(query.status).toBe(400);
    expect(query.body.errors[0].path).toBe('query.cursor');
    expect((await api(`${service.url}/api/flows/ds%00/run`, { method: 'POST' })).status).toBe(400);
    expect((await api(`${service.url}/healthz`)).status).toBe(200);
  });

  it('routes path parameters as long as the schemas allow; the router refuses only beyond its limit (414) or an undecodable path (400), as problem+json', async () => {
    const P = 'proj_longkeys';
    expect(
      (await api(`${service.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Long keys' } })).status,
    ).toBe(201);
    // A business key may be 128 characters; the router's default limit was 100.
    const key = `kpi.${'a'.repeat(124)}`;
    expect(
      (await api(`${service.url}/api/taxonomy/keys`, { method: 'POST', json: { project_id: P, key, label: 'Long' } }))
        .status,
    ).toBe(201);
    const read = await api(`${service.url}/api/taxonomy/keys/${key}?project_id=${P}`);
    expect(read.status).toBe(200);
    expect(read.body.key).toBe(key);
    const tooLongForSchema = await api(`${service.url}/api/taxonomy/keys/kpi.${'a'.repeat(200)}?project_id=${P}`);
    expect(tooLongForSchema.status).toBe(400);
    expect(tooLongForSchema.body.errors[0].path).toBe('path.key');
    const beyondRouter = await api(`${service.url}/api/projects/${'x'.repeat(5000)}`);
    expect(beyondRouter.status).toBe(414);
    expect(beyondRouter.headers.get('content-type')).toContain('application/problem+json');
    expect(beyondRouter.body).toMatchObject({
      status: 414,
      code: 'uri_too_long',
      request_id: beyondRouter.headers.get('x-request-id'),
    });
    expect(JSON.stringify(beyondRouter.body)).not.toContain('xxxxxxxx');
    const undecodable = await api(`${service.url}/api/projects/proj_%zz`);
    expect(undecodable.status).toBe(400);
    expect(undecodable.body).toMatchObject({ code: 'bad_url', request_id: undecodable.headers.get('x-request-id') });
  });

  it('refuses REST bodies over 2 MiB with 413', async () => {
    const res = await postLarge(service.url, '/api/projects', 2 * 1024 * 1024 + 1);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).code).toBe('payload_too_large');
  });

  it('puts a request id on every response, echoing a sane incoming one', async () => {
    const generated = await api(`${service.url}/api/projects`);
    expect(generated.headers.get('x-request-id')).toMatch(/^req_/);
    const echoed = await api(`${service.url}/api/projects`, { headers: { 'x-request-id': 'trace-12345678' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-12345678');
    const problem = await api(`${service.url}/api/projects/proj_nope`);
    expect(problem.status).toBe(404);
    expect(problem.body.request_id).toBe(problem.headers.get('x-request-id'));
  });

  it('serves an OpenAPI 3.1 document generated from the validating schemas', async () => {
    const doc = await api(`${service.url}/api/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const post = doc.body.paths['/api/projects'].post;
    const schema = post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['id', 'name']));
    expect(schema.properties.id.pattern).toBe('^proj_[a-z0-9][a-z0-9_-]{0,62}$');
    expect(doc.body.paths['/api/projects/{id}'].patch).toBeDefined();
    // Every $ref resolves within the document (a recursive schema's own $defs used to point at
    // the document root, where nothing is).
    const refs: string[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) {
        node.forEach(collect);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.push(value);
        else collect(value);
      }
    };
    collect(doc.body);
    expect(refs).toContain('#/components/schemas/getApiTaxonomy_response_schema0');
    expect(Object.keys(doc.body.paths['/api/skills/{name}/SKILL.md'].get.responses['200'].content)).toEqual([
      'text/markdown',
    ]);
    for (const ref of new Set(refs)) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>(
          (node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
          doc.body,
        );
      expect(target, ref).toBeTypeOf('object');
    }
  });

  it('refuses a foreign Host on a loopback bind, but not on probes', async () => {
    const refused = await httpRequest(service.url, '/api/projects', { headers: { host: 'attacker.example' } });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).code).toBe('host_forbidden');
    const mcp = await httpRequest(service.url, '/mcp', {
      method: 'POST',
      headers: { host: 'attacker.example:80', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(403);
    expect((await httpRequest(service.url, '/healthz', { headers: { host: 'attacker.example' } })).status).toBe(200);
    expect((await httpRequest(service.url, '/api/projects', { headers: { host: 'localhost:1234' } })).status).toBe(200);
  });
});

describe('static token mode', () => {
  const token = 'a-static-token-that-is-long-enough-1234';
  let service: RunningService;
  const logs = logCapture();
  beforeAll(async () => {
    service = await startService('pglite', {
      env: { SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: token, LOG_LEVEL: 'info' },
      logDestination: logs.destination,
    });
  });
  afterAll(async () => service?.close());

  it('requires the bearer token on /api and /mcp, with WWW-Authenticate on 401', async () => {
    const none = await api(`${service.url}/api/projects`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(
      (
        await api(`${service.url}/api/projects`, {
          headers: { authorization: 'Bearer wrong-token-wrong-token-wrong-token' },
        })
      ).status,
    ).toBe(401);
    expect((await api(`${service.url}/api/projects`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    const mcp = await api(`${service.url}/mcp`, {
      method: 'POST',
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.status).toBe(401);
    expect((await api(`${service.url}/healthz`)).status).toBe(200);
  });

  it('never writes the token into its logs', async () => {
    await api(`${service.url}/api/projects`, { headers: { authorization: `Bearer ${token}` } });
    await api(`${service.url}/api/projects`, { headers: { authorization: `Bearer ${token}x` } });
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.text()).not.toContain(token);
  });
});
