import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { serviceNodeFlags } from './start-command.js';

/**
 * `context-hub serve` as users start it (npm start's flags), on a fresh embedded store: on an empty
 * store it seeds the demo project proj_demo. Resolves once /readyz answers 200.
 */
export async function startServiceProcess(root: string, name: string) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ch-bench-${name}-`));
  const child = spawn(process.execPath, [...serviceNodeFlags(root), path.join(root, 'dist/cli.js'), 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 1200 && !ready; i += 1) {
    try {
      ready = (await fetch(`${url}/readyz`)).status === 200;
    } catch {
      // not listening yet
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) throw new Error('the service did not become ready within 2 minutes');
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
