import { spawn } from 'node:child_process';
import path from 'node:path';
import type { LoadResult, LoadSpec } from './load.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Runs the load generator in a process of its own, so it shares no event loop with the server. */
export function runLoadProcess(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/load.ts', JSON.stringify(spec)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited with ${code}`)),
    );
  });
}
