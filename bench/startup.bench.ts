// npm run bench:startup [-- --write]
// Time from spawning `node dist/cli.js serve` (with the node flags of `npm start`) to the first
// 200 from /readyz: on an empty DATA_DIR (first start: template load, migrations check, demo
// seeding) and on an existing one (restart), side by side with the floor: a bare PGlite open of
// the same data directory in a fresh process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceNodeFlags } from './support/start-command.js';
import { freePort } from './support/free-port.js';
// The floor opens the store with the service's own buffer cache setting.
import { EMBEDDED_SHARED_BUFFERS } from '../src/platform/db/pglite.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.RUNS ?? 5);

async function timeToReady(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...serviceNodeFlags(root), path.join(root, 'dist/cli.js'), 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function bareOpen(dataDir: string): Promise<number> {
  const script = `const t=performance.now();const {PGlite}=await import('@electric-sql/pglite');const db=await PGlite.create({dataDir:${JSON.stringify(dataDir)},startParams:[...PGlite.defaultStartParams,'-c','shared_buffers=${EMBEDDED_SHARED_BUFFERS}']});await db.query('select 1');console.log(performance.now()-t);await db.close();`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((r) => child.once('exit', r));
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const first: number[] = [];
  const restart: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-startup-'));
    first.push(await timeToReady(dir));
    restart.push(await timeToReady(dir));
    bare.push(await bareOpen(path.join(dir, 'pglite')));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const fmt = (xs: number[]) =>
    `${(median(xs) / 1000).toFixed(2)} s (min ${(Math.min(...xs) / 1000).toFixed(2)}, max ${(Math.max(...xs) / 1000).toFixed(2)})`;
  const section = `## startup

Command: \`npm run build && npm run bench:startup -- --write\` (${RUNS} runs each, median; spawn → first 200 from \`/readyz\`; node ${process.version}, ${os.cpus().length} cores).

| case | time to ready |
|---|---|
| first start, empty DATA_DIR (template load + demo seed) | ${fmt(first)} |
| restart on the existing embedded store | ${fmt(restart)} |
| floor: a new process that only opens the same PGlite data dir | ${fmt(bare)} |

Goal: restart ≤ 1.5 s.
`;
  process.stdout.write(section);
  if (process.argv.includes('--write')) writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), 'startup', section);
}

await main();
