import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTarGz } from '../../src/platform/tar.js';
import { connectModern } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// 130 sheets with the same words score alike to the last bit, more than a stem's postings that
// enter the candidates (a five-stem question takes 100 per stem) and more than are scored exactly
// (100): every cut has to choose among equals. The internal ids are random per store, so a cut that
// breaks ties by them answers differently on every store, and the answer is not the head of the
// total order by key. The expected order is the keys' own (byte order), whatever the store.

const P = 'proj_ties';
const SHEETS = 130;
const topics = Array.from({ length: SHEETS }, (_, i) => `tied-sheet-${String((i * 37) % SHEETS).padStart(3, '0')}`);
const byKey = [...topics].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const QUESTIONS = ['walrus', 'walrus colony counting ice floe', 'how do we count the walrus colony on the ice floe'];

interface Hits {
  total: number;
  hits: { key: string; score: number }[];
}

describe('equal scores in one total order on every store', () => {
  const services: Partial<Record<(typeof STORES)[number], RunningService>> = {};
  const clients: Partial<Record<(typeof STORES)[number], Client>> = {};
  const search = async (store: (typeof STORES)[number], query: string, limit: number): Promise<Hits> => {
    const r = await clients[store]!.callTool({ name: 'search_context', arguments: { query, project_id: P, limit } });
    expect(r.isError ?? false).toBe(false);
    return (r.structuredContent as { data: Hits }).data;
  };

  beforeAll(async () => {
    const archive = await writeTarGz(
      topics.map((topic) => ({
        path: `knowledge/${topic}.md`,
        data: Buffer.from('---\ntitle: Walrus colony\n---\nCounting the walrus colony on the ice floe.\n'),
      })),
    );
    for (const store of STORES) {
      const service = await startService(store, { env: { SEARCH_CACHE_ENTRIES: '0' } });
      services[store] = service;
      expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Ties' } })).status).toBe(
        201,
      );
      const imported = await fetch(`${service.url}/api/projects/${P}/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/gzip' },
        body: new Uint8Array(archive),
      });
      expect(imported.status).toBe(200);
      clients[store] = await connectModern(service.url);
    }
  });
  afterAll(async () => {
    for (const store of STORES) {
      await clients[store]?.close();
      await services[store]?.close();
    }
  });

  it('answers the head of the key order at every limit, twice alike', async () => {
    for (const store of STORES) {
      for (const q of QUESTIONS) {
        const ten = await search(store, q, 10);
        const fifty = await search(store, q, 50);
        const again = await search(store, q, 50);
        expect(new Set(fifty.hits.map((h) => h.score)).size, q).toBe(1);
        expect(
          ten.hits.map((h) => h.key),
          `${store}: ${q}`,
        ).toEqual(byKey.slice(0, 10));
        expect(
          fifty.hits.map((h) => h.key),
          `${store}: ${q}`,
        ).toEqual(byKey.slice(0, 50));
        expect(again.hits).toEqual(fifty.hits);
      }
    }
  });

  it('gives the same hits and scores on both stores', async () => {
    if (STORES.length < 2) return;
    for (const q of QUESTIONS) {
      const [a, b] = await Promise.all(STORES.map((store) => search(store, q, 50)));
      expect(b!.hits.map((h) => [h.key, h.score])).toEqual(a!.hits.map((h) => [h.key, h.score]));
    }
  });
});
