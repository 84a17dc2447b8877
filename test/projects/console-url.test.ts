import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// A console URL is a project reference wherever project_id is taken (REST body and
// query, MCP arguments on both eras), and a URL that names no project is refused saying what works.

const P = 'proj_console_ref';
const OTHER = 'proj_console_other';

/** URLs as people copy them: any scheme of the two, a port, a prefix, a section, query, fragment. */
const CONSOLE_URLS = [
  `https://hub.example.com/console/${P}/overview`,
  `https://hub.example.com/console/${P}`,
  `https://hub.example.com/console/${P}/`,
  `http://127.0.0.1:8000/console/${P}/skills/weekly-review?tab=history#v2`,
  `https://example.com/analytics/hub/console/${P}/anomalies`,
  `https://hub.example.com/console/${P}?x=1`,
  `https://hub.example.com/console/${P}#top`,
];

/** A bad reference and a word its message must contain (besides what is accepted). */
const BAD: [string, RegExp][] = [
  ['https://hub.example.com/projects/proj_console_ref', /not a console URL/],
  ['https://hub.example.com/console/', /names no project after \/console\//],
  ['https://hub.example.com/console/Proj_Upper/overview', /project segment "Proj_Upper" is not a project id/],
  ['https://hub.example.com/console/marketing/overview', /project segment "marketing" is not a project id/],
  ['ftp://hub.example.com/console/proj_console_ref', /not an http\(s\) URL/],
  ['console/proj_console_ref', /is not a project id/],
  [`https://hub.example.com/console/${P}/${'x'.repeat(2100)}`, /2048/],
];

const ACCEPTED = /console URL such as https:\/\/hub\.example\.com\/console\/proj_marketing\/overview/;

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: { meta: { project_id: string } };
};

