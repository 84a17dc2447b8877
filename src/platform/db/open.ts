import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './database.js';
import { PACKAGE_ROOT } from './migrate.js';
import { PgliteDatabase } from './pglite.js';
import { PostgresDatabase } from './postgres.js';

/** Prepared at build time (scripts/prepare-template.mjs) so a first start skips PGlite's initdb. */
export const PGLITE_TEMPLATE = path.join(PACKAGE_ROOT, '.template', 'pglite-data.tar.gz');

export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}

/** DATABASE_URL set → PostgreSQL; unset → embedded PGlite under DATA_DIR. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return new PostgresDatabase({ url: config.databaseUrl });
  return PgliteDatabase.open({ dataDir: embeddedDataDir(config), templateTarball: PGLITE_TEMPLATE });
}
