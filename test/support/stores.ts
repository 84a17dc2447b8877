import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../src/platform/db/database.js';
import { PGLITE_TEMPLATE } from '../../src/platform/db/open.js';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { PostgresDatabase } from '../../src/platform/db/postgres.js';
import { templateFilesystem } from './pglite-template-fs.js';

export type StoreKind = 'pglite' | 'postgres';

/** The stores this run covers: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const STORES: StoreKind[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export interface TestDatabase {
  db: Database;
  /** PostgreSQL: the store's own database, and its URL for processes that must join it. */
  database?: string;
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

/**
 * An in-memory PGlite holding a plain tar's data directory (by default the migrated template,
 * loaded in one pass when its plain tar is there). `drop` closes it, then hands its memory to the
 * next store (pglite-template-fs.ts).
 */
export async function openPgliteStore(plainTar = PGLITE_TEST_TEMPLATE): Promise<TestDatabase> {
  // Outside a test run (no global setup unpacked it), the shipped gzipped template.
  if (plainTar === PGLITE_TEST_TEMPLATE && !fs.existsSync(plainTar)) {
    const db = await PgliteDatabase.open({ templateTarball: PGLITE_TEMPLATE });
    return { db, drop: () => db.close() };
  }
  const { filesystem, release } = templateFilesystem(plainTar);
  const db = await PgliteDatabase.open({ filesystem });
  return {
    db,
    drop: async () => {
      await db.close();
      release();
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PostgreSQL database test stores are cloned from (global-setup.ts). */
    postgresTemplate: string;
    /** A directory of this run that its workers share (global-setup.ts). */
    runDir: string;
  }
}

/** The run's template; none outside vitest (a bench script), where the service migrates a new database. */
function postgresTemplate(): string | undefined {
  try {
    return inject('postgresTemplate');
  } catch {
    return undefined;
  }
}

/** TEST_DATABASE_URL with another database name. */
export function databaseUrl(name: string): string {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL database of its own, named `<prefix>_<random>`: by default a copy of the run's
 * template (global-setup.ts), which holds what a first start leaves (every migration and function
 * file, the bundled rates, pg-boss's schema and queues); `empty` for a suite that migrates itself.
 * A copy takes ~0.1 s where migrating a new schema took ~2 s. A database, not a schema, also keeps
 * pg-boss's queues and NOTIFY channels apart, as between two deployments. Its connections commit
 * with `synchronous_commit = off`: the suite's thousands of commits no longer each wait for a
 * flush of the WAL (the server's setting, `on`, is left alone).
 */
export async function createPostgresDatabase(
  prefix: string,
  options: { empty?: boolean; template?: string } = {},
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : (options.template ?? postgresTemplate());
  await admin(async (client) => {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    // Commits of a test store return without waiting for the WAL to reach the disk (visible to every
    // session as before; only a crash of the server could lose them, and no test crashes it).
    await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A fresh store: in-memory PGlite from the template, or a PostgreSQL database of its own copied
 * from the migrated template (`empty`: PostgreSQL only, a database with nothing in it).
 */
export async function openTestDatabase(kind: StoreKind, options: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (kind === 'pglite') {
    return openPgliteStore();
  }
  return postgresStore(await createPostgresDatabase('t', options));
}

/** Whether the server has a database of that name (asked of the server, not of the database). */
export async function databaseExists(name: string): Promise<boolean> {
  const { rows } = await admin((client) => client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
  return rows.length > 0;
}

/** A test store on a database createPostgresDatabase made; drop() removes the database too. */
export function postgresStore(created: { name: string; url: string; drop(): Promise<void> }): TestDatabase {
  const db = new PostgresDatabase({ url: created.url, maxConnections: 5 });
  return {
    db,
    database: created.name,
    url: created.url,
    drop: async () => {
      await db.close();
      await created.drop();
    },
  };
}