describe.each(STORES)('a console URL as project_id [%s]', (store) => {
  let service: RunningService;
  let url: string;
  beforeAll(async () => {
    service = await startService(store);
    url = service.url;
    for (const id of [P, OTHER]) {
      expect((await api(`${url}/api/projects`, { method: 'POST', json: { id, name: id } })).status).toBe(201);
    }
    const skill = { name: 'weekly-review', description: 'Review the week', body_md: '1. Open the report.' };
    const added = await api(`${url}/api/skills`, { method: 'POST', json: { project_id: CONSOLE_URLS[0], ...skill } });
    expect(added.status).toBe(201);
  });
  afterAll(async () => service?.close());

  it('REST: a body and a query take the URL and store and filter by the slug', async () => {
    const skills = await api(`${url}/api/skills?project_id=${encodeURIComponent(CONSOLE_URLS[3]!)}`);
    expect(skills.status).toBe(200);
    expect(skills.body.skills.map((s: { name: string }) => s.name)).toEqual(['weekly-review']);
    // The other project, named by its own console URL, holds nothing: the slug is what is used.
    const other = await api(`${url}/api/skills?project_id=${encodeURIComponent(`https://h/console/${OTHER}/skills`)}`);
    expect(other.body.skills).toEqual([]);

    // A strict project_id field (not a tool's "default"-accepting one): a context event.
    for (const ref of CONSOLE_URLS) {
      const event = await api(`${url}/api/context/events`, {
        method: 'POST',
        json: { project_id: ref, event_type: 'launch', title: ref.slice(-20), event_date: '2026-11-20' },
      });
      expect(event.status, ref).toBe(201);
      expect(event.body.project_id, ref).toBe(P);
    }
    const events = await api(`${url}/api/context/events?project_id=${encodeURIComponent(CONSOLE_URLS[4]!)}`);
    expect(events.status).toBe(200);
    expect(events.body.events).toHaveLength(CONSOLE_URLS.length);
  });

  it('REST: a URL that names no project is a 400 on project_id saying what is accepted', async () => {
    for (const [ref, reason] of BAD) {
      for (const res of [
        await api(`${url}/api/skills?project_id=${encodeURIComponent(ref)}`),
        await api(`${url}/api/context/events`, {
          method: 'POST',
          json: { project_id: ref, event_type: 'launch', title: 't', event_date: '2026-11-20' },
        }),
      ]) {
        expect(res.status, ref).toBe(400);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors, ref).toHaveLength(1);
        expect(res.body.errors[0].path).toMatch(/^(query|body)\.project_id$/);
        expect(res.body.errors[0].message, ref).toMatch(reason);
        if (!/2048/.test(reason.source)) expect(res.body.errors[0].message, ref).toMatch(ACCEPTED);
      }
    }
    // A project's own id stays exact: a new project cannot be named by a URL.
    const create = await api(`${url}/api/projects`, {
      method: 'POST',
      json: { id: `https://h/console/proj_new/overview`, name: 'x' },
    });
    expect(create.status).toBe(400);
    expect(create.body.errors[0].path).toBe('body.id');
  });

  it('the OpenAPI document says a console URL is accepted, with the pattern validation uses', async () => {
    const doc = await api(`${url}/api/openapi.json`);
    const param = doc.body.paths['/api/context/events'].get.parameters.find(
      (p: { name: string }) => p.name === 'project_id',
    );
    expect(param.schema.description).toMatch(/console URL/);
    expect(new RegExp(param.schema.pattern).test(CONSOLE_URLS[3]!)).toBe(true);
    expect(new RegExp(param.schema.pattern).test(BAD[0]![0])).toBe(false);
    const body = doc.body.paths['/api/skills'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body.properties.project_id)).toMatch(/console URL/);
  });

  it('MCP (modern and 2025-era clients): tools take the URL; inputSchema describes it', async () => {
    const modern = await connectModern(url);
    const { client: legacy } = await connectLegacy(url);
    try {
      for (const client of [modern, legacy]) {
        const tools = (await client.listTools()).tools;
        const search = tools.find((t) => t.name === 'search_context')!;
        const field = search.inputSchema.properties!.project_id as Record<string, unknown>;
        expect(JSON.stringify(field)).toMatch(/console URL/);
        const pattern = JSON.stringify(field).match(/"pattern":"((?:[^"\\]|\\.)*)"/)![1]!;
        expect(new RegExp(JSON.parse(`"${pattern}"`)).test(CONSOLE_URLS[0]!)).toBe(true);

        for (const ref of [CONSOLE_URLS[0]!, CONSOLE_URLS[3]!, CONSOLE_URLS[4]!]) {
          const found = (await client.callTool({
            name: 'search_context',
            arguments: { query: 'weekly review', project_id: ref },
          })) as ToolResult;
          expect(found.isError, found.content[0]?.text).toBeFalsy();
          expect(found.structuredContent!.meta.project_id).toBe(P);
          expect(found.content[0]!.text).toMatch(/weekly-review/);
        }
        const raw = (await client.callTool({
          name: 'get_skills',
          arguments: { project_id: CONSOLE_URLS[1] },
        })) as ToolResult;
        expect(raw.isError).toBeFalsy();
        expect(JSON.parse(raw.content[0]!.text)).toMatchObject({ skills: [{ name: 'weekly-review' }] });
      }
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('MCP: a URL that names no project is an error result on project_id saying what is accepted', async () => {
    const modern = await connectModern(url);
    const { client: legacy } = await connectLegacy(url);
    try {
      for (const client of [modern, legacy]) {
        for (const [ref, reason] of BAD.slice(0, 4)) {
          const result = (await client.callTool({
            name: 'search_context',
            arguments: { query: 'weekly review', project_id: ref },
          })) as ToolResult;
          expect(result.isError, ref).toBe(true);
          const text = result.content[0]!.text;
          // The SDK checks arguments against inputSchema before the tool runs, in its own words.
          expect(text, ref).toMatch(/Invalid arguments for tool search_context: project_id: /);
          expect(text, ref).toMatch(reason);
          expect(text, ref).toMatch(/"default" \(your only project\)/);
          expect(text, ref).toMatch(ACCEPTED);
        }
      }
    } finally {
      await modern.close();
      await legacy.close();
    }
  });
});
