import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModern } from '../support/mcp-clients.js';
import { api, type RunningReplica, type RunningService, startReplica, startService } from '../support/service.js';
import { STORES, TEST_DATABASE_URL } from '../support/stores.js';

// search_context keeps results per (project, query words, limit), each tagged with the project's
// content version (migration 0009), and the MCP fast path keeps finished answers per arguments
// tagged with the same version. These prove a write is never hidden by either: at once on the
// replica that wrote, on another replica, and for a write that bypasses the services. Identical
// calls (the same query string) are answered at the MCP level; respelled ones reach the service.

type Found = { total: number; hits: { key: string; tier: string }[] };
const P = 'proj_cache';

async function searchOver(client: Client, query: string, projectId = P, limit?: number): Promise<Found> {
  const result = await client.callTool({
    name: 'search_context',
    arguments: { query, project_id: projectId, ...(limit ? { limit } : {}) },
  });
  expect(result.isError ?? false).toBe(false);
  return (result.structuredContent as { data: Found }).data;
}

describe.each(STORES)('search result cache on one replica [%s]', (store) => {
  let service: RunningService;
  let client: Client;
  const stats = () => service.app.services.search.cacheStats();

  beforeAll(async () => {
    service = await startService(store, { demo: true });
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Cache' } })).status).toBe(
      201,
    );
    client = await connectModern(service.url);
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  it('answers a repeated query from the cache, and the same answer', async () => {
    const first = await searchOver(client, 'roas drop', 'proj_demo');
    expect(first.total).toBeGreaterThan(0);
    const before = stats();
    // Spelling that reduces to the same words shares the entry.
    const again = await searchOver(client, 'ROAS, drop!', 'proj_demo');
    expect(stats().hits).toBe(before.hits + 1);
    expect(again.hits).toEqual(first.hits);
    expect(again.total).toBe(first.total);
    // Another limit is another entry.
    const fewer = await searchOver(client, 'roas drop', 'proj_demo', 2);
    expect(fewer.hits).toEqual(first.hits.slice(0, 2));
    expect(stats().misses).toBe(before.misses + 1);
  });

  it('shows every write to the very next search', async () => {
    expect((await searchOver(client, 'zebrafish')).total).toBe(0);
    expect((await searchOver(client, 'zebrafish')).total).toBe(0);

    // A new Knowledge sheet.
    const added = await client.callTool({
      name: 'add_knowledge',
      arguments: { project_id: P, title: 'Zebrafish tracking', body_md: 'How we track it.' },
    });
    expect(added.isError ?? false).toBe(false);
    expect((await searchOver(client, 'zebrafish')).hits.map((h) => h.key)).toEqual(['zebrafish-tracking']);

    // A business key, then a link that makes the sheet a graph neighbour of a query on the key.
    expect(
      (
        await api(`${service.url}/api/taxonomy/keys`, {
          method: 'POST',
          json: { project_id: P, key: 'kpi.okapi', label: 'Okapi index' },
        })
      ).status,
    ).toBe(201);
    const keyOnly = await searchOver(client, 'okapi');
    expect(keyOnly.hits.map((h) => h.key)).toEqual(['kpi.okapi']);
    const link = await api(`${service.url}/api/context/business-links`, {
      method: 'POST',
      json: {
        project_id: P,
        relation_type: 'explains',
        source_type: 'knowledge',
        source_id: 'zebrafish-tracking',
        business_key: 'kpi.okapi',
      },
    });
    expect(link.status).toBe(201);
    const linked = await searchOver(client, 'okapi');
    expect(linked.hits.map((h) => [h.key, h.tier])).toEqual([
      ['kpi.okapi', 'title'],
      ['zebrafish-tracking', 'graph-neighbor'],
    ]);

    // A new version that drops the word from the title and body.
    const put = await api(`${service.url}/api/knowledge/zebrafish-tracking?project_id=${P}`, {
      method: 'PUT',
      json: { title: 'Tracking', body_md: 'Nothing fishy.' },
    });
    expect(put.status).toBe(200);
    expect((await searchOver(client, 'zebrafish')).total).toBe(0);

    // A delete (the sheet matched, and its linked key came along as a graph neighbour).
    expect((await searchOver(client, 'tracking')).hits.map((h) => h.key)).toEqual(['zebrafish-tracking', 'kpi.okapi']);
    expect(
      (await api(`${service.url}/api/knowledge/zebrafish-tracking?project_id=${P}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await searchOver(client, 'tracking')).total).toBe(0);

    // Plain SQL, past every service: the trigger still retires the entries.
    expect((await searchOver(client, 'okapi')).total).toBe(1);
    await service.store.db.query('DELETE FROM business_keys WHERE project_id = $1 AND key = $2', [P, 'kpi.okapi']);
    expect((await searchOver(client, 'okapi')).total).toBe(0);
  });

  it("keeps one project's entries when another project changes", async () => {
    await searchOver(client, 'budget pacing', 'proj_demo');
    await client.callTool({
      name: 'add_knowledge',
      arguments: { project_id: P, title: 'Budget pacing elsewhere', body_md: 'Not in the demo project.' },
    });
    const before = stats().hits;
    // Spelled differently so the call reaches the search service (an identical call would be
    // answered with the finished MCP answer, one level up).
    await searchOver(client, 'Budget pacing', 'proj_demo');
    expect(stats().hits).toBe(before + 1);
  });

  it('serves only fresh answers under concurrent reads and writes', async () => {
    // Each round: a write completes, then a burst of concurrent searches (which share version
    // reads) must all count it, while more writes land meanwhile.
    for (let round = 1; round <= 8; round += 1) {
      const write = await client.callTool({
        name: 'add_knowledge',
        arguments: { project_id: P, title: `Capybara note ${round}`, body_md: 'A note.' },
      });
      expect(write.isError ?? false).toBe(false);
      const concurrent = client.callTool({
        name: 'add_knowledge',
        arguments: { project_id: P, title: `Capybara extra ${round}`, body_md: 'Another.' },
      });
      const totals = await Promise.all(
        Array.from({ length: 12 }, () => searchOver(client, 'capybara', P, 50).then((f) => f.total)),
      );
      await concurrent;
      for (const total of totals) expect(total).toBeGreaterThanOrEqual(2 * round - 1);
      expect((await searchOver(client, 'capybara', P, 50)).total).toBe(2 * round);
    }
  });

  it('can be turned off (SEARCH_CACHE_ENTRIES=0)', async () => {
    const off = await startService(store, { env: { SEARCH_CACHE_ENTRIES: '0' } });
    try {
      expect((await api(`${off.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Cache' } })).status).toBe(
        201,
      );
      const c = await connectModern(off.url);
      try {
        expect((await searchOver(c, 'anything')).total).toBe(0);
        expect((await searchOver(c, 'anything')).total).toBe(0);
        expect(off.app.services.search.cacheStats()).toEqual({ entries: 0, capacity: 0, hits: 0, misses: 0 });
      } finally {
        await c.close();
      }
    } finally {
      await off.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('search result cache across replicas [postgres]', () => {
  let service: RunningService;
  let replica: RunningReplica;
  let replicaUrl: string;
  let client: Client;

  beforeAll(async () => {
    service = await startService('postgres');
    replica = await startReplica(service);
    replicaUrl = replica.url;
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Cache' } })).status).toBe(
      201,
    );
    client = await connectModern(service.url);
  });
  afterAll(async () => {
    await client?.close();
    await replica?.close();
    await service?.close();
  });

  it('shows a write made on another replica to the very next search', async () => {
    for (let round = 1; round <= 10; round += 1) {
      // Cached (twice, so the second is a hit) before the other replica writes.
      await searchOver(client, 'narwhal');
      const hitsBefore = service.app.services.search.cacheStats().hits;
      expect((await searchOver(client, 'Narwhal')).total).toBe(round - 1);
      expect(service.app.services.search.cacheStats().hits).toBe(hitsBefore + 1);
      expect((await searchOver(client, 'narwhal')).total).toBe(round - 1);
      const res = await api(`${replicaUrl}/api/knowledge`, {
        method: 'POST',
        json: { project_id: P, title: `Narwhal ${round}`, body_md: 'Written elsewhere.' },
      });
      expect(res.status).toBe(201);
      expect((await searchOver(client, 'narwhal')).total).toBe(round);
    }
  });
});
