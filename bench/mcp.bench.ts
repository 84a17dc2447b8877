// npm run bench:mcp [-- --write] [--duration=10] [--connections=50] [--rounds=3] [--only=ours] [--client=socket]
//   [--database-url=postgres://…/empty_db] (our service on that PostgreSQL database instead of PGlite)
//
// tools/list and tools/call of a cheap read-only tool (list_projects), 50 concurrent keep-alive
// connections for 10 s each, calls/s and p50/p99, for our service on the 2026-07-28 era
// (stateless) and the 2025 era (50 sessions), side by side with (a) a minimal server on the same
// SDK wired as its README shows, in both of the README's wirings (plain node:http:
// bench/support/sdk-minimal-server.ts; Express: bench/support/sdk-express-server.ts), and (b) a raw
// node:http JSON-RPC echo (bench/support/raw-echo-server.ts), once with an empty result and once
// answering our own tools/list result (the floor for answers that large). Every server and the load generator
// (bench/support/load.ts; undici, or with --client=socket a bare keep-alive socket client) run in
// processes of their own; the load generator's CPU per call is reported next to the server's, so a
// row the client limits shows as one (with undici, the 54 KB tools/list answers do). The requests replayed are the
// ones the official clients send: they are captured from a real client session first.
// Every server runs for the whole benchmark and each round measures every row once, back to back,
// so a ratio compares rows measured within a minute of each other (this machine's speed drifts by
// up to 2x within minutes); the table shows per-row medians over the rounds and each round's ratio.
// --write replaces the "## mcp" section of BENCHMARKS.md with the figures ("## mcp, socket client"
// with --client=socket).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { runLoadProcess } from './support/load-process.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadTemplate } from './support/load.js';
import { byMethod, captureModern, legacySessions, template, type Captured } from './support/mcp-requests.js';
import { serviceNodeFlags } from './support/start-command.js';
import { freePort } from './support/free-port.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const DURATION_S = Number(args.duration ?? 10);
const ROUNDS = Number(args.rounds ?? 3);
const CONNECTIONS = Number(args.connections ?? 50);
const WARMUP_MS = 2000;
const CLIENT: 'undici' | 'socket' = args.client === 'socket' ? 'socket' : 'undici';
const SECTION = CLIENT === 'socket' ? 'mcp, socket client' : 'mcp';
const HEADING = `## ${SECTION}`;
const children: ChildProcess[] = [];
const MINIMAL = '(a) SDK README, node:http wiring, server per request';
const EXPRESS = '(a) SDK README, Express wiring, server per request';
const ECHO = '(b) raw node:http JSON-RPC echo';
/** Not a goal's yardstick: the floor for a tools/list answer as large as ours (the baseline lists one tool). */
const ECHO_LISTING = '(b) raw echo answering our tools/list result';

function startChild(
  script: string[],
  env: Record<string, string> = {},
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out) ?? /"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(out);
      if (m) resolve({ port: Number(m[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`${script.join(' ')} exited with ${code} before listening`)));
  });
}

/**
 * Our service on a fresh embedded store (or the empty PostgreSQL database --database-url names),
 * logging at warn (request logs would cost throughput). Its first start seeds the demo project and
 * queues a 120-day demo backfill; with SERVE_WORKERS=false that job stays queued instead of sharing
 * the CPU with the requests being measured.
 */
