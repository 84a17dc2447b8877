import { describe, expect, it } from 'vitest';
import { runCli } from '../support/process.js';

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

  it('refuses `worker` without DATABASE_URL, naming it', async () => {
    const proc = runCli(['worker'], {});
    expect(await proc.exited).toBe(78);
    expect(proc.output()).toContain('DATABASE_URL');
  });
});
