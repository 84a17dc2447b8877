import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import zlib from 'node:zlib';
import type { TestProject } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Names the stores this run covers, and makes sure dist/ and the PGlite template match the source:
 * the CLI suites start `node dist/cli.js` (test/support/process.ts), the widget and console suites
 * load dist/web, and every PGlite suite loads the template. A stale part is rebuilt before the run,
 * and again before each rerun in watch mode.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stores = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
  process.stdout.write(
    `\n[context-hub tests] stores under test: ${stores.join(', ')}${process.env.TEST_DATABASE_URL ? '' : ' (set TEST_DATABASE_URL to add PostgreSQL)'}\n`,
  );
  const scratch = useMemoryTmpdir();
  // What the workers of this run build once and share (seeded-data-dir.ts); gone with the run.
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-run-'));
  project.provide('runDir', shared);
  await bringBuildUpToDate();
  const postgres = process.env.TEST_DATABASE_URL
    ? await PostgresTemplate.create(process.env.TEST_DATABASE_URL)
    : undefined;
  if (postgres) project.provide('postgresTemplate', postgres.name);
  project.onTestsRerun(async () => {
    // The source may have changed: nothing built by the last run is reused.
    for (const name of fs.readdirSync(shared)) fs.rmSync(path.join(shared, name), { recursive: true, force: true });
    await bringBuildUpToDate();
    await postgres?.refresh();
  });
  return async () => {
    await postgres?.drop();
    fs.rmSync(shared, { recursive: true, force: true });
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  };
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a run may put in memory: a few CLI data directories (~65 MB each) at a time, with room to spare. */
const MEMORY_TMPDIR_MIN_FREE = 2 * 1024 ** 3;

/**
 * The run's temporary files in memory (tmpfs, /dev/shm) when the machine has room there and TMPDIR
 * was not chosen: each CLI suite's first start writes a PGlite store of ~1,200 files into a new
 * DATA_DIR under os.tmpdir(), which cost ~1.3 s of system time per store on this machine's ext4
 * disk and ~0.35 s on tmpfs. The workers and every process they start inherit TMPDIR (vitest starts
 * the workers after this setup); what a suite leaves behind goes with the directory at the end.
 * Returns the directory to remove, or undefined when TMPDIR is left as it was.
 */
function useMemoryTmpdir(): string | undefined {
  const shm = '/dev/shm';
  if (process.env.TMPDIR || process.platform !== 'linux' || !fs.existsSync(shm)) return undefined;
  try {
    const free = fs.statfsSync(shm);
    if (free.bavail * free.bsize < MEMORY_TMPDIR_MIN_FREE) return undefined;
    // Named after this process: a run that was killed leaves its directory, removed by the next run.
    for (const name of fs.readdirSync(shm)) {
      const pid = /^context-hub-tests-(\d+)$/.exec(name)?.[1];
      if (pid && !processExists(Number(pid))) fs.rmSync(path.join(shm, name), { recursive: true, force: true });
    }
    const dir = path.join(shm, `context-hub-tests-${process.pid}`);
    fs.mkdirSync(dir, { recursive: true });
    process.env.TMPDIR = dir;
    process.stdout.write(`[context-hub tests] temporary files under ${dir} (tmpfs)\n`);
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The migrated database PostgreSQL test stores are copied from (stores.ts, createPostgresDatabase):
 * one per run, named after the process so that runs in other checkouts on the same server keep to
 * their own, made again in watch mode when a migration or function file changed.
 */
class PostgresTemplate {
  private manifest = '';

  private constructor(
    private readonly url: string,
    readonly name: string,
  ) {}

  static async create(url: string): Promise<PostgresTemplate> {
    const template = new PostgresTemplate(url, `ch_template_${process.pid}`);
    await template.dropAbandoned();
    await template.refresh();
    return template;
  }

  /**
   * Templates of runs on this machine whose process is gone: a run that was killed (Ctrl-C twice,
   * kill -9, a timeout) never reaches its teardown and left its template on the server.
   */
  private async dropAbandoned(): Promise<void> {
    await this.admin(async (client) => {
      // The run's template and the demo stores its workers built from it (demo-store.ts).
      const { rows } = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname ~ '^ch_(template_[0-9]+|demo_[0-9]+_[0-9a-f]+)$'",
      );
      for (const { datname } of rows) {
        if (processExists(Number(/^ch_(?:template|demo)_(\d+)/.exec(datname)![1]))) continue;
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      }
    });
  }

  private async admin<T>(fn: (client: import('pg').Client) => Promise<T>): Promise<T> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  async refresh(): Promise<void> {
    const { templateManifest } = await import('../../src/platform/db/open.js');
    const manifest = JSON.stringify(templateManifest());
    if (manifest === this.manifest) return;
    await this.drop();
    await this.admin((client) => client.query(`CREATE DATABASE ${this.name}`));
    const target = new URL(this.url);
    target.pathname = `/${this.name}`;
    execFileSync(
      process.execPath,
      ['--import', './dist/platform/zod-runtime.js', 'test/support/postgres-template.mjs', target.toString()],
      { cwd: root, stdio: 'inherit' },
    );
    this.manifest = manifest;
  }

  async drop(): Promise<void> {
    await this.admin(async (client) => {
      const demos = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname ~ '^${this.name.replace('ch_template_', 'ch_demo_')}_[0-9a-f]+$'`,
      );
      for (const { datname } of demos.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`);
    });
    this.manifest = '';
  }
}