async function startService(dataDir: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: args['database-url'] ? String(args['database-url']) : '',
    // PostgreSQL requires a secrets key; a fixed one is fine for a throwaway benchmark database.
    ...(args['database-url'] ? { SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') } : {}),
    SERVICE_AUTH_MODE: 'disabled',
    LOG_LEVEL: 'warn',
    SERVE_WORKERS: 'false',
  };
  // The service seeds the demo by itself only on an empty embedded store; on PostgreSQL, first.
  if (args['database-url']) {
    const seeded = spawnSync(process.execPath, [...serviceNodeFlags(root), 'dist/cli.js', 'seed-demo'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (seeded.status !== 0) throw new Error(`seed-demo exited with ${seeded.status}`);
  }
  // --profile=DIR writes a V8 CPU profile of the service (for finding where a request's time goes).
  const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(String(args.profile))}`] : [];
  // What `npm start` runs (its node flags, and dist/, compiled by the npm script before this file
  // runs), not tsx: tsx's per-closure name helpers alone cost a few percent of a cheap call.
  const child = spawn(process.execPath, [...serviceNodeFlags(root), ...profile, 'dist/cli.js', 'serve'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  // Bounded wait: a first start on a fresh data dir runs initdb and seeds the demo project.
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { port, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become ready within 5 minutes');
}

/** The `result` of our 2026-07-28 tools/list answer, byte for byte as the service sent it. */
async function ourListingResult(base: string, request: LoadTemplate): Promise<string> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: request.headers,
    body: request.body.replace('"__ID__"', '1'),
  });
  const text = await response.text();
  // Cut out rather than re-serialized: JSON.stringify would unescape the \u escapes the service
  // sends, and a non-ASCII body costs the client more to decode.
  const open = '{"result":';
  const close = ',"jsonrpc":"2.0","id":1}';
  if (!response.ok || !text.startsWith(open) || !text.endsWith(close))
    throw new Error(`unexpected tools/list answer: HTTP ${response.status}`);
  return text.slice(open.length, -close.length);
}

interface Row {
  server: string;
  era: string;
  op: string;
  result: LoadResult;
  /** Server CPU microseconds per successful call (approximate: warm-up calls are estimated). */
  cpuUsPerCall: number;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After the ")": state is field 3, so utime (14) and stime (15) are at indexes 11 and 12.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function measure(
  rows: Row[],
  server: string,
  era: string,
  op: string,
  port: number,
  templates: LoadTemplate[],
  pid?: number,
): Promise<void> {
  // --rows=2026-list,2025-call limits our service's rows (baselines always run unless --only=ours).
  if (
    args.rows &&
    server === 'context-hub' &&
    !String(args.rows)
      .split(',')
      .includes(`${era.slice(0, 4)}-${op.startsWith('tools/') ? op.slice(6) : op}`)
  )
    return;
  // Server CPU per call (over warm-up and measurement alike) is robust to other load on the
  // machine, which calls/s is not: both are reported.
  const cpuBefore = cpuSeconds(pid);
  const result = await runLoadProcess({
    origin: `http://127.0.0.1:${port}`,
    path: '/mcp',
    templates,
    connections: CONNECTIONS,
    durationMs: DURATION_S * 1000,
    warmupMs: WARMUP_MS,
    client: CLIENT,
  });
  const cpuUsPerCall = ((cpuSeconds(pid) - cpuBefore) * 1e6) / (result.ok * (1 + WARMUP_MS / (DURATION_S * 1000)));
  rows.push({ server, era, op, result, cpuUsPerCall });
  process.stdout.write(
    `${server.padEnd(34)} ${era.padEnd(11)} ${op.padEnd(10)} ${result.rps.toFixed(0).padStart(7)} calls/s  p50 ${result.p50ms.toFixed(2)} ms  p99 ${result.p99ms.toFixed(2)} ms  cpu ${cpuUsPerCall.toFixed(0)} µs/call  client cpu ${result.clientCpuUsPerCall.toFixed(0)} µs/call  errors ${result.errors}${result.firstError ? ` (${result.firstError})` : ''}\n`,
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The baseline operation a row compares with: the listing-sized echo is a tools/list floor. */
const baselineOp = (op: string) => (op === 'echo-listing' ? 'tools/list' : op);

/** One table row per measured row: medians over the rounds, ratios taken within each round. */
function markdown(rounds: Row[][], command: string): string {
  const lines = [
    HEADING,
    '',
    `Command: \`${command}\` (${CONNECTIONS} concurrent keep-alive connections, ${DURATION_S} s per row after a ${WARMUP_MS / 1000} s warm-up, ${rounds.length} rounds; every server and the ${CLIENT === 'socket' ? 'socket-client' : 'undici'} load generator in processes of their own; ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}).`,
    "Client CPU is the load generator's own CPU per call: on 2 cores, a row whose client CPU is near or above its server CPU is limited by the load generator as much as by the server.",
    'Requests are the ones the official clients send (captured from a real client first); the 2025 era spreads the load over 50 sessions. A call counts when it is a 2xx with a JSON-RPC result.',
    "Each round measures every row once, back to back; calls/s, latency and CPU are the median over the rounds, and each ratio is the median of the ratios taken within a round (each round's in brackets).",
    '',
    '| server | era | operation | calls/s | p50 ms | p99 ms | server CPU µs/call | client CPU µs/call | errors | × (a) node:http | × (a) Express | × (b) | × (b) with our listing |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const find = (round: Row[], server: string, op: string) =>
    round.find((r) => r.server === server && r.op === op)?.result.rps;
  const ratio = (_row: Row, index: number, server: string, op: string) => {
    const values = rounds.map((round) => {
      const mine = round[index]!.result.rps;
      const base = find(round, server, op);
      return base ? mine / base : NaN;
    });
    if (values.some((v) => !Number.isFinite(v))) return '';
    return `${median(values).toFixed(2)}${values.length > 1 ? ` (${values.map((v) => v.toFixed(2)).join(', ')})` : ''}`;
  };
  rounds[0]!.forEach((row, index) => {
    const all = rounds.map((round) => round[index]!);
    const m = (pick: (r: Row) => number) => median(all.map(pick));
    const cpu = m((r) => r.cpuUsPerCall);
    lines.push(
      `| ${row.server} | ${row.era} | ${row.op} | ${m((r) => r.result.rps).toFixed(0)} | ${m((r) => r.result.p50ms).toFixed(2)} | ${m((r) => r.result.p99ms).toFixed(2)} | ${Number.isFinite(cpu) ? cpu.toFixed(0) : ''} | ${m((r) => r.result.clientCpuUsPerCall).toFixed(0)} | ${all.reduce((n, r) => n + r.result.errors, 0)} | ${ratio(row, index, MINIMAL, baselineOp(row.op))} | ${ratio(row, index, EXPRESS, baselineOp(row.op))} | ${ratio(row, index, ECHO, 'echo')} | ${row.op === 'tools/list' ? ratio(row, index, ECHO_LISTING, 'echo-listing') : ''} |`,
    );
  });
  return `${lines.join('\n')}\n`;
}

interface Plan {
  server: string;
  era: string;
  op: string;
  port: number;
  templates: LoadTemplate[];
  pid?: number;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-bench-'));
  const rounds: Row[][] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    const ours = await startService(dataDir);
    const oursBase = `http://127.0.0.1:${ours.port}`;
    const modern = await captureModern(oursBase, 'list_projects', {});
    const legacy = await legacySessions(oursBase, CONNECTIONS, 'list_projects');
    closers.push(() => legacy.close());
    const perSession = (c: Captured) =>
      legacy.sessionIds.map((id) => template(c, { headers: { 'mcp-session-id': id } }));
    const pid = ours.child.pid;
    const plans: Plan[] = [
      {
        server: 'context-hub',
        era: '2026-07-28',
        op: 'tools/list',
        port: ours.port,
        templates: [template(byMethod(modern, 'tools/list'))],
        pid,
      },
      {
        server: 'context-hub',
        era: '2026-07-28',
        op: 'tools/call',
        port: ours.port,
        templates: [template(byMethod(modern, 'tools/call'))],
        pid,
      },
      {
        server: 'context-hub',
        era: '2025-11-25',
        op: 'tools/list',
        port: ours.port,
        templates: perSession(byMethod(legacy.captured, 'tools/list')),
        pid,
      },
      {
        server: 'context-hub',
        era: '2025-11-25',
        op: 'tools/call',
        port: ours.port,
        templates: perSession(byMethod(legacy.captured, 'tools/call')),
        pid,
      },
      // The Skills extension's listing of the demo's Skills, beside tools/list in the same run.
      {
        server: 'context-hub',
        era: '2026-07-28',
        op: 'skills/list',
        port: ours.port,
        templates: [template(byMethod(modern, 'skills/list'))],
        pid,
      },
      {
        server: 'context-hub',
        era: '2025-11-25',
        op: 'skills/list',
        port: ours.port,
        templates: perSession(byMethod(legacy.captured, 'tools/list')).map((t) => ({
          ...t,
          body: t.body.replace('"method":"tools/list"', '"method":"skills/list"'),
        })),
        pid,
      },
    ];

    if (args.only !== 'ours') {
      // The README server is stateless: 2025-era requests without a session.
      const noSession = { headers: { 'mcp-session-id': undefined } };
      const baselines: [string, string][] = [
        [MINIMAL, 'bench/support/sdk-minimal-server.ts'],
        // The same README's other wiring (its first example): Express via createMcpExpressApp.
        [EXPRESS, 'bench/support/sdk-express-server.ts'],
      ];
      for (const [name, script] of baselines) {
        const server = await startChild([script]);
        const session = await legacySessions(`http://127.0.0.1:${server.port}`, 1, 'echo');
        closers.push(() => session.close());
        plans.push({
          server: name,
          era: '2025-11-25',
          op: 'tools/list',
          port: server.port,
          templates: [template(byMethod(session.captured, 'tools/list'), noSession)],
          pid: server.child.pid,
        });
        plans.push({
          server: name,
          era: '2025-11-25',
          op: 'tools/call',
          port: server.port,
          templates: [template(byMethod(session.captured, 'tools/call'), noSession)],
          pid: server.child.pid,
        });
      }
      const echo = await startChild(['bench/support/raw-echo-server.ts']);
      plans.push({
        server: ECHO,
        era: '—',
        op: 'echo',
        port: echo.port,
        templates: [template(byMethod(legacy.captured, 'tools/list'))],
        pid: echo.child.pid,
      });
      // The same echo answering our 2026-07-28 tools/list result byte for byte: what node:http
      // alone reaches with answers of that size (the baselines list one small tool).
      const listingFile = path.join(dataDir, 'tools-list-result.json');
      fs.writeFileSync(listingFile, await ourListingResult(oursBase, template(byMethod(modern, 'tools/list'))));
      const echoListing = await startChild(['bench/support/raw-echo-server.ts', '0', listingFile]);
      plans.push({
        server: ECHO_LISTING,
        era: '—',
        op: 'echo-listing',
        port: echoListing.port,
        templates: [template(byMethod(legacy.captured, 'tools/list'))],
        pid: echoListing.child.pid,
      });
    }

    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round} of ${ROUNDS}\n`);
      const rows: Row[] = [];
      for (const plan of plans)
        await measure(rows, plan.server, plan.era, plan.op, plan.port, plan.templates, plan.pid);
      rounds.push(rows);
    }
  } finally {
    for (const close of closers) await close().catch(() => undefined);
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const section = markdown(
    rounds,
    `npm run bench:mcp${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  );
  process.stdout.write(`\n${section}`);
  if (args.write === 'true') writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), SECTION, section);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    process.stderr.write(`bench:mcp: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
