import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchStatsDrift } from '../../src/modules/search/index.js';
import { writeTarGz } from '../../src/platform/tar.js';
import { api, type RunningReplica, type RunningService, startReplica, startService } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';

// Two service instances on one PostgreSQL write the same project at once: imports (one with
// prune), single writes, deletes and restores. The document frequencies, field lengths and
// postings each commit folded in must equal what a rebuild from the live rows computes.

const P = 'proj_replica_stats';

function archiveOf(prefix: string, n: number, words: (i: number) => string): Promise<Buffer> {
  return writeTarGz(
    Array.from({ length: n }, (_, i) => ({
      path: `knowledge/${prefix}-${i}.md`,
      data: Buffer.from(`---\ntitle: ${prefix} sheet ${i}\n---\n# Heading ${i % 7}\n${words(i)}\n`),
    })),
  );
}

describe.skipIf(!TEST_DATABASE_URL)('search statistics under writers on two replicas [postgres]', () => {
  let service: RunningService;
  let replica: RunningReplica;
  let replicaUrl: string;

  beforeAll(async () => {
    service = await startService('postgres');
    replica = await startReplica(service, { maxConnections: 4 });
    replicaUrl = replica.url;
    expect((await api(`${service.url}/api/projects`, { method: 'POST', json: { id: P, name: 'Stats' } })).status).toBe(
      201,
    );
  });
  afterAll(async () => {
    await replica?.close();
    await service?.close();
  });

  const importInto = async (base: string, archive: Buffer, prune = false) => {
    const r = await fetch(`${base}/api/projects/${P}/import${prune ? '?prune=true' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip' },
      body: new Uint8Array(archive),
    });
    const text = await r.text();
    expect(r.status, text).toBe(200);
  };

  /** The statistics as stored, in a comparable form. */
  const stats = async () => ({
    terms: await service.store.db.query<{ term: string; df: number }>(
      'SELECT term, df FROM search_terms WHERE project_id = $1 ORDER BY term COLLATE "C"',
      [P],
    ),
    fields: await service.store.db.query<{ kind: string; docs: string; len1: string; len2: string; len3: string }>(
      'SELECT kind::text, docs, len1, len2, len3 FROM search_fields WHERE project_id = $1 AND docs <> 0 ORDER BY kind',
      [P],
    ),
    postings: await service.store.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM search_postings WHERE project_id = $1',
      [P],
    ),
  });

  it('keeps the statistics equal to a rebuild under concurrent imports and writes', async () => {
    // Overlapping topics with different words, so the two imports revise each other's sheets.
    const [a, b, pruned] = await Promise.all([
      archiveOf('shared', 300, (i) => `walrus colony ${i} counting on the ice floe, alpha words ${i % 11}`),
      archiveOf('shared', 300, (i) => `narwhal tusk ${i} measured near the shore, beta words ${i % 13}`),
      archiveOf('shared', 120, (i) => `beluga song ${i} recorded offshore`),
    ]);
    const writes = (base: string, n: number) =>
      Array.from({ length: 20 }, (_, i) =>
        api(`${base}/api/knowledge`, {
          method: 'POST',
          json: {
            project_id: P,
            topic_id: `single-${n}-${i}`,
            title: `Single ${n} ${i}`,
            body_md: `seal ${i} pup ${n}`,
          },
        }).then((r) => expect(r.status).toBe(201)),
      );
    await Promise.all([
      importInto(service.url, a),
      importInto(replicaUrl, b),
      ...writes(service.url, 0),
      ...writes(replicaUrl, 1),
    ]);
    // Deletes on one replica while the other revises other sheets and restores a version of more.
    await Promise.all([
      ...Array.from({ length: 15 }, (_, i) =>
        api(`${service.url}/api/knowledge/shared-${i}?project_id=${P}`, { method: 'DELETE' }).then((r) =>
          expect(r.status).toBeLessThan(300),
        ),
      ),
      ...Array.from({ length: 15 }, (_, i) =>
        api(`${replicaUrl}/api/knowledge/shared-${i + 15}?project_id=${P}`, {
          method: 'PUT',
          json: { title: `Revised ${i}`, body_md: `# Revised\nwalrus and narwhal ${i} together` },
        }).then((r) => expect(r.status).toBeLessThan(300)),
      ),
      ...Array.from({ length: 15 }, (_, i) =>
        api(`${replicaUrl}/api/knowledge/shared-${i + 30}/restore?project_id=${P}`, {
          method: 'POST',
          json: { version: 1 },
        }).then((r) => expect(r.status).toBe(200)),
      ),
    ]);
    // An import with prune on one replica while the other imports again.
    await Promise.all([importInto(replicaUrl, pruned, true), importInto(service.url, a), ...writes(service.url, 2)]);

    const drift = await searchStatsDrift(service.store.db, P);
    expect(drift).toMatchObject({ terms_wrong: 0, kinds_wrong: 0 });
    expect(drift.postings_stored).toBe(drift.postings_expected);
    const kept = await stats();
    expect(kept.terms.length).toBeGreaterThan(50);
    await service.store.db.transaction((tx) => tx.query('SELECT * FROM search_index_rebuild($1)', [P]));
    expect(await stats()).toEqual(kept);
  });
});