/** scripts/build-inputs.mjs: what each part of dist/ was built from. */
interface BuildInputs {
  recordedInputs(): Partial<Record<'server' | 'web', string>>;
  currentInputs(): Record<'server' | 'web', string>;
  recordPart(part: 'server' | 'web', hash: string): void;
}

async function bringBuildUpToDate(): Promise<void> {
  const inputs = (await import(path.join(root, 'scripts/build-inputs.mjs'))) as BuildInputs;
  const recorded = inputs.recordedInputs();
  const current = inputs.currentInputs();
  // A part is rebuilt when its sources changed since it was built, or when it is not there at all
  // (a clone without `npm ci`'s build, a removed dist/: no record, so both parts).
  const server = recorded.server !== current.server || !fs.existsSync(path.join(root, 'dist', 'cli.js'));
  const web = recorded.web !== current.web || !fs.existsSync(path.join(root, 'dist', 'web', 'test-host', 'index.html'));
  // The views build in a child process while this one compiles the server: two cores, two builds.
  const views = web ? buildViews() : undefined;
  // Awaited below; a failure is reported there, not as an unhandled rejection meanwhile.
  views?.catch(() => undefined);
  if (server) {
    process.stdout.write('[context-hub tests] src/ changed since dist/ was built: compiling\n');
    const { transpileServer } = (await import(path.join(root, 'scripts/transpile-server.mjs'))) as {
      transpileServer(): number;
    };
    transpileServer();
    inputs.recordPart('server', current.server);
  }
  if (views) {
    await views;
    inputs.recordPart('web', current.web);
  }
  // Rebuild when a migration changed since the template was made (every PGlite suite loads it).
  const { templateIsCurrent } = await import('../../src/platform/db/open.js');
  if (!templateIsCurrent() || !fs.existsSync(path.join(root, '.template', 'pglite-data.tar.gz'))) {
    execFileSync(process.execPath, ['scripts/prepare-template.mjs'], { cwd: root, stdio: 'inherit' });
  }
  const { PGLITE_TEST_TEMPLATE } = await import('./stores.js');
  unpackTemplate(path.join(root, '.template', 'pglite-data.tar.gz'), PGLITE_TEST_TEMPLATE);
}

/** scripts/build-web.mjs in a child process: dist/web (views, console, test host). */
function buildViews(): Promise<void> {
  process.stdout.write('[context-hub tests] web/ changed since dist/web was built: building the views\n');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/build-web.mjs'], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`scripts/build-web.mjs exited with ${code}`)),
    );
  });
}

/** The gzipped template as a plain tar, for the test stores (stores.ts, PGLITE_TEST_TEMPLATE). */
function unpackTemplate(gzipped: string, plain: string): void {
  if (fs.existsSync(plain) && fs.statSync(plain).mtimeMs >= fs.statSync(gzipped).mtimeMs) return;
  // Written under another name and renamed: a run that stops half-way leaves no truncated template.
  fs.mkdirSync(path.dirname(plain), { recursive: true });
  const partial = `${plain}.${process.pid}`;
  fs.writeFileSync(partial, zlib.gunzipSync(fs.readFileSync(gzipped)));
  fs.renameSync(partial, plain);
}
