import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliToEnd, folderTree } from '../support/process.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import { TEST_SECRETS_KEY } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { seededDataDir } from '../support/seeded-data-dir.js';

const cli = cliToEnd;

const tree = folderTree;

/**
 * With `taxonomy.yaml → ../outside/notes.txt` and `skills → ../outside` in
 * the target folder, `export` overwrote a file outside the folder and deleted another there, and
 * `import --dry-run` read sheets from outside it. Any symbolic link inside taxonomy.yaml, skills/
 * or knowledge/ is now refused before anything is read, written or deleted.
 *
 * The store blocks have a folder and a store of their own (a DATA_DIR, a PostgreSQL database), so
 * with TEST_DATABASE_URL they run at once, each one's CLI processes in order (one CLI at a time on a
 * stopped embedded store).
 */
describe.concurrent.each(STORES)('context-hub export and import stay inside their folder [%s]', (store) => {
  let root: string;
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-links-'));
    env = {
      // Embedded: the demo a first start seeds, copied (seeded-data-dir.ts); PostgreSQL seeds it below.
      DATA_DIR: store === 'pglite' ? await seededDataDir({ parent: root }) : path.join(root, 'data'),
      SECRETS_KEY: TEST_SECRETS_KEY,
      FX_RATES_URL: 'http://127.0.0.1:9/no-feed',
    };
    if (store === 'postgres') {
      const db = await createScratchDatabase('links');
      env.DATABASE_URL = db.url;
      dropDatabase = db.drop;
    }
    if (store === 'postgres') {
      const seeded = await cli(['seed-demo'], env);
      expect(seeded.code, seeded.out).toBe(0);
    }
  }, 600_000);
  afterAll(async () => {
    await dropDatabase?.();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** A folder next to an `outside` folder holding what must never be touched. */
  const scene = (name: string) => {
    const base = path.join(root, name);
    const outside = path.join(base, 'outside');
    const hub = path.join(base, 'hub');
    fs.mkdirSync(outside, { recursive: true });
    fs.mkdirSync(hub);
    fs.writeFileSync(path.join(outside, 'notes.txt'), 'private notes\n');
    fs.mkdirSync(path.join(outside, 'gone'));
    fs.writeFileSync(path.join(outside, 'gone', 'SKILL.md'), '---\nname: gone\ndescription: x\n---\n');
    fs.writeFileSync(path.join(outside, 'sheet.md'), '---\ntitle: Outside\n---\nRead from outside.\n');
    return { base, outside, hub };
  };

  it.sequential('export refuses links to outside the folder and changes nothing there or inside', async () => {
    const { base, outside, hub } = scene('export');
    fs.symlinkSync('../outside/notes.txt', path.join(hub, 'taxonomy.yaml'));
    fs.symlinkSync('../outside', path.join(hub, 'skills'));
    const before = tree(base);
    const exported = await cli(['export', 'proj_demo', hub], env);
    expect(exported.code, exported.out).toBe(65);
    expect(exported.out).toMatch(/taxonomy\.yaml is a symbolic link → \.\.\/outside\/notes\.txt/);
    expect(tree(base)).toEqual(before);
    expect(fs.readFileSync(path.join(outside, 'notes.txt'), 'utf8')).toBe('private notes\n');
    expect(fs.existsSync(path.join(outside, 'gone', 'SKILL.md'))).toBe(true);
  });

  it.sequential('import refuses to read through a link, even one that stays inside the folder', async () => {
    const { hub } = scene('import');
    fs.symlinkSync('../outside', path.join(hub, 'knowledge'));
    const outward = await cli(['import', '--dry-run', 'proj_demo', hub], env);
    expect(outward.code, outward.out).toBe(65);
    expect(outward.out).toMatch(/knowledge is a symbolic link → \.\.\/outside/);
    expect(outward.out).not.toContain('sheet');

    fs.unlinkSync(path.join(hub, 'knowledge'));
    fs.mkdirSync(path.join(hub, 'knowledge'));
    fs.writeFileSync(path.join(hub, 'knowledge', 'real.md'), '---\ntitle: Real\n---\nInside.\n');
    fs.symlinkSync('real.md', path.join(hub, 'knowledge', 'alias.md'));
    const inward = await cli(['import', '--dry-run', 'proj_demo', hub], env);
    expect(inward.code, inward.out).toBe(65);
    expect(inward.out).toMatch(/knowledge\/alias\.md is a symbolic link → real\.md/);
  });

  it.sequential('links outside the layout are neither followed nor touched; the export lands inside', async () => {
    const { outside, hub } = scene('around');
    fs.symlinkSync('../outside/notes.txt', path.join(hub, 'README.md'));
    const exported = await cli(['export', 'proj_demo', hub], env);
    expect(exported.code, exported.out).toBe(0);
    const files = tree(hub);
    expect(files['README.md']).toBe('-> ../outside/notes.txt');
    expect(Object.keys(files).some((p) => /^skills\/[a-z0-9-]+\/SKILL\.md$/.test(p))).toBe(true);
    expect(fs.readFileSync(path.join(outside, 'notes.txt'), 'utf8')).toBe('private notes\n');
    const again = await cli(['import', '--dry-run', 'proj_demo', hub], env);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('0 change(s)');
  });
});
