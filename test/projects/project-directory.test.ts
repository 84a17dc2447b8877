import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/platform/context/request-context.js';
import { ProjectDirectory, ProjectsService } from '../../src/modules/projects/index.js';
import { OPERATOR } from '../../src/platform/auth/actor.js';
import { ManualClock } from '../../src/platform/clock.js';
import { PostgresDatabase } from '../../src/platform/db/postgres.js';
import { ChangeFeed } from '../../src/platform/events/change-feed.js';
import { createLogger } from '../../src/platform/logger.js';
import { connectModern } from '../support/mcp-clients.js';
import { until } from '../support/scratch-database.js';
import { api, startService, type RunningService } from '../support/service.js';
import { openTestDatabase, STORES, TEST_DATABASE_URL, type TestDatabase } from '../support/stores.js';

// Project rows are kept in memory (every tool call resolves a project); these prove a change is
// never missed: at once on the replica that made it, through the change feed on the others.

describe.each(STORES)('project directory on one replica [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store);
  });
  afterAll(async () => service?.close());

  const listed = async () => {
    const client = await connectModern(service.url);
    try {
      const result = await client.callTool({ name: 'list_projects', arguments: {} });
      return (result.structuredContent as { data: { projects: { id: string; name: string }[] } }).data.projects;
    } finally {
      await client.close();
    }
  };

  it('shows a created or renamed project to the very next call', async () => {
    const before = await listed();
    expect(before.some((p) => p.id === 'proj_dir_a')).toBe(false);
    expect(
      (await api(`${service.url}/api/projects`, { method: 'POST', json: { id: 'proj_dir_a', name: 'First name' } }))
        .status,
    ).toBe(201);
    expect((await listed()).find((p) => p.id === 'proj_dir_a')?.name).toBe('First name');
    expect(
      (await api(`${service.url}/api/projects/proj_dir_a`, { method: 'PATCH', json: { name: 'Second name' } })).status,
    ).toBe(200);
    expect((await listed()).find((p) => p.id === 'proj_dir_a')?.name).toBe('Second name');
    expect(
      (await api(`${service.url}/api/projects`, { method: 'POST', json: { id: 'proj_dir_b', name: 'Another' } }))
        .status,
    ).toBe(201);
    const page = await api(`${service.url}/api/projects?limit=1`);
    expect(page.status).toBe(200);
    const next = await api(`${service.url}/api/projects?limit=50&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    const all = (await listed()).map((p) => p.id);
    expect(all).toEqual(expect.arrayContaining(['proj_dir_a', 'proj_dir_b']));
    expect([...page.body.projects, ...next.body.projects].map((p: { id: string }) => p.id)).toEqual(all);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('project directory across replicas [postgres]', () => {
  let store: TestDatabase;
  const replicas: { db: PostgresDatabase; feed: ChangeFeed; projects: ProjectsService }[] = [];
  const log = createLogger({ level: 'silent' });
  const clock = new ManualClock('2026-11-22T12:00:00Z');
  const ctx: RequestContext = { actor: OPERATOR, requestId: 'test', clock, log };

  beforeAll(async () => {
    store = await openTestDatabase('postgres');
    const { migrate } = await import('../../src/platform/db/migrate.js');
    await migrate(store.db);
    for (let i = 0; i < 2; i++) {
      const db = new PostgresDatabase({ url: store.url!, maxConnections: 2 });
      const feed = new ChangeFeed(db, log);
      await feed.start();
      // A bound far beyond the test, so only the change feed can refresh the other replica's copy.
      const directory = new ProjectDirectory(db, clock, feed, 24 * 60 * 60 * 1000);
      replicas.push({ db, feed, projects: new ProjectsService(db, feed, undefined, directory) });
    }
  });
  afterAll(async () => {
    for (const r of replicas) {
      await r.feed.stop();
      await r.db.close();
    }
    await store?.drop();
  });

  it("reaches another replica's copy through the change feed", async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const idsOnB = async () => (await b.projects.list(ctx, { limit: 50 })).items.map((p) => p.id);
    expect(await idsOnB()).not.toContain('proj_repl_a');
    await a.projects.create(ctx, { id: 'proj_repl_a', name: 'Made on A' });
    expect(await until(idsOnB, (ids) => ids.includes('proj_repl_a'))).toContain('proj_repl_a');
    // An explicit id that has not reached the copy yet is read from the database, not refused.
    await a.projects.create(ctx, { id: 'proj_repl_b', name: 'Made on A too' });
    expect((await b.projects.get(ctx, 'proj_repl_b')).name).toBe('Made on A too');
    await a.projects.update(ctx, 'proj_repl_a', { name: 'Renamed on A' });
    const renamed = await until(
      () => b.projects.get(ctx, 'proj_repl_a'),
      (p) => p.name === 'Renamed on A',
    );
    expect(renamed.name).toBe('Renamed on A');
  });
});
