import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * The built CLI, as `context-hub` runs: the test setup rebuilds dist/ whenever src/ changed
 * (global-setup.ts), so this is the code under test, without compiling the source at every start.
 */
export const CLI = path.join(ROOT, 'dist', 'cli.js');

/**
 * Runs `context-hub <args>` (the built bin, `node dist/cli.js`). With --liftoff-only, as the CLI
 * sets for itself on one-shot commands (src/cli/main.ts): a `serve` under test lives for seconds,
 * and V8's optimizing tier for PGlite's WASM costs more CPU in that time than it saves (test/cli:
 * 209 → 164 s of CPU). It changes how V8 compiles, not what the code does.
 */
export function runCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--liftoff-only', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // 'close', not 'exit': the process can exit before its pipes are read to the end, and a test that
  // read the output then saw none (startup-failures, once on a loaded machine).
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Runs the CLI to its end: its exit code and everything it printed (stdout and stderr). */
export async function cliToEnd(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const proc = runCli(args, env);
  const code = await proc.exited;
  return { code, out: proc.output() };
}

/** Polls /readyz until it answers 200 (bounded by attempts, not by a clock assertion). */
export async function waitReady(baseUrl: string, proc: CliProcess, attempts = 600): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (proc.child.exitCode !== null) throw new Error(`process exited early:\n${proc.output()}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not ready after ${attempts} polls:\n${proc.output()}`);
}

export async function stop(proc: CliProcess): Promise<void> {
  if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
  await proc.exited;
}

/** Every entry under `dir` by relative path: a file's text, a symbolic link as "-> target". */
export function folderTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, child);
      if (entry.isSymbolicLink()) out[child] = `-> ${fs.readlinkSync(full)}`;
      else if (entry.isDirectory()) walk(child);
      else out[child] = fs.readFileSync(full, 'utf8');
    }
  };
  walk('');
  return out;
}
