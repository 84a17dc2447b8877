import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// The interface's own examples work. Before, event_type was a closed list of nine
// (launch, checkout_change → 400), a snake_case topic_id was refused, and a refused Skill name
// said what was wrong but not what to send instead.

const P = 'proj_labels';

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: { data: Record<string, unknown> };
};

describe.each(STORES)('open labels and identifiers [%s]', (store) => {
  let service: RunningService;
  let url: string;
  beforeAll(async () => {
    service = await startService(store);
    url = service.url;
    expect((await api(`${url}/api/projects`, { method: 'POST', json: { id: P, name: 'Labels' } })).status).toBe(201);
    expect(
      (await api(`${url}/api/taxonomy/keys`, { method: 'POST', json: { project_id: P, key: 'kpi', label: 'KPIs' } }))
        .status,
    ).toBe(201);
  });
  afterAll(async () => service?.close());

  const event = (json: Record<string, unknown>) =>
    api(`${url}/api/context/events`, {
      method: 'POST',
      json: { project_id: P, title: 'x', event_date: '2026-11-20', ...json },
    });

  it('a context event takes any short label, normalized the same on write, update and filter', async () => {
    const written: Record<string, string> = {
      launch: 'launch',
      redesign: 'redesign',
      'Checkout Change': 'checkout_change',
      '  checkout-change ': 'checkout_change',
      'Black Friday / Cyber Monday': 'black_friday_cyber_monday',
      Preisänderung: 'preisänderung',
    };
    for (const [label, stored] of Object.entries(written)) {
      const res = await event({ event_type: label });
      expect(res.status, label).toBe(201);
      expect(res.body.event_type, label).toBe(stored);
    }

    const filtered = await api(
      `${url}/api/context/events?project_id=${P}&event_type=${encodeURIComponent('Checkout Change')}`,
    );
    expect(filtered.status).toBe(200);
    expect(filtered.body.events).toHaveLength(2);
    expect(new Set(filtered.body.events.map((e: { event_type: string }) => e.event_type))).toEqual(
      new Set(['checkout_change']),
    );

    const id = filtered.body.events[0].id;
    const patched = await api(`${url}/api/context/events/${id}`, {
      method: 'PATCH',
      json: { event_type: 'Site Redesign' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.event_type).toBe('site_redesign');

    const client = await connectModern(url);
    try {
      const added = (await client.callTool({
        name: 'add_context_event',
        arguments: { project_id: P, event_type: 'Pricing-Change', title: 'New prices', event_date: '2026-11-21' },
      })) as ToolResult;
      expect(added.isError).toBeFalsy();
      expect((added.structuredContent!.data.event as { event_type: string }).event_type).toBe('pricing_change');
      const listed = (await client.callTool({
        name: 'list_context_events',
        arguments: { project_id: P, event_type: 'checkout CHANGE' },
      })) as ToolResult;
      expect(listed.isError).toBeFalsy();
      expect((listed.structuredContent!.data.events as unknown[]).length).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('a label with nothing left after normalization, or longer than 64 characters, is a 400 naming it', async () => {
    const empty = await event({ event_type: ' -- ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ path: 'body.event_type', message: 'must contain a letter or digit' }]);
    const long = await event({ event_type: 'a'.repeat(65) });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ path: 'body.event_type', message: expect.stringContaining('64') });
    // The store holds the same bound, whatever reaches it.
    expect((await event({ event_type: 'b'.repeat(64) })).status).toBe(201);
  });

  it('the schema suggests the known kinds', async () => {
    const client = await connectModern(url);
    try {
      const { tools } = await client.listTools();
      const add = tools.find((t) => t.name === 'add_context_event')!;
      const description = (add.inputSchema.properties as Record<string, { description?: string }>).event_type!
        .description!;
      for (const kind of ['launch', 'redesign', 'checkout_change', 'release', 'outage']) {
        expect(description).toContain(kind);
      }
    } finally {
      await client.close();
    }
  });

  it('a Knowledge topic_id may use "_" and ".", everywhere a topic_id is used', async () => {
    for (const topic_id of ['roas_definition', 'kpi.roas-notes']) {
      const created = await api(`${url}/api/knowledge`, {
        method: 'POST',
        json: { project_id: P, topic_id, title: `About ${topic_id}`, body_md: 'Revenue over spend, ROAS.' },
      });
      expect(created.status, topic_id).toBe(201);
      expect(created.body.topic_id).toBe(topic_id);
      const read = await api(`${url}/api/knowledge/${topic_id}?project_id=${P}`);
      expect(read.status, topic_id).toBe(200);
    }
    const link = await api(`${url}/api/context/business-links`, {
      method: 'POST',
      json: {
        project_id: P,
        relation_type: 'explains',
        source_type: 'knowledge',
        source_id: 'roas_definition',
        business_key: 'kpi',
      },
    });
    expect(link.status).toBe(201);
    expect(link.body.source_key).toBe('roas_definition');

    const { client } = await connectLegacy(url);
    try {
      const added = (await client.callTool({
        name: 'add_knowledge',
        arguments: { project_id: P, topic_id: 'cpa_definition', title: 'CPA', body_md: 'Spend over conversions.' },
      })) as ToolResult;
      expect(added.isError).toBeFalsy();
      const search = (await client.callTool({
        name: 'search_context',
        arguments: { project_id: P, query: 'ROAS' },
      })) as ToolResult;
      const hits = search.structuredContent!.data.hits as {
        key: string;
        next: { tool: string; arguments: Record<string, unknown> };
      }[];
      const hit = hits.find((h) => h.key === 'roas_definition')!;
      expect(hit.next).toEqual({ tool: 'get_knowledge', arguments: { topic_id: 'roas_definition', project_id: P } });
      const opened = (await client.callTool({ name: hit.next.tool, arguments: hit.next.arguments })) as ToolResult;
      expect(opened.isError).toBeFalsy();
      expect(opened.structuredContent!.data.topic_id).toBe('roas_definition');
    } finally {
      await client.close();
    }
  });

  it('a topic_id still refused proposes the valid spelling', async () => {
    const post = (topic_id: string) =>
      api(`${url}/api/knowledge`, { method: 'POST', json: { project_id: P, topic_id, title: 'T', body_md: 'B' } });
    for (const [bad, good] of [
      ['ROAS Definition', 'roas-definition'],
      ['roas__definition_', 'roas_definition'],
      ['kn_roas', 'kn-roas'],
    ]) {
      const res = await post(bad!);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors, bad).toEqual([
        { path: 'body.topic_id', message: expect.stringContaining(`Use "${good}" instead.`) },
      ]);
    }
  });

  it('a refused Skill name proposes the valid spelling, over REST and MCP', async () => {
    const rest = await api(`${url}/api/skills`, {
      method: 'POST',
      json: { project_id: P, name: 'roas_check', description: 'Check ROAS', body_md: '## Steps\n1. Look.' },
    });
    expect(rest.status).toBe(400);
    expect(rest.body.errors).toEqual([
      { path: 'body.name', message: expect.stringContaining('Use "roas-check" instead.') },
    ]);
    const read = await api(`${url}/api/skills/ROAS_Check?project_id=${P}`);
    expect(read.status).toBe(400);
    expect(read.body.errors[0].message).toContain('Use "roas-check" instead.');

    const imported = await api(`${url}/api/skills/import?project_id=${P}`, {
      method: 'POST',
      headers: { 'content-type': 'text/markdown' },
      body: '---\nname: Roas Check\ndescription: Check ROAS\n---\n## Steps\n1. Look.\n',
    });
    expect(imported.status).toBe(400);
    expect(imported.body.errors[0].message).toContain('Use "roas-check" instead.');

    for (const connect of [connectModern, async (u: string) => (await connectLegacy(u)).client]) {
      const client = await connect(url);
      try {
        for (const [name, args] of [
          [
            'add_skill',
            { project_id: P, name: 'Roas Check', description: 'Check ROAS', body_md: '## Steps\n1. Look.' },
          ],
          ['get_procedure', { project_id: P, name: 'roas_check' }],
        ] as const) {
          const result = (await client.callTool({ name, arguments: args })) as ToolResult;
          expect(result.isError, name).toBe(true);
          expect(result.content[0]!.text, name).toContain('Use "roas-check" instead.');
        }
      } finally {
        await client.close();
      }
    }
  });
});
