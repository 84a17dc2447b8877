import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/process.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** The real CLI as a child process on an embedded store of its own. */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('context-hub members (CLI)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-cli-members-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('adds the first owner and lists members; a bad role is a usage error', async () => {
    const added = await cli(dataDir, 'members', 'add', '--role', 'owner', '--email', 'ada@example.com', 'auth0|ada');
    expect(added).toMatchObject({ code: 0, stdout: 'auth0|ada is an owner (added)\n' });
    expect((await cli(dataDir, 'members', 'add', '--role', 'editor', 'bo')).stdout).toBe('bo added as editor\n');
    const listed = await cli(dataDir, 'members', 'list');
    expect(listed.stdout.trim().split('\n')).toEqual(['auth0|ada\towner\tada@example.com\t-', 'bo\teditor\t-\t-']);
    const bad = await cli(dataDir, 'members', 'add', '--role', 'god', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role must be one of viewer, editor, admin, owner');
  });
});
