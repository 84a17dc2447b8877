import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reindexSearch } from '../../src/modules/search/index.js';
import { searchStatsDrift } from '../../src/modules/search/index.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

type Result = Awaited<ReturnType<Client['callTool']>>;
const dataOf = (r: Result) => (r.structuredContent as { data: Record<string, any> }).data;
const textOf = (r: Result) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const P = 'proj_demo';

describe.each(STORES)('search ranking [%s]', (store) => {
  let service: RunningService;
  let client: Client;
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
  const search = async (q: string, limit = 10, project = P) =>
    dataOf(await call('search_context', { query: q, project_id: project, limit }));
  const keys = (data: Record<string, any>) =>
    (data.hits as { kind: string; key: string }[]).map((h) => `${h.kind}:${h.key}`);
  const expectTrueStats = async (project: string) => {
    const drift = await searchStatsDrift(service.store.db, project);
    expect(drift).toMatchObject({ terms_wrong: 0, kinds_wrong: 0 });
    expect(drift.postings_stored).toBe(drift.postings_expected);
  };

  beforeAll(async () => {
    // Every call runs the query: what is asserted is the ranking, not the cache.
    service = await startService(store, { demo: true, env: { SEARCH_CACHE_ENTRIES: '0' } });
    client = await connectModern(service.url);
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  it('answers the demo question with the key, the channel and the Skill behind it', async () => {
    const data = await search('why is our return on ad spend lower this week on facebook');
    const found = keys(data);
    expect(found).toContain('business_key:kpi.roas');
    expect(found).toContain('business_key:channel.paid_social');
    expect(found).toContain('skill:investigate-roas-drop');
    const roas = data.hits.find((h: { key: string }) => h.key === 'kpi.roas');
    expect(roas.matched.words).toEqual(expect.arrayContaining(['return', 'spend']));
    expect(roas.matched.fields).toContain('label');
    for (const hit of data.hits) {
      expect(['title', 'description', 'graph-neighbor']).toContain(hit.tier);
      expect(Array.from(hit.snippet as string).length).toBeLessThanOrEqual(160);
    }
    expect(
      textOf(await call('search_context', { query: 'roas', project_id: P })).split('\n').length,
    ).toBeLessThanOrEqual(30);
  });

  it('gives one total order: the same answer twice, and limit 10 is the head of limit 50', async () => {
    for (const q of ['roas', 'checkout conversion drop', 'how do we track spend by channel', 'the budget']) {
      const a = await search(q, 10);
      const b = await search(q, 10);
      const c = await search(q, 50);
      expect(keys(b)).toEqual(keys(a));
      expect(keys(c).slice(0, a.hits.length)).toEqual(keys(a));
      expect(c.total).toBe(a.total);
      const scores = c.hits.map((h: { score: number }) => h.score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    }
  });

  it('reads identifiers, stems and long questions', async () => {
    expect(keys(await search('kpi.roas')).slice(0, 3)).toContain('business_key:kpi.roas');
    const stems = await search('computing returns');
    expect(stems.hits.some((h: { matched: { words: string[] } }) => h.matched.words.includes('comput'))).toBe(true);
    const long = `${'please tell me, as precisely as you can and with the numbers, '.repeat(6)}why is the roas on paid social down`;
    expect(long.split(/\s+/).length).toBeGreaterThanOrEqual(64);
    expect(keys(await search(long))).toContain('skill:investigate-roas-drop');
  });

  it('answers bad questions clearly, never with an error of the service', async () => {
    const stops = await call('search_context', { query: 'why is it the and of', project_id: P });
    expect(stops.isError).toBeFalsy();
    expect(dataOf(stops)).toMatchObject({ total: 0, empty_reason: 'only_stop_words' });
    expect(textOf(stops)).toContain('only stop words');
    const punct = await call('search_context', { query: '?!… — ...', project_id: P });
    expect(dataOf(punct)).toMatchObject({ total: 0, empty_reason: 'no_words' });
    for (const q of [
      "roas:* & !(spend | 'drop') <-> x",
      '^roas.*[a-z]+$ (?i)',
      '"unclosed \\ quote',
      'a'.repeat(5000),
    ]) {
      const r = await call('search_context', { query: q, project_id: P });
      expect(r.isError, q.slice(0, 40)).toBeFalsy();
    }
    const tenThousand = await call('search_context', { query: 'roas spend '.repeat(1000), project_id: P });
    expect(tenThousand.isError).toBeFalsy();
    expect(keys(dataOf(tenThousand))).toContain('business_key:kpi.roas');
    const surrogate = await api(`${service.url}/api/search?project_id=${P}&q=${encodeURIComponent('roas')}%ED%A0%80`);
    expect(surrogate.status).toBeLessThan(500);
    const lone = await call('search_context', { query: 'roas \uD800 spend', project_id: P });
    expect(lone.isError).toBe(true);
    expect(textOf(lone)).not.toMatch(/stack|at .*\.js/);
  });

  it('matches other scripts by their own words', async () => {
    await call('add_knowledge', {
      project_id: P,
      topic_id: 'ad-return-zh',
      title: '广告 支出 回报',
      body_md: '本周 广告 支出 回报率 下降。',
    });
    await call('add_knowledge', {
      project_id: P,
      topic_id: 'ad-return-ar',
      title: 'عائد الإنفاق الإعلاني',
      body_md: 'انخفض عائد الإنفاق هذا الأسبوع',
    });
    expect((await search('广告 回报')).hits[0]).toMatchObject({ kind: 'knowledge', title: '广告 支出 回报' });
    expect((await search('عائد الإنفاق')).hits[0]).toMatchObject({ kind: 'knowledge', title: 'عائد الإنفاق الإعلاني' });
    await expectTrueStats(P);
  });

  it('explains a ranking over REST: score parts per term and field, and the graph boost', async () => {
    const res = await api(
      `${service.url}/api/search?project_id=${P}&q=${encodeURIComponent('why is our return on ad spend lower on facebook')}&explain=true`,
    );
    expect(res.status).toBe(200);
    const hits = res.body.hits as {
      score: number;
      explain: { score: number; bm25f: number; terms: { score: number; idf: number }[]; boosts: { score: number }[] };
    }[];
    for (const hit of hits) {
      const e = hit.explain;
      const parts = e.terms.reduce((s, t) => s + t.score, 0) + e.boosts.reduce((s, b) => s + b.score, 0);
      expect(Math.abs(parts - hit.score)).toBeLessThan(0.01);
    }
    const plain = await api(`${service.url}/api/search?project_id=${P}&q=roas`);
    expect(plain.body.hits[0].explain).toBeUndefined();
  });

  it('keeps the statistics true under creates, revisions, deletes, restores and imports with prune', async () => {
    const W = `proj_stats_${store}`;
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: W, name: 'Stats' } })).status).toBe(
      201,
    );
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('add_knowledge', {
          project_id: W,
          title: `Walrus note ${i}`,
          body_md: `# Colony\nCounting walrus ${i} on the ice.`,
        }),
      ),
    );
    await expectTrueStats(W);
    const exported = await fetch(`${service.url}/api/projects/${W}/export`);
    const archive = Buffer.from(await exported.arrayBuffer());
    // A revision replaces the sheet's words.
    const revised = await api(`${service.url}/api/knowledge/walrus-note-0?project_id=${W}`, {
      method: 'PUT',
      json: { title: 'Narwhal note', body_md: 'Narwhal tusks only.' },
    });
    expect(revised.status).toBeLessThan(300);
    await expectTrueStats(W);
    expect((await search('narwhal', 10, W)).total).toBe(1);
    expect((await search('walrus', 10, W)).total).toBe(11);
    // Delete, then restore the first version.
    expect(
      (await api(`${service.url}/api/knowledge/walrus-note-1?project_id=${W}`, { method: 'DELETE' })).status,
    ).toBeLessThan(300);
    await expectTrueStats(W);
    expect((await search('walrus', 10, W)).total).toBe(10);
    const restored = await api(`${service.url}/api/knowledge/walrus-note-0/restore?project_id=${W}`, {
      method: 'POST',
      json: { version: 1 },
    });
    expect(restored.status).toBe(200);
    await expectTrueStats(W);
    expect((await search('narwhal', 10, W)).total).toBe(0);
    // A sheet the archive lacks goes with prune.
    await call('add_knowledge', { project_id: W, title: 'Beluga note', body_md: 'Beluga song.' });
    await call('add_skill', {
      project_id: W,
      name: 'count-belugas',
      description: 'Count belugas',
      body_md: '1. Count.',
    });
    expect((await search('beluga', 10, W)).total).toBe(2);
    const imported = await fetch(`${service.url}/api/projects/${W}/import?prune=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip' },
      body: archive,
    });
    expect(imported.status).toBe(200);
    await expectTrueStats(W);
    expect((await search('beluga', 10, W)).total).toBe(0);
    expect((await search('walrus', 10, W)).total).toBe(12);
    // The rebuild an operator runs agrees with what the writes kept.
    const before = keys(await search('walrus colony ice', 20, W));
    const lines: string[] = [];
    expect(await reindexSearch(service.store.db, { projectId: W, check: false }, (l) => lines.push(l))).toBe(0);
    expect(lines[0]).toMatch(new RegExp(`^${W}: \\d+ documents, \\d+ postings, \\d+ stems$`));
    expect(await reindexSearch(service.store.db, { projectId: W, check: true }, (l) => lines.push(l))).toBe(0);
    expect(lines[1]).toMatch(new RegExp(`^${W}: true `));
    // A posting lost behind the index's back is reported as drift, and the rebuild repairs it.
    await service.store.db.query('DELETE FROM search_postings WHERE project_id = $1 AND term = $2', [W, 'ice']);
    expect(await reindexSearch(service.store.db, { projectId: W, check: true }, (l) => lines.push(l))).toBe(1);
    await reindexSearch(service.store.db, { projectId: W, check: false }, () => {});
    await expectTrueStats(W);
    expect(keys(await search('walrus colony ice', 20, W))).toEqual(before);
  });

  it('keeps the statistics true under concurrent writers', async () => {
    const W = `proj_race_${store}`;
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: W, name: 'Race' } })).status).toBe(
      201,
    );
    const clients = await Promise.all([
      connectModern(service.url),
      connectModern(service.url),
      connectModern(service.url),
    ]);
    try {
      await Promise.all(
        clients.flatMap((c, n) =>
          Array.from({ length: 10 }, (_, i) =>
            c.callTool({
              name: 'add_knowledge',
              arguments: {
                project_id: W,
                title: `Shared words ${n} ${i}`,
                body_md: `shared common words and w${n}x${i}`,
              },
            }),
          ),
        ),
      );
      await Promise.all(
        clients.map((c, n) =>
          c.callTool({
            name: 'add_knowledge',
            arguments: { project_id: W, topic_id: `shared-words-${n}-0`, title: 'Other', body_md: 'other text' },
          }),
        ),
      );
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    await expectTrueStats(W);
    expect((await search('shared', 50, W)).total).toBe(27);
  });
});
