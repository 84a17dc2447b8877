import { createPostgresDatabase } from './stores.js';

/** Polls (bounded by attempts, not by a clock assertion) until `ok` holds for what `read` returns. */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, attempts = 6000): Promise<T> {
  for (let i = 0; i < attempts; i += 1) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never held');
}

/**
 * A whole PostgreSQL database of its own, for suites that run several processes against it: a copy
 * of the run's migrated template (stores.ts, createPostgresDatabase), as every PostgreSQL test store
 * is now.
 */
export async function createScratchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  return createPostgresDatabase(prefix);
}
