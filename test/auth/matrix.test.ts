import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, type RegisteredRoute } from '../../src/platform/http/app.js';
import type { AnyToolSpec } from '../../src/mcp/kit/tool.js';
import { connectModern } from '../support/mcp-clients.js';
import { rawMcp } from '../support/raw-mcp.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { badCredentialCases, TestIdp } from '../support/auth/idp.js';
import {
  allows,
  expectedRest,
  fillPath,
  PROBLEM_KEYS,
  resultCode,
  SIGNED_WEBHOOK_URLS,
  TRANSPORT_URLS,
  uniqueRoutes,
  type Identity,
  type Permission,
} from '../support/auth/matrix.js';
import { sampleInput } from '../support/auth/samples.js';

const P = 'proj_matrix';
const Q = 'proj_other';
/** P's name: data that no identity without a grant on P may ever see, in any answer. */
const MARK = 'Matrix Secret Payload 7f3a';

const IDENTITIES: Identity[] = [
  { name: 'valid token without grant', sub: 'nogrant-1', claims: {}, orgRole: 'viewer', projectRole: undefined },
  {
    name: 'valid token with grant (projects claim)',
    sub: 'claimer-1',
    claims: { projects: [P] },
    orgRole: 'viewer',
    projectRole: 'viewer',
  },
  {
    name: 'viewer',
    sub: 'viewer-1',
    claims: {},
    orgRole: 'viewer',
    projectRole: 'viewer',
    member: { role: 'viewer', grants: [{ project_id: P, role: 'viewer' }] },
  },
  {
    name: 'editor',
    sub: 'editor-1',
    claims: {},
    orgRole: 'editor',
    projectRole: 'editor',
    member: { role: 'editor', grants: [{ project_id: P, role: 'editor' }] },
  },
  {
    name: 'admin',
    sub: 'admin-1',
    claims: {},
    orgRole: 'admin',
    projectRole: 'admin',
    member: { role: 'admin', grants: [] },
  },
  { name: 'owner', sub: 'owner-1', claims: {}, orgRole: 'owner', projectRole: 'owner' },
];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function send(base: string, route: RegisteredRoute, path: string, header: string | undefined): Promise<Answer> {
  const method = route.method;
  const headers: Record<string, string> = {};
  if (header !== undefined) headers.authorization = header;
  let body: string | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    // The first type the route takes (the route table says; JSON for all but raw-body routes).
    headers['content-type'] = route.writes?.accepts[0] ?? 'application/json';
    body = '{}';
  }
  const url = `${base}${path}${TRANSPORT_URLS.has(path) ? '' : `${path.includes('?') ? '&' : '?'}project_id=${P}`}`;
  const res = await fetch(url, { method, headers, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** An unsigned request reached the route's own signature check (not the gate) and changed nothing. */
function signedWebhookFailures(label: string, answer: Answer, code: string): string[] {
  if (answer.status !== 401) return [`${label}: unsigned webhook answered ${answer.status}`];
  if (answer.text.includes(MARK)) return [`${label}: refused answer leaks project data`];
  return refusedProblemFailures(label, answer, code);
}

function refusedProblemFailures(label: string, answer: Answer, code: string | undefined): string[] {
  const failures: string[] = [];
  let problem: Record<string, unknown> = {};
  try {
    problem = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    return [`${label}: refused answer is not JSON: ${answer.text.slice(0, 120)}`];
  }
  if (!String(answer.headers.get('content-type')).startsWith('application/problem+json'))
    failures.push(`${label}: refused answer is not problem+json`);
  if (code && problem.code !== code)
    failures.push(`${label}: expected code ${code}, got ${String(problem.code)} (${answer.status})`);
  const extra = Object.keys(problem).filter((k) => !PROBLEM_KEYS.has(k));
  if (extra.length) failures.push(`${label}: refused answer carries data keys ${extra.join(', ')}`);
  return failures;
}

describe.each(STORES)('authorization matrix: every REST route and every MCP tool × every credential [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  let routes: RegisteredRoute[];
  let tools: AnyToolSpec[];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    for (const id of IDENTITIES) tokens.set(id.sub, await idp.token(id.sub, id.claims));
    const owner = { authorization: `Bearer ${tokens.get('owner-1')}` };
    for (const [id, name] of [
      [P, MARK],
      [Q, 'Other project'],
    ]) {
      const created = await api(`${service.url}/api/projects`, { method: 'POST', headers: owner, json: { id, name } });
      expect(created.status).toBe(201);
    }
    for (const id of IDENTITIES.filter((i) => i.member)) {
      const added = await api(`${service.url}/api/org/members`, {
        method: 'POST',
        headers: owner,
        json: { subject: id.sub, ...id.member },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    routes = uniqueRoutes(registeredRoutes(service.app.http));
    tools = service.app.registry.tools;
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it('enumerates the running app: module routes, org routes, MCP transports, public probes', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    for (const k of [
      'GET /api/projects',
      'PUT /api/org/settings',
      'GET /api/org/audit',
      'POST /mcp',
      'GET /sse',
      'GET /healthz',
      'GET /.well-known/oauth-protected-resource/mcp',
    ]) {
      expect(keys).toContain(k);
    }
    expect(tools.map((t) => t.name)).toContain('list_projects');
  });

  it('every bad credential × every non-public REST route → 401 with a challenge and no data', async () => {
    const cases = await badCredentialCases(idp, 'owner-1');
    const failures: string[] = [];
    for (const route of routes) {
      const path = fillPath(route.url, P);
      for (const c of cases) {
        const answer = await send(service.url, route, path, c.header);
        const label = `${route.method} ${route.url} [${c.name}]`;
        const signed = SIGNED_WEBHOOK_URLS.get(route.url);
        if (signed) {
          failures.push(...signedWebhookFailures(label, answer, signed));
          continue;
        }
        if ('public' in route.rule) {
          if (answer.status === 401 || answer.status === 403)
            failures.push(`${label}: public route answered ${answer.status}`);
          continue;
        }
        if (answer.status !== 401) failures.push(`${label}: expected 401, got ${answer.status}`);
        const challenge = answer.headers.get('www-authenticate') ?? '';
        if (!/^Bearer /.test(challenge) || !challenge.includes('resource_metadata="'))
          failures.push(`${label}: challenge missing or incomplete: ${challenge}`);
        if (answer.text.includes(MARK)) failures.push(`${label}: refused answer leaks project data`);
        failures.push(...refusedProblemFailures(label, answer, undefined));
      }
    }
    expect(failures).toEqual([]);
  });

  it('every bad credential × every MCP tool → HTTP 401 on the endpoint, no data', async () => {
    const cases = await badCredentialCases(idp, 'owner-1');
    const failures: string[] = [];
    for (const tool of tools) {
      for (const c of cases) {
        const res = await rawMcp(
          service.url,
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: { project_id: P } } },
          c.header ? { authorization: c.header } : {},
        );
        const label = `${tool.name} [${c.name}]`;
        if (res.status !== 401) failures.push(`${label}: expected 401, got ${res.status}`);
        if (res.text.includes(MARK)) failures.push(`${label}: leaks project data`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(IDENTITIES.map((i) => [i.name, i] as const))(
    'REST routes for %s: allowed exactly as each route rule says',
    async (_name, id) => {
      const failures: string[] = [];
      for (const route of routes) {
        if (TRANSPORT_URLS.has(route.url)) continue;
        const answer = await send(service.url, route, fillPath(route.url, P), `Bearer ${tokens.get(id.sub)}`);
        const label = `${route.method} ${route.url} as ${id.name}`;
        const expected = expectedRest(route, id);
        const signed = SIGNED_WEBHOOK_URLS.get(route.url);
        if (signed) {
          failures.push(...signedWebhookFailures(label, answer, signed));
          continue;
        }
        if (answer.status === 401) failures.push(`${label}: valid token answered 401`);
        if (id.projectRole === undefined && answer.text.includes(MARK))
          failures.push(`${label}: identity without a grant sees project data`);
        if (expected.allowed) {
          const projectRefusal =
            answer.status === 403 &&
            id.projectRole === undefined &&
            JSON.parse(answer.text).code === 'project_forbidden';
          if (answer.status === 403 && !projectRefusal)
            failures.push(`${label}: expected allowed, got 403 ${answer.text.slice(0, 160)}`);
          // 502/503 are upstream answers (a feed the route fetches); 500 is ours and never acceptable.
          if (answer.status === 500) failures.push(`${label}: internal error ${answer.text.slice(0, 160)}`);
        } else {
          if (answer.status !== 403) failures.push(`${label}: expected 403 ${expected.code}, got ${answer.status}`);
          else failures.push(...refusedProblemFailures(label, answer, expected.code));
          if (answer.text.includes(MARK)) failures.push(`${label}: refused answer leaks project data`);
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it.each(IDENTITIES.map((i) => [i.name, i] as const))(
    'MCP tools for %s: tools/list shows exactly the usable tools; calls answer as the rule says',
    async (_name, id) => {
      const client = await connectModern(service.url, tokens.get(id.sub), { apps: true });
      const failures: string[] = [];
      try {
        const registryNames = new Set(tools.map((t) => t.name));
        const listed = (await client.listTools()).tools
          .map((t) => t.name)
          .filter((n) => registryNames.has(n))
          .sort();
        const usable = tools
          .filter(
            (t) => allows(id.orgRole, t.permission as Permission) || allows(id.projectRole, t.permission as Permission),
          )
          .map((t) => t.name)
          .sort();
        expect(listed).toEqual(usable);
        for (const tool of tools) {
          const permission = tool.permission as Permission;
          const projectTool = 'project_id' in tool.input.shape;
          const args = sampleInput(tool.input, { project_id: P, query: 'Matrix' });
          const result = (await client.callTool({ name: tool.name, arguments: args.value })) as {
            isError?: boolean;
            content?: unknown;
            _meta?: Record<string, unknown>;
          };
          const code = resultCode(result);
          const label = `${tool.name} as ${id.name}${args.valid ? '' : ' (sample args invalid)'}`;
          if (process.env.MATRIX_DEBUG) console.log(label, code);
          const text = JSON.stringify(result);
          if (id.projectRole === undefined && text.includes(MARK))
            failures.push(`${label}: identity without a grant sees project data`);
          const gate = allows(id.orgRole, permission) || allows(id.projectRole, permission);
          if (!gate) {
            if (code !== 'role_forbidden') failures.push(`${label}: expected role_forbidden, got ${code ?? 'success'}`);
            continue;
          }
          if (projectTool && args.valid) {
            const want =
              id.projectRole === undefined
                ? 'project_forbidden'
                : !allows(id.projectRole, permission)
                  ? 'role_forbidden'
                  : undefined;
            if (want && code !== want) failures.push(`${label}: expected ${want}, got ${code ?? 'success'}`);
            if (!want && (code === 'role_forbidden' || code === 'project_forbidden'))
              failures.push(`${label}: expected allowed, got ${code}`);
          } else if (code === 'role_forbidden' || (code === 'project_forbidden' && id.projectRole !== undefined)) {
            failures.push(`${label}: expected allowed, got ${code}`);
          }
          if (code === 'internal_error') failures.push(`${label}: internal error`);
        }
      } finally {
        await client.close();
      }
      expect(failures).toEqual([]);
    },
  );
});
