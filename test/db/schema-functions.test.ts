// Database functions and triggers live in migrations/functions/, one re-runnable file each, applied
// after the numbered migrations when their text changed (src/platform/db/migrate.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/database.js';
import { FUNCTIONS_DIR, loadFunctions, loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import { PGLITE_TEMPLATE_MANIFEST, templateIsCurrent, templateManifest } from '../../src/platform/db/open.js';
import { openTestDatabase, STORES, type TestDatabase } from '../support/stores.js';

// The statistics fold has no trigger of its own here: it hangs off a per-session temporary
// table (pg_temp), created by the first indexed write of a session.
const TRIGGERS = [
  ...['business_keys', 'business_links', 'knowledge', 'skills'].map((t) => `${t}_context_version`),
  ...['business_keys', 'knowledge', 'skills'].flatMap((t) =>
    ['delete', 'insert', 'update'].map((e) => `${t}_search_${e}`),
  ),
].sort();

/** A copy of the function files with `edit` applied to one of them. */
function editedFunctions(name: string, edit: (sql: string) => string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-functions-'));
  for (const file of fs.readdirSync(FUNCTIONS_DIR))
    fs.copyFileSync(path.join(FUNCTIONS_DIR, file), path.join(dir, file));
  const file = path.join(dir, `${name}.sql`);
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
  const functions = loadFunctions(dir);
  fs.rmSync(dir, { recursive: true });
  return functions;
}

describe.each(STORES)('function files [%s]', (store) => {
  let test: TestDatabase;
  let db: Database;
  const source = async (name: string) =>
    (
      await db.query<{ src: string }>(
        'SELECT prosrc AS src FROM pg_proc WHERE proname = $1 AND pronamespace = current_schema()::regnamespace',
        [name],
      )
    )[0]?.src;
  const recorded = async () =>
    Object.fromEntries(
      (await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_functions')).map((r) => [
        r.name,
        r.checksum,
      ]),
    );

  beforeAll(async () => {
    test = await openTestDatabase(store);
    db = test.db;
    await migrate(db);
  });
  afterAll(async () => test?.drop());

  it('a fresh store has every function and trigger, recorded with the checksum of its file', async () => {
    const files = loadFunctions();
    expect(files.map((f) => f.name)).toEqual(['context_search', 'context_version_bump', 'search_index']);
    expect(await recorded()).toEqual(Object.fromEntries(files.map((f) => [f.name, f.checksum])));
    // search_index.sql defines several functions (none of its name); the others one each.
    for (const file of files.filter((f) => f.name !== 'search_index')) {
      const body = /AS (\$[a-z]*\$)([\s\S]*?)\1/.exec(file.sql);
      expect(await source(file.name)).toBe(body?.[2]);
    }
    const triggers = await db.query<{ name: string }>(
      `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
    );
    expect(triggers.map((t) => t.name).sort()).toEqual(TRIGGERS);
  });

  it('applies a changed file at the next start, and leaves an unchanged one alone', async () => {
    // Changed in the store by hand: only a re-applied file would put its own definition back.
    await db.query(`CREATE OR REPLACE FUNCTION context_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RETURN NULL; /* by hand */ END $$`);
    const changed = editedFunctions('context_search', (sql) =>
      sql.replace('#variable_conflict use_column\n', '#variable_conflict use_column\n-- changed\n'),
    );
    const report = await migrate(db, loadMigrations(), changed);
    expect(report.functions).toEqual(['context_search']);
    expect(await source('context_search')).toContain('-- changed\n');
    expect(await source('context_version_bump')).toContain('by hand');
    expect((await recorded()).context_search).toBe(changed[0]!.checksum);

    expect((await migrate(db, loadMigrations(), changed)).functions).toEqual([]);
    // Back to the files on disk; a store whose bookkeeping predates function files gets them all.
    expect((await migrate(db)).functions).toEqual(['context_search']);
    expect(await source('context_search')).not.toContain('-- changed\n');
    await db.query('DROP TABLE schema_functions');
    expect((await migrate(db)).functions).toEqual(['context_search', 'context_version_bump', 'search_index']);
    expect(await source('context_version_bump')).not.toContain('by hand');
  });

  it('leaves a file alone that code with newer migrations applied', async () => {
    await db.query(
      "UPDATE schema_functions SET checksum = 'newer', schema_version = 100000 WHERE name = 'context_search'",
    );
    expect((await migrate(db)).functions).toEqual([]);
    expect((await recorded()).context_search).toBe('newer');
    await db.query("UPDATE schema_functions SET schema_version = 1 WHERE name = 'context_search'");
    expect((await migrate(db)).functions).toEqual(['context_search']);
  });
});

describe('the embedded template', () => {
  it('is stale when a function file changed, not only a migration', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-manifest-'));
    const manifest = path.join(dir, 'manifest.json');
    try {
      fs.writeFileSync(manifest, JSON.stringify(templateManifest()));
      expect(templateIsCurrent(manifest)).toBe(true);
      const changed = templateManifest(
        loadMigrations(),
        editedFunctions('context_version_bump', (sql) => `${sql}\n-- changed\n`),
      );
      expect(templateIsCurrent(manifest, changed)).toBe(false);
      // A template from before function files existed.
      fs.writeFileSync(manifest, JSON.stringify({ migrations: templateManifest().migrations }));
      expect(templateIsCurrent(manifest)).toBe(false);
      // The one the build made, which every PGlite suite loads.
      expect(templateIsCurrent(PGLITE_TEMPLATE_MANIFEST)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
