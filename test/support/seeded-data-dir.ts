import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { demoBackfillDone } from './demo-store.js';
import { TEST_SECRETS_KEY } from './service.js';
import { freePort, runCli, stop, waitReady } from './process.js';

/**
 * A DATA_DIR holding what a first `serve` on an empty embedded store leaves behind once its demo
 * backfill has settled: the store with proj_demo, its 120 days and their anomalies, checks and
 * insight. Suites whose subject is not the first start (backup, export/import, a port taken, a
 * restart) start from a copy of it instead of seeding the demo again: each first start cost a CLI
 * process 4–6 s of CPU for the template and the demo, about ten times a run. The first start itself
 * stays covered on empty directories (test/cli/cli.test.ts, test/demo/, the store-lock cases).
 *
 * Built once per run (in the run's shared directory, global-setup.ts), by whichever worker asks first; a worker
 * that loses the race to publish it keeps the winner's copy. Connection secrets in it (the demo's
 * credential) are encrypted with TEST_SECRETS_KEY.
 */
const BUILT = path.join(inject('runDir'), 'seeded-data-dir');

let building: Promise<string> | undefined;

async function build(): Promise<string> {
  if (fs.existsSync(path.join(BUILT, 'pglite'))) return BUILT;
  const dir = fs.mkdtempSync(path.join(path.dirname(BUILT), 'seeding-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = runCli(['serve'], {
    DATA_DIR: dir,
    PORT: String(port),
    SECRETS_KEY: TEST_SECRETS_KEY,
    FX_RATES_URL: 'http://127.0.0.1:9/no-feed',
  });
  try {
    await waitReady(url, proc, 4000);
    // serve seeds the demo before it listens: a store without it is a broken first start, not a slow one.
    const projects = (await (await fetch(`${url}/api/projects`)).json()) as { projects: { id: string }[] };
    if (!projects.projects.some((p) => p.id === 'proj_demo'))
      throw new Error(`the first start created no demo project:\n${proc.output()}`);
    // Settled: the backfill run succeeded and the insight it triggers is written.
    for (let i = 0; !(await demoBackfillDone(url)); i += 1) {
      if (i === 6000) throw new Error(`the demo backfill did not settle:\n${proc.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await stop(proc);
  }
  if (fs.existsSync(path.join(dir, 'pglite.lock')))
    throw new Error(`the seeding serve left its lock:\n${proc.output()}`);
  try {
    fs.renameSync(dir, BUILT);
  } catch {
    // The other worker published first: its copy is the same state.
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return BUILT;
}

/**
 * A new DATA_DIR (under `parent`, or a new temporary folder) with a copy of the seeded store. With
 * `keyFile`, it also holds secrets.key (TEST_SECRETS_KEY), as a first start without SECRETS_KEY
 * leaves one; without, the process must be given SECRETS_KEY=TEST_SECRETS_KEY.
 */
export async function seededDataDir(options: { parent?: string; keyFile?: boolean } = {}): Promise<string> {
  // A rerun in watch mode removes what the run before built (global-setup.ts): build it again.
  if (building && !fs.existsSync(path.join(BUILT, 'pglite'))) building = undefined;
  building ??= build().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  const source = await building;
  const target = options.parent
    ? fs.mkdtempSync(path.join(options.parent, 'data-'))
    : fs.mkdtempSync(path.join(os.tmpdir(), 'ch-seeded-'));
  fs.cpSync(source, target, { recursive: true });
  if (options.keyFile) fs.writeFileSync(path.join(target, 'secrets.key'), `${TEST_SECRETS_KEY}\n`, { mode: 0o600 });
  return target;
}
