import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/platform/http/app.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { TestIdp } from '../support/auth/idp.js';
import { resultCode, TRANSPORT_URLS, uniqueRoutes } from '../support/auth/matrix.js';
import { sampleInput } from '../support/auth/samples.js';

/** Two projects, two identities; each identity's answers must never carry the other's data. */
const ALPHA = { id: 'proj_alpha', name: 'Alpha Marker 11', word: 'alphamark' };
const DEMO = { id: 'proj_demo', word: 'Northwind' };
const PEOPLE = [
  // Queries are the other project's words cut short, so an echo of the query is not a leak.
  {
    sub: 'alice',
    own: ALPHA.id,
    other: DEMO.id,
    foreign: [DEMO.word],
    query: DEMO.word.slice(0, -1),
    ownWord: ALPHA.word,
  },
  {
    sub: 'bob',
    own: DEMO.id,
    other: ALPHA.id,
    foreign: [ALPHA.word, ALPHA.name],
    query: ALPHA.word.slice(0, -1),
    ownWord: DEMO.word,
  },
];

describe.each(STORES)('cross-project isolation under oauth [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      demo: true,
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    const owner = { authorization: `Bearer ${await idp.token('owner-1')}` };
    expect(
      (
        await api(`${service.url}/api/projects`, {
          method: 'POST',
          headers: owner,
          json: { id: ALPHA.id, name: ALPHA.name },
        })
      ).status,
    ).toBe(201);
    for (const p of PEOPLE) {
      const added = await api(`${service.url}/api/org/members`, {
        method: 'POST',
        headers: owner,
        json: { subject: p.sub, role: 'editor', grants: [{ project_id: p.own, role: 'editor' }] },
      });
      expect(added.status).toBe(201);
      tokens.set(p.sub, await idp.token(p.sub));
    }
    // Alice writes into her project with every context-write tool, so Bob has real data to not see.
    const alice = await connectModern(service.url, tokens.get('alice'));
    for (const tool of service.app.registry.tools.filter(
      (t) => t.permission === 'context.write' && 'project_id' in t.input.shape,
    )) {
      const args = sampleInput(tool.input, { project_id: ALPHA.id, $string: ALPHA.word });
      if (args.valid) await alice.callTool({ name: tool.name, arguments: args.value });
    }
    await alice.close();
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  it.each(PEOPLE)(
    '$sub lists only its own project and is refused the other one exactly as a missing one',
    async (p) => {
      const headers = { authorization: `Bearer ${tokens.get(p.sub)}` };
      const list = await api(`${service.url}/api/projects`, { headers });
      expect(list.body.projects.map((x: { id: string }) => x.id)).toEqual([p.own]);
      const other = await api(`${service.url}/api/projects/${p.other}`, { headers });
      const missing = await api(`${service.url}/api/projects/proj_does_not_exist`, { headers });
      expect(other.status).toBe(403);
      const strip = (b: Record<string, unknown>, id: string) => ({
        ...b,
        request_id: undefined,
        detail: String(b.detail).replace(id, '<id>'),
      });
      expect(strip(other.body, p.other)).toEqual(strip(missing.body, 'proj_does_not_exist'));
    },
  );

  it.each(PEOPLE)("$sub's REST reads never carry the other project's data", async (p) => {
    const headers = { authorization: `Bearer ${tokens.get(p.sub)}` };
    const failures: string[] = [];
    for (const route of uniqueRoutes(registeredRoutes(service.app.http))) {
      if (route.method !== 'GET' || TRANSPORT_URLS.has(route.url)) continue;
      for (const project of [p.own, p.other]) {
        const path = route.url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
          /project/i.test(name) || name === 'id' ? project : 'x',
        );
        const res = await fetch(`${service.url}${path}?project_id=${project}&q=${p.query}&query=${p.query}`, {
          headers,
        });
        const text = await res.text();
        for (const word of p.foreign)
          if (text.includes(word)) failures.push(`GET ${path} (project ${project}) shows "${word}"`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(PEOPLE)(
    "$sub's MCP answers — lists, search, reads and the raw unbounded tools — never carry the other project's data",
    async (p) => {
      const client = await connectModern(service.url, tokens.get(p.sub));
      const failures: string[] = [];
      let sawOwn = 0;
      try {
        const listed = await client.callTool({ name: 'list_projects', arguments: {} });
        expect(
          (listed.structuredContent as { data: { projects: { id: string }[] } }).data.projects.map((x) => x.id),
        ).toEqual([p.own]);
        const resources = await client.listResources();
        expect(resources.resources.map((r) => r.uri).filter((u) => u.includes(p.other))).toEqual([]);
        for (const tool of service.app.registry.tools.filter(
          (t) => t.permission !== 'admin' && t.permission !== 'owner',
        )) {
          const projectTool = 'project_id' in tool.input.shape;
          for (const project of projectTool ? ['default', p.own, p.other] : [undefined]) {
            const args = sampleInput(tool.input, { ...(project ? { project_id: project } : {}), query: p.query });
            const result = (await client.callTool({ name: tool.name, arguments: args.value })) as Parameters<
              typeof resultCode
            >[0];
            const text = JSON.stringify(result);
            for (const word of p.foreign)
              if (text.includes(word)) failures.push(`${tool.name}(${project}) shows "${word}"`);
            if (project !== p.other && text.includes(p.ownWord)) sawOwn += 1;
            if (project === p.other && args.valid && resultCode(result) !== 'project_forbidden')
              failures.push(
                `${tool.name}(${project}): expected project_forbidden, got ${resultCode(result) ?? 'success'}`,
              );
            if (project === 'default' && resultCode(result) === 'project_required')
              failures.push(`${tool.name}: default did not resolve to the only project`);
          }
        }
      } finally {
        await client.close();
      }
      expect(failures).toEqual([]);
      // A positive control: the same calls do return the identity's own project data.
      expect(sawOwn).toBeGreaterThan(0);
    },
  );

  it.each(PEOPLE)(
    "$sub reading the other project's resources is refused exactly as for a missing project",
    async (p) => {
      const client = await connectModern(service.url, tokens.get(p.sub));
      try {
        const refusal = async (uri: string) =>
          (await client.readResource({ uri }).then(
            () => undefined,
            (e: { code?: number; data?: { uri?: string; code?: string }; message?: string }) => e,
          ))!;
        for (const template of ['project://{p}', 'anomalies://{p}/recent', 'insight://{p}/latest']) {
          const other = await refusal(template.replace('{p}', p.other));
          const missing = await refusal(template.replace('{p}', 'proj_does_not_exist'));
          expect(other.code).toBe(-32602);
          expect(other.data?.code).toBe('project_forbidden');
          expect({
            code: other.code,
            data: { ...other.data, uri: undefined },
            message: other.message?.replace(p.other, '<id>'),
          }).toEqual({
            code: missing.code,
            data: { ...missing.data, uri: undefined },
            message: missing.message?.replace('proj_does_not_exist', '<id>'),
          });
          for (const word of p.foreign) expect(JSON.stringify(other)).not.toContain(word);
        }
      } finally {
        await client.close();
      }
    },
  );

  it('the owner sees both projects', async () => {
    const list = await api(`${service.url}/api/projects`, {
      headers: { authorization: `Bearer ${await idp.token('owner-1')}` },
    });
    expect(list.body.projects.map((x: { id: string }) => x.id).sort()).toEqual([ALPHA.id, DEMO.id]);
  });
});
