import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { DatabaseUnavailableError, StartupError } from '../errors.js';
import type { Database } from './database.js';
import { loadFunctions, loadMigrations, PACKAGE_ROOT } from './migrate.js';
import { PgliteDatabase } from './pglite.js';
import { PostgresDatabase } from './postgres.js';

/** Prepared at build time (scripts/prepare-template.mjs) so a first start skips PGlite's initdb. */
export const PGLITE_TEMPLATE = path.join(PACKAGE_ROOT, '.template', 'pglite-data.tar.gz');

export const PGLITE_TEMPLATE_MANIFEST = path.join(PACKAGE_ROOT, '.template', 'manifest.json');

/** What a template holds: the checksum of each migration and function file it was built from. */
export interface TemplateManifest {
  migrations: Record<string, string>;
  functions: Record<string, string>;
}

/** The manifest of a template built from the files on disk now. */
export function templateManifest(migrations = loadMigrations(), functions = loadFunctions()): TemplateManifest {
  return {
    migrations: Object.fromEntries(migrations.map((m) => [m.name, m.checksum])),
    functions: Object.fromEntries(functions.map((f) => [f.name, f.checksum])),
  };
}

/**
 * Whether the template was built from exactly the migration and function files on disk. A stale
 * template would fail the checksum check at start, or re-apply a function file on every first
 * start, so it is skipped (the store then runs initdb instead).
 */
export function templateIsCurrent(
  manifestFile = PGLITE_TEMPLATE_MANIFEST,
  current: TemplateManifest = templateManifest(),
): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Partial<TemplateManifest>;
    const same = (a: Record<string, string> | undefined, b: Record<string, string>) =>
      a !== undefined &&
      Object.keys(a).length === Object.keys(b).length &&
      Object.entries(b).every(([name, checksum]) => a[name] === checksum);
    return same(manifest.migrations, current.migrations) && same(manifest.functions, current.functions);
  } catch {
    return false;
  }
}

export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}

/**
 * DATABASE_URL set → PostgreSQL; unset → embedded PGlite under DATA_DIR. A store that cannot be
 * reached or used stops the start with a StartupError that says why, not a driver's stack.
 */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (!config.databaseUrl)
    return PgliteDatabase.open({
      dataDir: embeddedDataDir(config),
      templateTarball: templateIsCurrent() ? PGLITE_TEMPLATE : undefined,
    });
  const db = new PostgresDatabase({ url: config.databaseUrl });
  try {
    await db.ping();
  } catch (error) {
    await db.close().catch(() => undefined);
    throw new StartupError(
      'store_unreachable',
      `cannot use the PostgreSQL at ${shownUrl(config.databaseUrl)}: ${whyUnreachable(error)}`,
      EX_UNAVAILABLE,
    );
  }
  return db;
}

const EX_UNAVAILABLE = 69;

/** The URL without its password. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL)';
  }
}

function whyUnreachable(failure: unknown): string {
  // The store reports a lost or refused connection as DatabaseUnavailableError; the driver's own
  // error, which says which, is its cause.
  const error = failure instanceof DatabaseUnavailableError ? failure.cause : failure;
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is PostgreSQL running, on that host and port?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case '28P01':
    case '28000':
      return 'authentication failed (check the user and password)';
    case '3D000':
      return 'the database does not exist (create it first)';
    default:
      return `${message ?? 'unknown error'}${code ? ` (${code})` : ''}`;
  }
}
