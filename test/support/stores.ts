import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/platform/db/database.js';
import { PGLITE_TEMPLATE } from '../../src/platform/db/open.js';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { PostgresDatabase } from '../../src/platform/db/postgres.js';

export type StoreKind = 'pglite' | 'postgres';

/** The stores this run covers: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const STORES: StoreKind[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export interface TestDatabase {
  db: Database;
  /** The PostgreSQL schema (for processes that must join the same database). */
  schema?: string;
  /** DATABASE_URL with the schema on the search path, for child processes. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * The PGlite template unpacked from its gzip once per run (global-setup.ts): PGlite reads a plain
 * tar as it is and a gzipped one only after inflating it, which was a third of the CPU of every
 * test store's open (1.5 s → 1.05 s). The shipped template stays gzipped; the plain one (68 MB) is
 * kept under node_modules/.cache, out of the package's files and out of git.
 */
export const PGLITE_TEST_TEMPLATE = path.resolve(
  import.meta.dirname,
  '../../node_modules/.cache/context-hub-tests/pglite-data.tar',
);

function pgliteTemplate(): string {
  return fs.existsSync(PGLITE_TEST_TEMPLATE) ? PGLITE_TEST_TEMPLATE : PGLITE_TEMPLATE;
}

export function schemaUrl(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema},public`);
  return u.toString();
}

/** A fresh store: in-memory PGlite from the template, or a PostgreSQL schema of its own. */
export async function openTestDatabase(kind: StoreKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await PgliteDatabase.open({ templateTarball: pgliteTemplate() });
    return { db, drop: () => db.close() };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = new PostgresDatabase({ url: TEST_DATABASE_URL, schema, maxConnections: 5 });
  return {
    db,
    schema,
    url: schemaUrl(TEST_DATABASE_URL, schema),
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      // The jobs platform of a service on this schema keeps its queues in <schema>_boss (queues.ts).
      await cleanup.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
      await cleanup.end();
    },
  };
}
