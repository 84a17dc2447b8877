import type { Client as McpClient } from '@modelcontextprotocol/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModern } from '../support/mcp-clients.js';
import { until } from '../support/scratch-database.js';
import { api, startService, type RunningService } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';

const P = 'proj_cut';

/**
 * PostgreSQL ends the service's sessions under it (a failover, a restart, pg_terminate_backend).
 * To cut a connection while a request is deterministically in flight, the test holds an ACCESS
 * EXCLUSIVE lock on `skills`, starts the request, waits (bounded poll) until the service's backend
 * is blocked behind that lock, terminates exactly that backend, then lets the lock go.
 */
describe.skipIf(!TEST_DATABASE_URL)('a dropped database connection [postgres]', () => {
  let service: RunningService;
  let url: string;
  let mcp: McpClient;
  beforeAll(async () => {
    service = await startService('postgres');
    url = service.url;
    expect((await api(`${url}/api/projects`, { method: 'POST', json: { id: P, name: 'Cut' } })).status).toBe(201);
    const skill = { project_id: P, name: 'first-skill', description: 'Kept', body_md: '## Steps\n1. Look.' };
    expect((await api(`${url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
    mcp = await connectModern(url);
  });
  afterAll(async () => {
    await mcp?.close();
    await service?.close();
  });

  /** Starts `request`, cuts the database connection it is waiting on, and returns its outcome. */
  async function cutUnder<T>(request: () => Promise<T>, table = 'skills'): Promise<{ outcome: T; terminated: number }> {
    const locker = new pg.Client({ connectionString: service.store.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      const pending = request();
      // Keeps a rejection from being reported as unhandled before it is awaited below.
      pending.catch(() => undefined);
      // Only the service's sessions can wait for this lock: the database is the suite's own.
      const blockedBehindUs = 'SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))';
      await until(
        async () => (await locker.query(blockedBehindUs)).rows,
        (rows) => rows.length > 0,
      );
      const { rows } = await locker.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM (${blockedBehindUs}) blocked`,
      );
      await locker.query('COMMIT');
      return { outcome: await pending, terminated: rows[0]!.n };
    } finally {
      await locker.end();
    }
  }

  it('answers a GET whose connection was terminated, on a fresh connection', async () => {
    const { outcome, terminated } = await cutUnder(() => api(`${url}/api/skills?project_id=${P}`));
    expect(terminated).toBe(1);
    expect(outcome.status).toBe(200);
    expect(outcome.body.skills.map((s: { name: string }) => s.name)).toEqual(['first-skill']);
  });

  it('answers a read-only tool call whose connection was terminated', async () => {
    const { outcome, terminated } = await cutUnder(() =>
      mcp.callTool({ name: 'get_skills', arguments: { project_id: P } }),
    );
    expect(terminated).toBe(1);
    expect(outcome.isError).toBeFalsy();
    const text = (outcome.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text).skills.map((s: { name: string }) => s.name)).toEqual(['first-skill']);
  });

  it('answers a resource read whose connection was terminated', async () => {
    const { outcome, terminated } = await cutUnder(
      () => mcp.readResource({ uri: `proposals://${P}/pending` }),
      'proposals',
    );
    expect(terminated).toBe(1);
    const text = (outcome.contents[0] as { text: string }).text;
    expect(JSON.parse(text)).toMatchObject({ project_id: P });
  });

  it('reports a write as database_unavailable (503, Retry-After), does not retry it, and keeps serving', async () => {
    const skill = { project_id: P, name: 'cut-skill', description: 'Cut', body_md: '## Steps\n1. Write.' };
    const { outcome, terminated } = await cutUnder(() => api(`${url}/api/skills`, { method: 'POST', json: skill }));
    expect(terminated).toBe(1);
    expect(outcome.status).toBe(503);
    expect(outcome.headers.get('content-type')).toContain('application/problem+json');
    expect(outcome.headers.get('retry-after')).toBe('2');
    expect(outcome.body).toMatchObject({ code: 'database_unavailable', retry_after_seconds: 2 });
    expect(JSON.stringify(outcome.body)).not.toMatch(/terminat|SELECT|INSERT|57P01/i);

    // Not retried behind the client's back: the write did not land, and the service still serves.
    const list = await api(`${url}/api/skills?project_id=${P}`);
    expect(list.status).toBe(200);
    expect(list.body.skills.map((s: { name: string }) => s.name)).toEqual(['first-skill']);
    // The client's own retry succeeds.
    expect((await api(`${url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
  });

  it('answers a writing tool with an isError database_unavailable result that says to retry', async () => {
    const args = { project_id: P, name: 'cut-tool-skill', description: 'Cut', body_md: '## Steps\n1. Write.' };
    const { outcome, terminated } = await cutUnder(() => mcp.callTool({ name: 'add_skill', arguments: args }));
    expect(terminated).toBe(1);
    expect(outcome.isError).toBe(true);
    const text = (outcome.content as { type: string; text: string }[])[0]!.text;
    expect(text).toMatch(/^database_unavailable: /);
    expect(text).toMatch(/Next: Retry in 2 seconds/);
    expect(outcome._meta?.['service.error']).toMatchObject({ code: 'database_unavailable', retry_after_seconds: 2 });

    const again = await mcp.callTool({ name: 'add_skill', arguments: args });
    expect(again.isError).toBeFalsy();
  });
});
