import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTEN_APPLICATION_NAME, PostgresDatabase } from '../../src/platform/db/postgres.js';
import { createScratchDatabase, until } from '../support/scratch-database.js';
import { TEST_DATABASE_URL } from '../support/stores.js';

/**
 * The change feed between replicas rides on one LISTEN connection. When PostgreSQL drops it (a
 * restart, a failover, a proxy's idle timeout) the replica must listen again, or it stops hearing
 * the others for good.
 */
describe.skipIf(!TEST_DATABASE_URL)('the LISTEN connection comes back [postgres]', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let db: PostgresDatabase;
  beforeAll(async () => {
    // A database of its own: terminating "the" LISTEN connection must not touch other suites'.
    scratch = await createScratchDatabase('ch_listen');
    db = new PostgresDatabase({ url: scratch.url });
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it('hears notifications again after its connection is terminated', async () => {
    const heard: string[] = [];
    await db.listen('ch_feed', (payload) => heard.push(payload));
    await db.notify('ch_feed', 'before');
    await until(
      async () => heard,
      (h) => h.includes('before'),
    );

    const killed = await db.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [LISTEN_APPLICATION_NAME],
    );
    expect(Number(killed[0]!.n)).toBe(1);
    // Notify until one is heard: those sent before the connection is back are lost, by design.
    let sent = 0;
    await until(
      async () => {
        await db.notify('ch_feed', `after-${++sent}`);
        return heard;
      },
      (h) => h.some((p) => p.startsWith('after-')),
    );
    const back = await db.query<{ n: number }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [LISTEN_APPLICATION_NAME],
    );
    expect(Number(back[0]!.n)).toBe(1);
  });
});
