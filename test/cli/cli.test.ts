import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { runCli } from '../support/process.js';
import { seededDataDir } from '../support/seeded-data-dir.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('context-hub CLI', () => {
  it('prints help naming every command', async () => {
    const proc = runCli(['--help'], {});
    expect(await proc.exited).toBe(0);
    for (const command of ['serve', 'worker', 'migrate', 'seed-demo']) expect(proc.output()).toContain(command);
  });

  it.each([
    [{ SERVICE_AUTH_MODE: 'static' }, 'SERVICE_STATIC_TOKEN'],
    [{ SERVICE_AUTH_MODE: 'static', SERVICE_STATIC_TOKEN: 'short' }, 'SERVICE_STATIC_TOKEN'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ SERVICE_AUTH_MODE: 'magic' }, 'SERVICE_AUTH_MODE'],
    [{ HOST_HEADER_VALIDATION: 'strict' }, 'ALLOWED_HOST'],
    [{ SCHEDULER_TIMEZONE: 'Mars/Base' }, 'SCHEDULER_TIMEZONE'],
    [{ SECRETS_KEY: 'too-short' }, 'SECRETS_KEY'],
  ])('refuses to start on a bad value with one clear line (%o)', async (env, variable) => {
    const vars = env as Record<string, string>;
    const proc = runCli(['serve'], { ...vars, PORT: vars.PORT ?? '0' });
    expect(await proc.exited).toBe(78);
    const lines = proc.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(proc.output()).not.toContain('short"');
  });

  it('a first `serve` on an empty embedded store creates proj_demo and fills it with its backfill', async () => {
    // seededDataDir() is what such a start left once it settled; the CLI suites that are not about
    // the first start begin from copies of it (test/support/seeded-data-dir.ts).
    const dataDir = await seededDataDir();
    const db = await PgliteDatabase.open({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const projects = await db.query<{ id: string }>('SELECT id FROM projects');
      expect(projects.map((p) => p.id)).toEqual(['proj_demo']);
      const runs = await db.query<{ status: string }>('SELECT status FROM datastream_runs');
      expect(runs.map((r) => r.status)).toEqual(['succeeded']);
      const [kpis] = await db.query<{ days: number }>('SELECT count(DISTINCT date)::int AS days FROM kpis_daily');
      expect(kpis!.days).toBeGreaterThanOrEqual(120);
      expect(await db.query('SELECT 1 FROM insights_daily')).not.toHaveLength(0);
    } finally {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses `worker` without DATABASE_URL, naming it', async () => {
    const proc = runCli(['worker'], {});
    expect(await proc.exited).toBe(78);
    expect(proc.output()).toContain('DATABASE_URL');
  });

  it('runs the bin with the node flags of `npm start`, and node accepts them', () => {
    const shebang = fs.readFileSync(path.join(root, 'src/cli.ts'), 'utf8').split('\n', 1)[0]!;
    expect(shebang.startsWith('#!/usr/bin/env -S node')).toBe(true);
    const binFlags = shebang.slice('#!/usr/bin/env -S node'.length).trim().split(/\s+/).filter(Boolean);
    const start = (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start.split(/\s+/);
    expect(start[0]).toBe('node');
    const startFlags = start.slice(1, start.indexOf('dist/cli.js'));
    // `npm start` also preloads the zod runtime; the bin cannot, and imports it first instead (src/cli.ts).
    const at = startFlags.indexOf('--import');
    expect(startFlags.slice(at, at + 2)).toEqual(['--import', './dist/platform/zod-runtime.js']);
    expect(binFlags).toEqual(startFlags.filter((_, i) => i !== at && i !== at + 1));
    expect(binFlags.length).toBeGreaterThan(0);
    // A misspelt V8 flag makes node refuse to start ("bad option"), and the preload has configured
    // zod before the program's first line runs.
    const probe = `import('zod/v4/core').then(async (core) => {
      const before = core.globalConfig.memoizer;
      const runtime = await import('./dist/platform/zod-runtime.js');
      process.stdout.write(String(before === runtime.NO_CYCLE_SUPPORT));
    })`;
    expect(execFileSync(process.execPath, [...startFlags, '-e', probe], { cwd: root, encoding: 'utf8' })).toBe('true');
  });
});
