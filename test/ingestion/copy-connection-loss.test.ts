import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkedCopyLander } from '../../src/modules/ingestion/index.js';
import { migrate } from '../../src/platform/db/migrate.js';
import type { PostgresDatabase } from '../../src/platform/db/postgres.js';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/stores.js';

const record = (i: number) => ({
  date: '2026-05-01',
  campaign_id: `c${i}`,
  campaign_name: `Campaign ${i}`,
  channel: 'search',
  currency: 'EUR',
  spend: 1,
  impressions: 10,
  clicks: 1,
  conversions: 0,
  revenue: 2,
});

/**
 * A connection that PostgreSQL ends while a landing's COPY holds it (a failover, a restart) must
 * fail that landing, not the process: a checked-out pg client has no error listener of the pool's,
 * and an unhandled 'error' event would end the worker (vitest reports it as an error of this file).
 */
describe.skipIf(!TEST_DATABASE_URL)('a landing whose connection is ended under its COPY [postgres]', () => {
  let store: TestDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    store = await openTestDatabase('postgres');
    await migrate(store.db);
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await store?.drop();
  });

  it('rejects the landing with the connection error, and the store keeps serving', async () => {
    const db = store.db as PostgresDatabase;
    const lander = await ChunkedCopyLander.open(db, 'run_lost', 'ds_lost', 1_000_000, () => undefined);
    for (let i = 0; i < 50; i++) await lander.add(record(i));
    const copying = async () =>
      (
        await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY raw_ad_records%' AND pid <> pg_backend_pid()`,
        )
      ).rows;
    let pids = await copying();
    for (let tries = 0; pids.length === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setImmediate(resolve));
      pids = await copying();
    }
    expect(pids).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [pids[0]!.pid]);

    // Writing on until the loss is heard, then finishing: the landing fails with the loss.
    const landing = (async () => {
      for (let i = 50; i < 100_000; i++) {
        const wait = lander.add(record(i));
        if (wait) await wait;
      }
      await lander.finish();
    })();
    // The error is the driver's (EPIPE or "terminated" depending on which side hears it first).
    await expect(landing).rejects.toBeInstanceOf(Error);
    await lander.abort();

    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM raw_ad_records');
    expect(rows[0]!.n).toBe(0);
  });
});
