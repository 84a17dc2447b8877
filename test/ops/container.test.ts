import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { seededDataDir } from '../support/seeded-data-dir.js';
import { freePort, ROOT } from '../support/process.js';

interface Stage {
  from: string;
  env: Record<string, string>;
  user?: string;
  workdir?: string;
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[];
  volumes: string[];
  runs: string[];
}

/** The final stage of a Dockerfile, as far as running its image needs (exec-form JSON only). */
function finalStage(text: string): Stage {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const start = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const stage: Stage = { from: '', env: {}, entrypoint: [], cmd: [], healthcheck: [], volumes: [], runs: [] };
  for (const line of lines.slice(start)) {
    const [, instruction, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    switch (instruction!.toUpperCase()) {
      case 'FROM':
        stage.from = rest!.split(/\s+/)[0]!;
        break;
      case 'ENV':
        for (const [, k, v] of rest!.matchAll(/(\w+)=("[^"]*"|\S*)/g)) stage.env[k!] = v!.replace(/^"|"$/g, '');
        break;
      case 'USER':
        stage.user = rest;
        break;
      case 'WORKDIR':
        stage.workdir = rest;
        break;
      case 'ENTRYPOINT':
        stage.entrypoint = JSON.parse(rest!);
        break;
      case 'CMD':
        stage.cmd = JSON.parse(rest!);
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(rest!.slice(rest!.indexOf('CMD') + 3).trim());
        break;
      case 'VOLUME':
        stage.volumes.push(...(JSON.parse(rest!) as string[]));
        break;
      case 'RUN':
        stage.runs.push(rest!);
        break;
    }
  }
  return stage;
}

/** A command of the image run here: `node` is this Node, WORKDIR (/app) is the checkout (built). */
function hostArgv(argv: string[]): [string, string[]] {
  return [argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1)];
}

function get(port: number, pathname: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const stage = finalStage(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const ALLOWED = 'hub.example.test';

describe('the production image (Dockerfile), its entry command run outside a container', () => {
  let dataDir: string;
  let port: number;
  let child: ReturnType<typeof spawn>;
  let output = '';
  const imageEnv = (extra: Record<string, string>) => ({
    ...stage.env,
    // The volume, the published port and what the operator must give at run time.
    DATA_DIR: dataDir,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...extra,
  });

  beforeAll(async () => {
    // The volume as a first start left it (seeded-data-dir.ts, with its generated secrets.key).
    dataDir = await seededDataDir({ keyFile: true });
    port = await freePort();
    const [command, args] = hostArgv([...stage.entrypoint, ...stage.cmd]);
    child = spawn(command, args, {
      cwd: ROOT,
      env: imageEnv({ PORT: String(port), ALLOWED_HOST: ALLOWED, FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is a slim Node 20 runtime stage with production dependencies only, run as a non-root user', () => {
    expect(stage.from).toMatch(/^node:20-bookworm-slim$/);
    expect(stage.runs.some((r) => r.includes('npm ci --omit=dev --ignore-scripts'))).toBe(true);
    expect(stage.user).toBeDefined();
    expect(['root', '0']).not.toContain(stage.user);
    expect(stage.workdir).toBe('/app');
    expect(stage.env).toMatchObject({ HOST: '0.0.0.0', DATA_DIR: '/data', HOST_HEADER_VALIDATION: 'strict' });
    expect(stage.volumes).toEqual(['/data']);
    expect(stage.entrypoint.slice(-1)).toEqual(['dist/cli.js']);
    expect(stage.cmd).toEqual(['serve']);
  });

  it('starts, answers /readyz, and its HEALTHCHECK command exits 0 against it', async () => {
    let ready = 0;
    for (let i = 0; i < 4000 && ready !== 200; i++) {
      if (child.exitCode !== null) throw new Error(`the entry command exited:\n${output}`);
      ready = await get(port, '/readyz', 'anything.example').catch(() => 0);
      if (ready !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(ready).toBe(200);
    const [command, args] = hostArgv(stage.healthcheck);
    const check = spawnSync(command, args, { env: imageEnv({ PORT: String(port) }), timeout: 60_000 });
    expect(check.status).toBe(0);
  });

  it('refuses a Host it was not given, and serves the one it was', async () => {
    expect([403, 421]).toContain(await get(port, '/api/projects', 'evil.example'));
    expect(await get(port, '/api/projects', ALLOWED)).toBe(200);
  });

  it('has a healthcheck that fails when nothing answers', async () => {
    const [command, args] = hostArgv(stage.healthcheck);
    const nobody = await freePort();
    const check = spawnSync(command, args, { env: imageEnv({ PORT: String(nobody) }), timeout: 60_000 });
    expect(check.status).toBe(1);
  });

  it('does not start without ALLOWED_HOST: strict Host validation needs it', () => {
    const [command, args] = hostArgv([...stage.entrypoint, ...stage.cmd]);
    const run = spawnSync(command, args, { cwd: ROOT, env: imageEnv({ PORT: '0' }), timeout: 60_000 });
    expect(run.status).toBe(78);
    expect(String(run.stderr)).toMatch(/ALLOWED_HOST=unset is not allowed/);
  });
});

describe('compose.yaml', () => {
  const compose = parse(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; command?: string[]; environment?: Record<string, string> }>;
  };
  const app = (name: string) => compose.services[name]!;

  it('runs PostgreSQL, two API replicas without workers, one worker and one scheduler', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'scheduler', 'serve-1', 'serve-2', 'worker']);
    expect(app('postgres').image).toMatch(/^postgres:/);
    for (const name of ['serve-1', 'serve-2']) {
      expect(app(name).command).toEqual(['serve']);
      expect(app(name).environment).toMatchObject({ SERVE_WORKERS: 'false', SCHEDULER_ENABLED: 'false' });
    }
    expect(app('worker').command).toEqual(['worker']);
    expect(app('worker').environment?.SCHEDULER_ENABLED).toBe('false');
    expect(app('scheduler').command).toEqual(['worker']);
    expect(app('scheduler').environment?.SCHEDULER_ENABLED).toBe('true');
  });

  it('gives every Context Hub process the shared database, the secrets key and strict Host validation', () => {
    for (const name of ['serve-1', 'serve-2', 'worker', 'scheduler']) {
      const env = app(name).environment!;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.SECRETS_KEY).toMatch(/\$\{SECRETS_KEY:\?/);
      expect(env.HOST_HEADER_VALIDATION).toBe('strict');
      expect(env.ALLOWED_HOST).toBeTruthy();
    }
  });
});
