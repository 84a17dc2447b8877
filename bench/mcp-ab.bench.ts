// npm run bench:mcp-ab -- --b=<checkout>[,<node flag>...] [--a=<checkout>[,<node flag>...]] [--op=tools/call]
//                         [--rounds=6] [--seconds=5] [--connections=50] [--client=socket]
//
// Two builds of the service (or one build with two sets of node flags) up at once, each on a fresh
// embedded store, and the same 2026-07-28 request (captured from the official client) replayed
// against them in alternating rounds: A then B, then B then A, ... This machine's speed drifts by
// up to 2x within minutes, so a before/after of single runs minutes apart says little; rounds
// seconds apart, compared within the round, do. Prints calls/s and server CPU per call for every
// round, the medians, each round's B/A ratio, and the peak RSS of each process.
// A checkout is a directory with a built dist/ (default A: this one); its node flags default to
// those of `npm start`. Example: --a=.,--max-semi-space-size=16 --b=. compares node's default
// young generation with ours on this build; --b=/tmp/other-worktree compares two commits.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult, LoadSpec, LoadTemplate } from './support/load.js';
import { byMethod, captureModern, template } from './support/mcp-requests.js';
import { serviceNodeFlags } from './support/start-command.js';
import { freePort } from './support/free-port.js';

const root = path.resolve(import.meta.dirname, '..');
// Split at the first '=' only: a value may itself hold node flags with '='.
const args: Record<string, string> = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [key, ...value] = a.replace(/^--/, '').split('=');
    return [key, value.length ? value.join('=') : 'true'];
  }),
);
const ROUNDS = Number(args.rounds ?? 6);
const SECONDS = Number(args.seconds ?? 5);
const CONNECTIONS = Number(args.connections ?? 50);
const OP = String(args.op ?? 'tools/call');
const children: ChildProcess[] = [];

interface Side {
  name: 'A' | 'B';
  checkout: string;
  flags: string[];
}

function side(name: 'A' | 'B', spec: string | undefined): Side {
  const [dir, ...flags] = (spec ?? '.').split(',');
  const checkout = path.resolve(root, dir!);
  if (!fs.existsSync(path.join(checkout, 'dist/cli.js')))
    throw new Error(`${name}: ${checkout} has no dist/cli.js (build it first)`);
  return { name, checkout, flags: flags.length ? flags : serviceNodeFlags(checkout) };
}

async function start(s: Side): Promise<{ base: string; pid: number }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-ab-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SERVICE_AUTH_MODE: 'disabled',
    LOG_LEVEL: 'warn',
    SERVE_WORKERS: 'false',
  };
  const child = spawn(process.execPath, [...s.flags, 'dist/cli.js', 'serve'], {
    cwd: s.checkout,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`${s.name} exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, pid: child.pid! };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${s.name} did not become ready`);
}

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRss(pid: number): string {
  const kb = /VmHWM:\s*(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? `${Math.round(Number(kb) / 1024)} MB` : '?';
}

function load(base: string, request: LoadTemplate): Promise<LoadResult> {
  const spec: LoadSpec = {
    origin: base,
    path: '/mcp',
    templates: [request],
    connections: CONNECTIONS,
    durationMs: SECONDS * 1000,
    warmupMs: 1000,
    client: args.client === 'socket' ? 'socket' : 'undici',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/load.ts', JSON.stringify(spec)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited with ${code}`)),
    );
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  if (!args.b) throw new Error('--b=<checkout>[,<node flag>...] is required');
  const sides = [side('A', args.a), side('B', args.b)];
  const running = await Promise.all(sides.map(start));
  // The request as the official client sends it; its first tools/list also fills the listing cache.
  const requests = await Promise.all(running.map((r) => captureModern(r.base, 'list_projects', {})));
  const results: Record<'A' | 'B', { rps: number; cpu: number }[]> = { A: [], B: [] };
  for (const s of sides) process.stdout.write(`${s.name}: ${s.checkout} ${s.flags.join(' ')}\n`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const i of order) {
      const s = sides[i]!;
      const { base, pid } = running[i]!;
      const before = cpuSeconds(pid);
      const r = await load(base, template(byMethod(requests[i]!, OP)));
      // CPU over warm-up and measurement alike, spread over the calls of both.
      const cpu = ((cpuSeconds(pid) - before) * 1e6) / (r.ok * (1 + 1 / SECONDS));
      results[s.name].push({ rps: r.rps, cpu });
      process.stdout.write(
        `round ${round + 1} ${s.name} ${r.rps.toFixed(0).padStart(6)} calls/s ${cpu.toFixed(0).padStart(4)} µs/call errors ${r.errors}${r.firstError ? ` (${r.firstError})` : ''}\n`,
      );
    }
  }
  for (const [i, s] of sides.entries()) {
    const rows = results[s.name];
    process.stdout.write(
      `${s.name} median ${median(rows.map((r) => r.rps)).toFixed(0)} calls/s, ${median(rows.map((r) => r.cpu)).toFixed(0)} µs/call, peak RSS ${peakRss(running[i]!.pid)}\n`,
    );
  }
  process.stdout.write(
    `B/A calls/s by round: ${results.B.map((b, i) => (b.rps / results.A[i]!.rps).toFixed(2)).join(' ')}\n`,
  );
}

main().then(
  () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(0);
  },
  (error: unknown) => {
    for (const child of children) child.kill('SIGTERM');
    process.stderr.write(`bench:mcp-ab: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
