import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Database, SqlExecutor } from './database.js';

/** Package root: this file sits three levels down in both src/ and dist/. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const MIGRATIONS_DIR = path.join(PACKAGE_ROOT, 'migrations');
/** Functions and triggers, one re-runnable file each, applied after the numbered migrations. */
export const FUNCTIONS_DIR = path.join(MIGRATIONS_DIR, 'functions');

/** Arbitrary but fixed: every process that migrates this database contends for the same lock. */
const MIGRATION_LOCK_KEY = 727_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = fs.readFileSync(path.join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/** A re-runnable file (CREATE OR REPLACE FUNCTION, DROP TRIGGER IF EXISTS + CREATE TRIGGER). */
export interface FunctionFile {
  name: string;
  sql: string;
  checksum: string;
}

/** The function files in name order; none when the folder is absent. */
export function loadFunctions(dir = FUNCTIONS_DIR): FunctionFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => /^[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = fs.readFileSync(path.join(dir, file), 'utf8');
      return { name: file.replace(/\.sql$/, ''), sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
  /** Function files applied because their text differs from the one last applied (or none was). */
  functions: string[];
}

export class MigrationChecksumError extends Error {
  readonly code = 'migration_checksum_mismatch';
  constructor(name: string) {
    super(`migration ${name} was changed after it was applied; add a new migration instead`);
  }
}

async function appliedVersions(tx: SqlExecutor): Promise<Map<number, string>> {
  const rows = await tx.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations');
  return new Map(rows.map((r) => [Number(r.version), r.checksum]));
}

/**
 * Applies pending migrations, then the function files whose text changed, in one transaction under
 * an advisory lock, so processes starting together against one database wait for each other
 * instead of colliding.
 */
export async function migrate(
  db: Database,
  migrations = loadMigrations(),
  functions = loadFunctions(),
): Promise<MigrationReport> {
  return db.withAdvisoryLock(MIGRATION_LOCK_KEY, async (tx) => {
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = await appliedVersions(tx);
    const report: MigrationReport = { applied: [], alreadyApplied: 0, functions: [] };
    for (const migration of migrations) {
      const checksum = applied.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) throw new MigrationChecksumError(migration.name);
        report.alreadyApplied += 1;
        continue;
      }
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      report.applied.push(migration.name);
    }
    report.functions = await applyFunctions(tx, functions, Math.max(0, ...migrations.map((m) => m.version)));
    return report;
  });
}

/**
 * Applies each function file whose checksum differs from the one recorded. The row also records the
 * newest numbered migration of the code that applied it: a file is left alone when code with newer
 * migrations applied its own version, so an older release restarting during a rolling upgrade does
 * not put its definition back.
 */
async function applyFunctions(tx: SqlExecutor, functions: FunctionFile[], schemaVersion: number): Promise<string[]> {
  await tx.query(`CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    schema_version integer NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const rows = await tx.query<{ name: string; checksum: string; schema_version: number }>(
    'SELECT name, checksum, schema_version FROM schema_functions',
  );
  const recorded = new Map(rows.map((r) => [r.name, r]));
  const applied: string[] = [];
  for (const file of functions) {
    const row = recorded.get(file.name);
    if (row && (row.checksum === file.checksum || Number(row.schema_version) > schemaVersion)) continue;
    for (const statement of splitStatements(file.sql)) await tx.query(statement);
    await tx.query(
      `INSERT INTO schema_functions (name, checksum, schema_version) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET checksum = $2, schema_version = $3, applied_at = now()`,
      [file.name, file.checksum, schemaVersion],
    );
    applied.push(file.name);
  }
  return applied;
}

/** Whether every migration on disk is applied (readiness). */
export async function pendingMigrations(db: SqlExecutor, migrations = loadMigrations()): Promise<string[]> {
  const rows = await db
    .query<{ version: number }>('SELECT version FROM schema_migrations')
    .catch(() => [] as { version: number }[]);
  const done = new Set(rows.map((r) => Number(r.version)));
  return migrations.filter((m) => !done.has(m.version)).map((m) => m.name);
}

/**
 * Splits a migration into statements so each runs through the parameterized-query path of both
 * drivers. Understands quotes, comments and dollar-quoted bodies.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      current += '\n';
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      continue;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j += 1;
      }
      current += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        current += sql.slice(i, stop);
        i = stop;
        continue;
      }
    }
    if (ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      i += 1;
      continue;
    }
    current += ch;
    i += 1;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
