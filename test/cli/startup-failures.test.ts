import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { freePort, runCli, stop, waitReady, type CliProcess } from '../support/process.js';
import { TEST_SECRETS_KEY } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';
import { seededDataDir } from '../support/seeded-data-dir.js';

/**
 * What an operator sees when a start cannot go on: one line that says why, a sysexits code, no stack.
 * The cases are independent processes on directories of their own, so they run at once: most of
 * this file's time was each one waiting for its CLI processes (a first start seeds the demo).
 */
describe.concurrent('a start that cannot go on says why in one line', () => {
  /** What one test starts, stopped and removed when it ends. */
  const scratch = (onTestFinished: (fn: () => Promise<void>) => void) => {
    const dirs: string[] = [];
    const running: CliProcess[] = [];
    onTestFinished(async () => {
      for (const proc of running) await stop(proc);
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });
    return {
      running,
      tempDir: () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-startup-'));
        dirs.push(dir);
        return dir;
      },
    };
  };
  const oneLine = (proc: CliProcess) => {
    const lines = proc
      .output()
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('{'));
    expect(lines).toHaveLength(1);
    expect(proc.output()).not.toMatch(/\n\s+at /);
    return lines[0]!;
  };

  it('a port already taken: exit 75, and the store it opened is given back', async ({ onTestFinished }) => {
    const { tempDir } = scratch(onTestFinished);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    // A store a first start left (seeded-data-dir.ts): opening it is the point, not seeding it.
    const dataDir = await seededDataDir({ parent: tempDir(), keyFile: true });
    try {
      const proc = runCli(['serve'], { PORT: String(port), DATA_DIR: dataDir });
      expect(await proc.exited).toBe(75);
      expect(oneLine(proc)).toBe(
        `context-hub: 127.0.0.1:${port} is already in use (another context-hub?): stop that process or set PORT`,
      );
      expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('a DATA_DIR another process serves: serve and migrate refuse with exit 75 until it stops', async ({
    onTestFinished,
  }) => {
    const { tempDir, running } = scratch(onTestFinished);
    const dataDir = await seededDataDir({ parent: tempDir(), keyFile: true });
    const port = await freePort();
    const first = runCli(['serve'], { PORT: String(port), DATA_DIR: dataDir });
    running.push(first);
    // Bounded generously, as in the other CLI suites, beside the other cases.
    await waitReady(`http://127.0.0.1:${port}`, first, 4000);

    const second = runCli(['serve'], { PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exited).toBe(75);
    expect(oneLine(second)).toContain(
      `DATA_DIR ${dataDir} is in use by another context-hub process (pid ${first.child.pid})`,
    );
    const migrate = runCli(['migrate'], { DATA_DIR: dataDir });
    expect(await migrate.exited).toBe(75);
    // The first process was not disturbed.
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    await stop(first);
    const after = runCli(['migrate'], { DATA_DIR: dataDir });
    expect(await after.exited).toBe(0);
    expect(after.output()).toContain('up to date');
  });

  it('a lock left by a process that is gone is taken over', async ({ onTestFinished }) => {
    const { tempDir } = scratch(onTestFinished);
    const dataDir = tempDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(dataDir, 'pglite.lock'), `${gone}\n`);
    const proc = runCli(['migrate'], { DATA_DIR: dataDir });
    expect(await proc.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('a DATA_DIR that cannot be created: exit 73', async ({ onTestFinished }) => {
    const { tempDir } = scratch(onTestFinished);
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    const proc = runCli(['serve'], { PORT: '0', DATA_DIR: path.join(file, 'data') });
    expect(await proc.exited).toBe(73);
    expect(oneLine(proc)).toContain('DATA_DIR cannot be used at');
  });

  it('a PostgreSQL that does not answer: exit 69, the password not shown', async () => {
    const proc = runCli(['migrate'], {
      DATABASE_URL: `postgres://someone:hunter2-secret@127.0.0.1:${await freePort()}/db`,
      SECRETS_KEY: TEST_SECRETS_KEY,
    });
    expect(await proc.exited).toBe(69);
    const line = oneLine(proc);
    expect(line).toContain('connection refused');
    expect(line).toContain('someone:***@');
    expect(proc.output()).not.toContain('hunter2');
  });

  it.skipIf(!TEST_DATABASE_URL)('a PostgreSQL database that does not exist: exit 69, named', async () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = '/ch_no_such_database';
    const proc = runCli(['migrate'], { DATABASE_URL: url.toString(), SECRETS_KEY: TEST_SECRETS_KEY });
    expect(await proc.exited).toBe(69);
    expect(oneLine(proc)).toContain('the database does not exist');
  });

  it('a refused migration: exit 1, the reason in one line, the stack only with LOG_LEVEL=debug', async ({
    onTestFinished,
  }) => {
    const { tempDir } = scratch(onTestFinished);
    const dataDir = tempDir();
    expect(await runCli(['migrate'], { DATA_DIR: dataDir }).exited).toBe(0);
    const db = await PgliteDatabase.open({ dataDir: path.join(dataDir, 'pglite') });
    await db.query(
      "UPDATE schema_migrations SET checksum = 'changed' WHERE version = (SELECT min(version) FROM schema_migrations)",
    );
    await db.close();
    const proc = runCli(['serve'], { PORT: '0', DATA_DIR: dataDir });
    expect(await proc.exited).toBe(1);
    const lines = proc.output().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^context-hub: serve failed: migration .* was changed after it was applied; add a new migration instead \(migration_checksum_mismatch\)$/,
      ),
      'context-hub: run with LOG_LEVEL=debug to see where it failed',
    ]);
    expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    const debug = runCli(['serve'], { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    expect(await debug.exited).toBe(1);
    expect(debug.output()).toMatch(/\n\s+at /);
  });
});
