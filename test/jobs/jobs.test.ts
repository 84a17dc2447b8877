import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/platform/db/migrate.js';
import { deadLetterName, JobQueues, type JobAttempt } from '../../src/platform/jobs/queues.js';
import { createLogger } from '../../src/platform/logger.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

/** Resolves when `count` values have been pushed; the handlers push what they saw. */
function collector<T>() {
  const items: T[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      for (const w of waiters.filter((w) => items.length >= w.n)) w.resolve();
    },
    until(n: number) {
      return items.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
  };
}

describe.each(STORES)('jobs platform on pg-boss [%s]', (kind) => {
  let store: TestDatabase;
  let jobs: JobQueues;
  const seen = collector<{ queue: string; attempt: JobAttempt<{ n: number }> }>();
  let active = 0;
  let maxActive = 0;

  beforeAll(async () => {
    store = await openTestDatabase(kind);
    await migrate(store.db);
    jobs = new JobQueues({
      db: store.db,
      log: createLogger({ level: 'silent' }),
      work: true,
      pollingIntervalSeconds: 0.5,
    });
    jobs.define<{ n: number }>({
      name: 'test.ok',
      concurrency: 3,
      policy: 'singleton',
      handler: async (attempt) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        // Yield to the event loop so a second job of the same key would overlap if allowed.
        await new Promise((r) => setImmediate(r));
        active -= 1;
        seen.push({ queue: 'test.ok', attempt });
      },
    });
    jobs.define<{ n: number }>({
      name: 'test.failing',
      retryLimit: 1,
      retryDelay: 1,
      retryBackoff: false,
      handler: async (attempt) => {
        seen.push({ queue: 'test.failing', attempt });
        throw new Error('boom');
      },
    });
    await jobs.start();
  });
  afterAll(async () => {
    await jobs?.stop();
    await store?.drop();
  });

  it('runs sent jobs with their data, one active per singleton key', async () => {
    await jobs.send('test.ok', { n: 1 }, { singletonKey: 'a' });
    await jobs.send('test.ok', { n: 2 }, { singletonKey: 'a' });
    await seen.until(2);
    const oks = seen.items.filter((s) => s.queue === 'test.ok');
    expect(oks.map((s) => s.attempt.data.n).sort()).toEqual([1, 2]);
    expect(maxActive).toBe(1);
    expect(oks[0]!.attempt.retryCount).toBe(0);
  });

  it('retries a failing job, flags the last attempt, then dead-letters it', async () => {
    const before = seen.items.length;
    const id = await jobs.send('test.failing', { n: 3 });
    await seen.until(before + 2);
    const attempts = seen.items.filter((s) => s.queue === 'test.failing').map((s) => s.attempt);
    expect(attempts.map((a) => [a.retryCount, a.lastAttempt])).toEqual([
      [0, false],
      [1, true],
    ]);
    // The dead-letter copy appears once pg-boss records the final failure: poll a bounded number of times.
    let dead: unknown[] = [];
    for (let i = 0; i < 200 && dead.length === 0; i += 1) {
      dead = await jobs.engine.findJobs(deadLetterName('test.failing'), {});
      if (dead.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(dead.length).toBe(1);
    expect(id).toBeTruthy();
  });

  it('reports live workers from heartbeats', async () => {
    expect(await jobs.liveWorkers('test.ok')).toBe(1);
    const other = new JobQueues({ db: store.db, log: createLogger({ level: 'silent' }), work: false });
    expect(await other.liveWorkers('test.ok')).toBe(1); // this suite's working instance beats
    expect(await other.liveWorkers('nobody.works.this')).toBe(0);
  });
});
