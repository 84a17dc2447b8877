import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { freePort, runCli, stop, waitReady, type CliProcess } from '../support/process.js';
import { until } from '../support/scratch-database.js';
import { api, startService, TEST_SECRETS_KEY } from '../support/service.js';
import { STORES } from '../support/stores.js';
import { seededDataDir } from '../support/seeded-data-dir.js';

const TOKEN = 'static-token-for-the-backup-suite-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const P = 'proj_backup';

/** Runs a CLI command to its end: exit code and everything it printed. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const proc = runCli(args, env);
  const code = await proc.exited;
  return { code, out: proc.output() };
}

async function skillNames(url: string): Promise<string[]> {
  const res = await api(`${url}/api/skills?project_id=${P}&limit=500`, { headers: auth });
  expect(res.status).toBe(200);
  expect(res.body.next_cursor).toBeNull();
  return res.body.skills.map((s: { name: string }) => s.name);
}

/**
 * Backups of the embedded store: `context-hub backup` while `serve` runs and a
 * write loop is going (the snapshot is taken by the serving process), `restore` into a new
 * DATA_DIR, and the restored store serves everything written before the backup began.
 */
describe('context-hub backup and restore of the embedded store', () => {
  const dirs: string[] = [];
  const tempDir = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ch-${name}-`));
    dirs.push(dir);
    return dir;
  };
  let running: CliProcess[] = [];
  let env: Record<string, string>;
  let sourceDir: string;
  let backupFile: string;
  let writtenBefore: string[] = [];
  let writtenInAll: string[] = [];

  beforeAll(async () => {
    // What a first start on an empty embedded store leaves (seeded-data-dir.ts): the demo project.
    sourceDir = await seededDataDir({ parent: tempDir('backup-source') });
    backupFile = path.join(tempDir('backup-files'), 'running.tar.gz');
    env = {
      DATA_DIR: sourceDir,
      SECRETS_KEY: TEST_SECRETS_KEY,
      SERVICE_AUTH_MODE: 'static',
      SERVICE_STATIC_TOKEN: TOKEN,
      FX_RATES_URL: 'http://127.0.0.1:9/no-feed',
    };
  });
  afterAll(async () => {
    for (const proc of running) await stop(proc);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function serve(dataDir: string): Promise<string> {
    const port = await freePort();
    const proc = runCli(['serve'], { ...env, DATA_DIR: dataDir, PORT: String(port) });
    running.push(proc);
    const url = `http://127.0.0.1:${port}`;
    // Bounded generously: four processes start in the first test, on a shared machine.
    await waitReady(url, proc, 4000);
    return url;
  }

  it('backs up a serving store under a write loop; the restored copy holds every earlier write and serves', async () => {
    const url = await serve(sourceDir);
    const created = await api(`${url}/api/projects`, { method: 'POST', headers: auth, json: { id: P, name: 'B' } });
    expect(created.status).toBe(201);

    const acknowledged: string[] = [];
    let writing = true;
    const loop = (async () => {
      for (let i = 0; writing; i++) {
        const name = `skill-${i}`;
        const res = await api(`${url}/api/skills`, {
          method: 'POST',
          headers: auth,
          json: { project_id: P, name, description: `Skill ${i}`, body_md: `## Steps\n1. Step ${i}.` },
        });
        if (res.status !== 201) throw new Error(`write ${i} answered ${res.status}`);
        acknowledged.push(name);
      }
    })();
    await until(
      async () => acknowledged.length,
      (n) => n >= 5,
    );

    writtenBefore = [...acknowledged];
    const backup = await cli(['backup', backupFile], env);
    writing = false;
    await loop;
    writtenInAll = [...acknowledged];
    expect(backup.out).toMatch(/from the running service/);
    expect(backup.code).toBe(0);
    expect(fs.readFileSync(backupFile).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const restoredDir = tempDir('backup-restored');
    const restore = await cli(['restore', backupFile], { ...env, DATA_DIR: restoredDir });
    // proj_backup and the demo project a first start on an empty embedded store creates.
    expect(restore.out).toMatch(/\(2 projects\)/);
    expect(restore.code).toBe(0);

    // The restored store serves, next to the original one still running.
    const restoredUrl = await serve(restoredDir);
    const names = await skillNames(restoredUrl);
    for (const name of writtenBefore) expect(names).toContain(name);
    // Nothing half-written: each restored skill is one the loop wrote, and reads whole.
    for (const name of names) expect(writtenInAll).toContain(name);
    const one = await api(`${restoredUrl}/api/skills/${names.at(-1)}?project_id=${P}`, { headers: auth });
    expect(one.status).toBe(200);
    expect(one.body.steps).toHaveLength(1);
    // It takes writes of its own.
    const more = await api(`${restoredUrl}/api/skills`, {
      method: 'POST',
      headers: auth,
      json: { project_id: P, name: 'after-restore', description: 'New', body_md: '## Steps\n1. Go.' },
    });
    expect(more.status).toBe(201);
    // Four processes start in this test (serve, backup, restore, serve) on a shared machine.
  }, 600_000);

  it('goes through the serving process with its credentials: a wrong token is refused', async () => {
    const refused = await cli(['backup', '--token', 'not-the-token-0123456789-0123456789', `${backupFile}.x`], env);
    expect(refused.code).toBe(77);
    expect(refused.out).toMatch(/refused the backup \(401/);
    expect(fs.existsSync(`${backupFile}.x`)).toBe(false);
    expect(fs.existsSync(`${backupFile}.x.partial`)).toBe(false);
  });

  it('backs up a stopped store by opening it, with every write in it', async () => {
    for (const proc of running) await stop(proc);
    running = [];
    expect(writtenInAll.length).toBeGreaterThan(0);
    const stoppedFile = path.join(path.dirname(backupFile), 'stopped.tar.gz');
    const backup = await cli(['backup', stoppedFile], env);
    expect(backup.out).toMatch(/from the stopped store/);
    expect(backup.code).toBe(0);

    const restoredDir = tempDir('backup-stopped');
    expect((await cli(['restore', stoppedFile], { ...env, DATA_DIR: restoredDir })).code).toBe(0);
    const db = await PgliteDatabase.open({ dataDir: path.join(restoredDir, 'pglite') });
    try {
      const rows = await db.query<{ name: string }>('SELECT name FROM skills WHERE project_id = $1', [P]);
      expect(rows.map((r) => r.name).sort()).toEqual([...writtenInAll].sort());
    } finally {
      await db.close();
    }
  }, 300_000);

  it('restores only into an empty DATA_DIR, and only a backup file', async () => {
    const into = await cli(['restore', backupFile], env);
    expect(into.code).toBe(73);
    expect(into.out).toMatch(/already holds a store: restore only into an empty DATA_DIR/);

    const notBackup = path.join(tempDir('backup-junk'), 'junk.tar.gz');
    fs.writeFileSync(notBackup, 'not a tarball');
    const junk = await cli(['restore', notBackup], { ...env, DATA_DIR: path.dirname(notBackup) });
    expect(junk.code).toBe(66);
    expect(junk.out).toMatch(/is not a backup written by context-hub backup/);
  });

  it('with DATABASE_URL, says to use pg_dump and pg_restore and how', async () => {
    const pgEnv = { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' };
    const backup = await cli(['backup', backupFile], pgEnv);
    expect(backup.code).toBe(64);
    expect(backup.out).toMatch(/uses PostgreSQL \(DATABASE_URL\)\. Back up with pg_dump --format=custom/);
    const restore = await cli(['restore', backupFile], pgEnv);
    expect(restore.code).toBe(64);
    expect(restore.out).toMatch(/pg_restore --no-owner --dbname="\$DATABASE_URL"/);
    expect(backup.out.trim().split('\n')).toHaveLength(1);
  });
});

describe.each(STORES)('POST /api/admin/backup [%s]', (store) => {
  it('hands an admin the snapshot of the embedded store, and says to use pg_dump on PostgreSQL', async () => {
    const service = await startService(store);
    try {
      const res = await fetch(`${service.url}/api/admin/backup`, { method: 'POST' });
      if (store === 'pglite') {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/gzip');
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="context-hub-.*\.tar\.gz"$/);
        expect(Buffer.from(await res.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      } else {
        expect(res.status).toBe(409);
        const problem = (await res.json()) as { code: string; detail: string };
        expect(problem.code).toBe('backup_not_embedded');
      }
      const audit = await api(`${service.url}/api/org/audit?limit=5`);
      expect(audit.body.entries.some((e: { action: string }) => e.action === 'store.backup')).toBe(store === 'pglite');
    } finally {
      await service.close();
    }
  });
});
