import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';
import { freePort, runCli, stop, waitReady } from '../support/process.js';
import { openRawSession, rawMcp } from '../support/raw-mcp.js';
import { EventStreamReader, isMethod } from '../support/event-stream.js';
import { TEST_SECRETS_KEY } from '../support/service.js';
import { seededDataDir } from '../support/seeded-data-dir.js';

/**
 * docs/mcp.md promise: a 2025-era session survives a restart of the server. The session row and its
 * GET-stream events are in the database; a new process rehydrates the session on its next request
 * and replays events after the client's Last-Event-ID, including those from before the restart.
 */
describe.each(STORES)('a 2025-era session across a real restart [%s]', (store) => {
  let dataDir: string;
  let pgStore: TestDatabase | undefined;
  let env: Record<string, string>;
  let baseUrl: string;

  beforeAll(async () => {
    // Embedded: a store a first start left (seeded-data-dir.ts); the restart is the subject here.
    dataDir = store === 'pglite' ? await seededDataDir() : fs.mkdtempSync(path.join(os.tmpdir(), 'ch-restart-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    env = { PORT: String(port), DATA_DIR: dataDir, SECRETS_KEY: TEST_SECRETS_KEY };
    if (store === 'postgres') {
      pgStore = await openTestDatabase('postgres');
      await pgStore.db.close();
      env.DATABASE_URL = pgStore.url!;
    }
  });
  afterAll(async () => {
    if (pgStore) await pgStore.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the session id, the subscription and the stream position', async ({ onTestFinished }) => {
    const first = runCli(['serve'], env);
    // Stopped however the test ends: a failure before the restart left this process serving.
    onTestFinished(() => stop(first));
    await waitReady(baseUrl, first);
    await fetch(`${baseUrl}/api/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'proj_restart', name: 'Restart' }),
    });
    const session = await openRawSession(baseUrl, '2025-11-25');
    await rawMcp(
      baseUrl,
      { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'project://proj_restart' } },
      session,
    );
    const stream = await EventStreamReader.open(`${baseUrl}/mcp`, session);
    const priming = await stream.next((e) => e.id !== undefined);
    await fetch(`${baseUrl}/api/projects/proj_restart`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Before restart' }),
    });
    const beforeRestart = await stream.next(isMethod('notifications/resources/updated'));
    stream.close();
    await stop(first);

    const second = runCli(['serve'], env);
    try {
      await waitReady(baseUrl, second);
      const list = await rawMcp(baseUrl, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, session);
      expect(list.status).toBe(200);
      expect(list.messages[0].result.tools.length).toBeGreaterThan(0);

      const resumed = await EventStreamReader.open(`${baseUrl}/mcp`, { ...session, 'last-event-id': priming.id! });
      expect(resumed.response.status).toBe(200);
      const replayed = await resumed.next(isMethod('notifications/resources/updated'));
      expect(replayed.id).toBe(beforeRestart.id);

      await fetch(`${baseUrl}/api/projects/proj_restart`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'After restart' }),
      });
      const after = await resumed.next(
        (e) => isMethod('notifications/resources/updated')(e) && e.id !== beforeRestart.id,
      );
      expect(JSON.parse(after.data).params.uri).toBe('project://proj_restart');
      resumed.close();

      const del = await fetch(`${baseUrl}/mcp`, { method: 'DELETE', headers: session });
      expect(del.status).toBe(200);
      expect((await rawMcp(baseUrl, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, session)).status).toBe(404);
    } finally {
      await stop(second);
    }
  });
});

describe.runIf(STORES.includes('postgres'))('migrations under a lock', () => {
  it('two processes migrating one database at once do not collide', async () => {
    // An empty database: one of the two must apply every migration.
    const store = await openTestDatabase('postgres', { empty: true });
    try {
      const env = { DATABASE_URL: store.url! };
      const [a, b] = [runCli(['migrate'], env), runCli(['migrate'], env)];
      expect([await a.exited, await b.exited]).toEqual([0, 0]);
      const rows = await store.db.query<{ version: number; n: number }>(
        'SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version',
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      expect(a.output() + b.output()).toMatch(/applied \d+ migration/);
      expect(a.output() + b.output()).toMatch(/up to date/);
    } finally {
      await store.drop();
    }
  });
});
