import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './database.js';
import { loadMigrations, PACKAGE_ROOT } from './migrate.js';
import { PgliteDatabase } from './pglite.js';
import { PostgresDatabase } from './postgres.js';

/** Prepared at build time (scripts/prepare-template.mjs) so a first start skips PGlite's initdb. */
export const PGLITE_TEMPLATE = path.join(PACKAGE_ROOT, '.template', 'pglite-data.tar.gz');

export const PGLITE_TEMPLATE_MANIFEST = path.join(PACKAGE_ROOT, '.template', 'manifest.json');

/**
 * Whether the template was built from exactly the migration files on disk. A stale template would
 * fail the checksum check at start, so it is skipped (the store then runs initdb instead).
 */
export function templateIsCurrent(): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(PGLITE_TEMPLATE_MANIFEST, 'utf8')) as { migrations: Record<string, string> };
    const current = loadMigrations();
    return current.length === Object.keys(manifest.migrations).length && current.every((m) => manifest.migrations[m.name] === m.checksum);
  } catch {
    return false;
  }
}

export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}

/** DATABASE_URL set → PostgreSQL; unset → embedded PGlite under DATA_DIR. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return new PostgresDatabase({ url: config.databaseUrl });
  return PgliteDatabase.open({ dataDir: embeddedDataDir(config), templateTarball: templateIsCurrent() ? PGLITE_TEMPLATE : undefined });
}
