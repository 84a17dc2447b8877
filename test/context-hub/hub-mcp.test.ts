import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLegacy, connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const P = 'proj_demo';
type Result = Awaited<ReturnType<Client['callTool']>>;
const textOf = (r: Result) => (r.content as { type: string; text: string }[])[0]!.text;
const dataOf = (r: Result) => (r.structuredContent as { data: Record<string, any> }).data;
const appOf = (r: Result) => (r._meta as Record<string, { data: Record<string, any> }>)['service.app_payload']!.data;

function expectWithinBudget(text: string): void {
  const lines = text.split('\n');
  expect(lines.length).toBeLessThanOrEqual(30);
  for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(200);
}

describe.each(STORES)('context hub over MCP [%s]', (store) => {
  let service: RunningService;
  let client: Client;
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  beforeAll(async () => {
    service = await startService(store, { demo: true });
    client = await connectModern(service.url);
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  it('lists the context tools with the right output schemas', async () => {
    const tools = (await client.listTools()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'search_context',
      'get_procedure',
      'get_knowledge',
      'get_business_key',
      'add_knowledge',
      'add_skill',
      'get_skills',
      'get_context_hub',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    expect(byName.get('search_context')!.outputSchema).toBeDefined();
    expect(byName.get('get_procedure')!.outputSchema).toBeDefined();
    expect(byName.get('get_knowledge')!.outputSchema).toBeUndefined();
    expect(byName.get('get_skills')!.outputSchema).toBeUndefined();
    expect(byName.get('get_context_hub')!.outputSchema).toBeUndefined();
    expect(byName.get('add_skill')!.annotations?.readOnlyHint).toBe(false);
  });

  it('the demo hub is real-sized: ≥ 6 skills, 10 knowledge sheets, KPIs, channels, surfaces and links', async () => {
    const hub = JSON.parse(textOf(await call('get_context_hub', { project_id: P })));
    expect(hub.skills.length).toBeGreaterThanOrEqual(6);
    expect(hub.knowledge).toHaveLength(10);
    const keys = hub.business_keys.map((k: { key: string }) => k.key);
    for (const root of ['kpi', 'channel', 'surface'])
      expect(keys.filter((k: string) => k.startsWith(`${root}.`)).length).toBeGreaterThanOrEqual(3);
    expect(hub.business_links.length).toBeGreaterThanOrEqual(10);
    for (const skill of hub.skills) expect(skill.steps.length).toBeGreaterThanOrEqual(5);
    // Seeding again adds nothing and writes no new versions.
    await service.app.services.demo.run(service.app.systemContext());
    const again = JSON.parse(textOf(await call('get_context_hub', { project_id: P })));
    expect(again.skills.map((s: { version: number }) => s.version)).toEqual(hub.skills.map(() => 1));
    expect(again.business_links).toHaveLength(hub.business_links.length);
  });

  it('search_context finds ROAS from the typo "roaz", each object once, with next calls and short snippets', async () => {
    const result = await call('search_context', { query: 'roaz', project_id: P, limit: 50 });
    expect(result.isError).toBeFalsy();
    const data = dataOf(result);
    const keys = data.hits.map((h: { kind: string; key: string }) => `${h.kind}:${h.key}`);
    expect(keys).toContain('business_key:kpi.roas');
    expect(new Set(keys).size).toBe(keys.length);
    const roas = data.hits.find((h: { key: string }) => h.key === 'kpi.roas');
    expect(roas.tier).toBe('title');
    expect(roas.next).toEqual({ tool: 'get_business_key', arguments: { key: 'kpi.roas', project_id: P } });
    // Objects that reference or are linked to kpi.roas come in as graph neighbours at least.
    expect(keys).toContain('knowledge:roas-definition');
    expectWithinBudget(textOf(result));
    expect(textOf(result)).toMatch(/^Open first: get_(business_key|procedure|knowledge) /m);
  });

  it('search_context puts each object in its best tier: title, description, graph-neighbor', async () => {
    const data = dataOf(await call('search_context', { query: 'checkout', project_id: P, limit: 50 }));
    const tierOf = (key: string) => data.hits.find((h: { key: string }) => h.key === key)?.tier;
    expect(tierOf('surface.checkout')).toBe('title');
    expect(tierOf('diagnose-checkout-conversion-drop')).toBe('title');
    expect(tierOf('check-tracking-after-release')).toBe('description');
    // conversion-tracking-setup never says "checkout" but explains surface.checkout.
    expect(tierOf('conversion-tracking-setup')).toBe('graph-neighbor');
    // Tiers label a hit; the score orders them (a title word does not bury a body that answers).
    const scores = data.hits.map((h: { score: number }) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(data.tiers.title + data.tiers.description + data.tiers['graph-neighbor']).toBe(data.total);
    for (const hit of data.hits) {
      expect(Array.from(hit.snippet).length).toBeLessThanOrEqual(160);
      const expected = { skill: 'get_procedure', knowledge: 'get_knowledge', business_key: 'get_business_key' }[
        hit.kind as string
      ];
      expect(hit.next.tool).toBe(expected);
    }
  });

  it('search_context cuts to limit and says total and truncated; hits are never withheld', async () => {
    const one = dataOf(await call('search_context', { query: 'roas', project_id: P, limit: 1 }));
    expect(one.hits).toHaveLength(1);
    expect(one.total).toBeGreaterThan(1);
    expect(one.truncated).toBe(true);
    const many = await call('search_context', {
      query: 'roas spend checkout conversion revenue',
      project_id: P,
      limit: 50,
    });
    expect(Array.isArray(dataOf(many).hits)).toBe(true);
    expect(dataOf(many).hits.length).toBeGreaterThan(10);
    expectWithinBudget(textOf(many));
  });

  it('search_context ranks every document a word matches and counts them all', async () => {
    // A project of its own, so the demo hub the other tests read stays as seeded.
    const W = 'proj_walrus';
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: W, name: 'Walrus' } })).status).toBe(
      201,
    );
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call('add_knowledge', {
          project_id: W,
          title: `Walrus market note ${i}`,
          body_md: `Walrus creative test number ${i}.`,
        }),
      ),
    );
    const data = dataOf(await call('search_context', { query: 'walrus', project_id: W, limit: 5 }));
    expect(data.hits).toHaveLength(5);
    expect(data.total_is_lower_bound).toBe(false);
    expect(data.total).toBe(60);
    expect(data.truncated).toBe(true);
    const demo = dataOf(await call('search_context', { query: 'walrus', project_id: P }));
    expect(demo).toMatchObject({ total: 0, total_is_lower_bound: false });
  });

  it('search_context ranks objects with all the words first, and falls back to any word when none has them all', async () => {
    const T = 'proj_tusk';
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: T, name: 'Tusk' } })).status).toBe(
      201,
    );
    // More one-word matches than are ranked (50), written first: a sample of any-word matches
    // would miss the two sheets that have both words.
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call('add_knowledge', { project_id: T, title: `Walrus colony ${i}`, body_md: `Counting walrus colony ${i}.` }),
      ),
    );
    for (const i of [1, 2])
      await call('add_knowledge', {
        project_id: T,
        title: `Walrus tusk care ${i}`,
        body_md: 'How to look after a tusk.',
      });
    const both = dataOf(await call('search_context', { query: 'walrus tusk', project_id: T, limit: 5 }));
    expect(
      both.hits
        .slice(0, 2)
        .map((h: { title: string }) => h.title)
        .sort(),
    ).toEqual(['Walrus tusk care 1', 'Walrus tusk care 2']);
    expect(both.hits.every((h: { tier: string }) => h.tier === 'title')).toBe(true);
    expect(both.total).toBe(62);
    // No sheet has both words: the sheets with one of them fill the answer.
    const some = dataOf(await call('search_context', { query: 'walrus narwhal', project_id: T, limit: 5 }));
    expect(some.hits).toHaveLength(5);
    expect(some.total).toBeGreaterThanOrEqual(50);
    expect(some.hits[0].title).toMatch(/^Walrus /);
    // Stop words alone match nothing (and are not an error); with a real word they are ignored.
    expect(dataOf(await call('search_context', { query: 'the and of', project_id: T })).total).toBe(0);
    const withStops = dataOf(
      await call('search_context', { query: 'the tusk of the walrus', project_id: T, limit: 2 }),
    );
    expect(withStops.hits.map((h: { title: string }) => h.title).sort()).toEqual([
      'Walrus tusk care 1',
      'Walrus tusk care 2',
    ]);
  });

  it('search_context finds what a typo means, as the word itself would rank it', async () => {
    const typo = dataOf(await call('search_context', { query: 'roaz', project_id: P }));
    const right = dataOf(await call('search_context', { query: 'roas', project_id: P }));
    expect(typo.hits.map((h: { key: string }) => h.key)).toEqual(right.hits.map((h: { key: string }) => h.key));
    expect(typo.hits.find((h: { key: string }) => h.key === 'kpi.roas')).toMatchObject({
      kind: 'business_key',
      tier: 'title',
      matched: { fields: ['label'], words: ['roa'] },
    });
    // Inside a question too: the unknown word is replaced, the known ones stay.
    const question = dataOf(
      await call('search_context', { query: 'why did roaz fall on facebook', project_id: P, limit: 20 }),
    );
    expect(question.hits.map((h: { key: string }) => h.key)).toContain('kpi.roas');
    expect(question.hits.map((h: { key: string }) => h.key)).toContain('channel.paid_social');
  });

  it('search_context answers bad queries clearly: operators, empty, 10,000 characters', async () => {
    const operators = await call('search_context', { query: `" & | ! :* \\ ' ""&&||`, project_id: P });
    expect(operators.isError).toBeFalsy();
    expect(dataOf(operators).total).toBe(0);
    expect(textOf(operators)).toContain('no letters or digits');
    const mixed = await call('search_context', { query: `roas:* & !spend | 'drop' \\ "`, project_id: P });
    expect(mixed.isError).toBeFalsy();
    expect(dataOf(mixed).total).toBeGreaterThan(0);
    const empty = await call('search_context', { query: '   ', project_id: P });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/empty/);
    const long = await call('search_context', { query: 'roas '.repeat(2000), project_id: P });
    expect(long.isError).toBeFalsy();
    expect(dataOf(long).hits.map((h: { key: string }) => h.key)).toContain('kpi.roas');
    const tooLong = await call('search_context', { query: 'roas '.repeat(4001), project_id: P });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toMatch(/20000/);
    const unknown = await call('search_context', { query: 'roas', project_id: 'proj_nowhere' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('project_not_found');
  });

  it('get_procedure lists every numbered step title in the text', async () => {
    const result = await call('get_procedure', { name: 'investigate-roas-drop', project_id: P });
    const text = textOf(result);
    expectWithinBudget(text);
    const steps = dataOf(result).steps as { index: number; title: string }[];
    expect(steps).toHaveLength(8);
    for (const step of steps) expect(text).toContain(`${step.index}. ${step.title}`);
    expect(steps[0]!.title).toBe('Confirm the drop is real');
    expect(dataOf(result).mdm_references).toContain('kpi.roas');
  });

  it('get_procedure packs many steps several to a line, and says how many did not fit', async () => {
    const forty = Array.from({ length: 40 }, (_, i) => `${i + 1}. Check item ${i + 1}.`).join('\n');
    await call('add_skill', {
      project_id: P,
      name: 'forty-steps',
      description: 'A long checklist',
      body_md: `## Steps\n${forty}\n`,
    });
    const text40 = textOf(await call('get_procedure', { name: 'forty-steps', project_id: P }));
    expectWithinBudget(text40);
    for (let i = 1; i <= 40; i += 1) expect(text40).toContain(`${i}. Check item ${i}`);
    expect(text40).toContain(' · ');

    const long = Array.from(
      { length: 300 },
      (_, i) => `${i + 1}. ${'Reconcile the ledger for region '.repeat(3)}${i + 1}: then more.`,
    ).join('\n');
    await call('add_skill', {
      project_id: P,
      name: 'huge-procedure',
      description: 'Too many steps for the text',
      body_md: long,
    });
    const result = await call('get_procedure', { name: 'huge-procedure', project_id: P });
    const text = textOf(result);
    expectWithinBudget(text);
    const more = /(\d+) more steps in the app payload/.exec(text);
    expect(more).not.toBeNull();
    const shown = (text.match(/\b\d+\. Reconcile/g) ?? []).length;
    expect(shown + Number(more![1])).toBe(300);
    expect(appOf(result).steps).toHaveLength(300);
  });

  it('get_knowledge is enveloped with topic_id and a raw list without it', async () => {
    const one = await call('get_knowledge', { topic_id: 'roas-definition', project_id: P });
    expect(dataOf(one).title).toBe('How we compute ROAS');
    expect(textOf(one)).toContain('ROAS (return on ad spend)');
    const raw = await call('get_knowledge', { project_id: P });
    expect(raw.structuredContent).toBeUndefined();
    const list = JSON.parse(textOf(raw));
    expect(list.knowledge).toHaveLength(10);
    expect(list.knowledge[0].body_md.length).toBeGreaterThan(50);
  });

  it('get_business_key shows parent, children and linked objects with their next calls', async () => {
    const roas = dataOf(await call('get_business_key', { key: 'kpi.roas', project_id: P }));
    expect(roas.parent).toEqual({ key: 'kpi', label: 'KPIs' });
    const linked = roas.linked.map((l: { kind: string; key: string }) => `${l.kind}:${l.key}`);
    expect(linked).toContain('knowledge:roas-definition');
    expect(linked).toContain('skill:investigate-roas-drop');
    const kpi = dataOf(await call('get_business_key', { key: 'kpi', project_id: P }));
    expect(kpi.children.map((c: { key: string }) => c.key)).toContain('kpi.roas');
    const missing = await call('get_business_key', { key: 'kpi.nothing', project_id: P });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('business_key_not_found');
  });

  it('add_knowledge acknowledges and versions; a deleted sheet leaves search', async () => {
    const first = await call('add_knowledge', {
      project_id: P,
      title: 'Zebra campaign glossary',
      body_md: 'Zebra means the striped creative test.',
    });
    expect(dataOf(first)).toMatchObject({ topic_id: 'zebra-campaign-glossary', version_number: 1 });
    expect(textOf(first)).toMatch(/Saved knowledge zebra-campaign-glossary/);
    const second = await call('add_knowledge', {
      project_id: P,
      topic_id: 'zebra-campaign-glossary',
      title: 'Zebra glossary',
      body_md: 'Updated.',
    });
    expect(dataOf(second).version_number).toBe(2);
    expect(dataOf(await call('search_context', { query: 'zebra', project_id: P })).total).toBe(1);
    expect(
      (await api(`${service.url}/api/knowledge/zebra-campaign-glossary?project_id=${P}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect(dataOf(await call('search_context', { query: 'zebra', project_id: P })).total).toBe(0);
    const gone = await call('get_knowledge', { topic_id: 'zebra-campaign-glossary', project_id: P, version: 1 });
    // The local operator is an admin: the history stays readable.
    expect(dataOf(gone).body_md).toBe('Zebra means the striped creative test.');
  });

  it('ten concurrent add_skill calls of one name get versions 1..10, no gaps or duplicates (2025-era client too)', async () => {
    const { client: legacy, transport } = await connectLegacy(service.url);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? client : legacy).callTool({
          name: 'add_skill',
          arguments: { project_id: P, name: 'race-skill', description: `writer ${i}`, body_md: `1. Write ${i}` },
        }),
      ),
    );
    const versions = results.map(
      (r) => (r.structuredContent as { data: { version_number: number } }).data.version_number,
    );
    expect(versions.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await transport.terminateSession();
    await legacy.close();
  });

  it('add_skill rejects invalid names with a clear error; get_skills is raw', async () => {
    const bad = await call('add_skill', { project_id: P, name: 'Bad Name!', description: 'x', body_md: 'x' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/name/);
    const raw = await call('get_skills', { project_id: P });
    expect(raw.structuredContent).toBeUndefined();
    const all = JSON.parse(textOf(raw));
    expect(all.skills.map((s: { name: string }) => s.name)).toContain('investigate-roas-drop');
  });
});
