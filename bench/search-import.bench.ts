// npm run bench:search-import [-- --sheets=5000] [--rounds=3]
//
// What the search index costs an import: 5,000 sheets through POST /api/projects/{id}/import into
// two services of this build side by side, one on a PostgreSQL database whose search-index
// triggers are disabled (what an import wrote before the index existed), one as shipped; rounds
// alternate between them, each into a new project. Goal: the indexed import within 1.25× of
// the other. PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL.
import '../src/platform/zod-runtime.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stringify } from 'yaml';
import { writeTarGz } from '../src/platform/tar.js';
import { freePort } from './support/free-port.js';
import { marketingSet } from './search-quality-data.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const SHEETS = Number(args.sheets ?? 5000);
const ROUNDS = Number(args.rounds ?? 3);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const children: ChildProcess[] = [];
/** PostgreSQL stores need one (the embedded one writes its own); a bench database is thrown away. */
const SECRETS_KEY = randomBytes(32).toString('base64');

async function serve(url: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVICE_AUTH_MODE: 'disabled',
      SECRETS_KEY,
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  for (let i = 0; i < 1800; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return `http://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become ready');
}

async function importInto(base: string, project: string, archive: Buffer): Promise<number> {
  const made = await fetch(`${base}/api/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: project, name: project }),
  });
  if (made.status !== 201) throw new Error(`project ${made.status}`);
  const t0 = performance.now();
  const r = await fetch(`${base}/api/projects/${project}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip' },
    body: new Uint8Array(archive),
  });
  if (r.status !== 200) throw new Error(`import ${r.status} ${(await r.text()).slice(0, 200)}`);
  return (performance.now() - t0) / 1000;
}

async function main() {
  if (!PG_URL) throw new Error('needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const set = marketingSet(SHEETS);
  const archive = await writeTarGz(
    set.sheets.slice(0, SHEETS).map((s) => ({
      path: `knowledge/${s.topic}.md`,
      data: Buffer.from(`---\n${stringify({ title: s.title })}---\n${s.body}\n`),
    })),
  );
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const names = [0, 1].map(() => `bench_import_${randomBytes(4).toString('hex')}`);
  for (const n of names) await admin.query(`CREATE DATABASE ${n}`);
  const urlOf = (n: string) => {
    const u = new URL(PG_URL);
    u.pathname = `/${n}`;
    return u.toString();
  };
  try {
    const [without, withIndex] = [await serve(urlOf(names[0]!)), await serve(urlOf(names[1]!))];
    const off = new pg.Client({ connectionString: urlOf(names[0]!) });
    await off.connect();
    for (const t of ['knowledge', 'skills', 'business_keys'])
      for (const suffix of ['insert', 'update', 'delete', 'stats'])
        await off.query(`ALTER TABLE ${t} DISABLE TRIGGER ${t}_search_${suffix}`);
    await off.end();
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await importInto(without, `proj_off${round}`, archive);
      const b = await importInto(withIndex, `proj_on${round}`, archive);
      ratios.push(b / a);
      process.stdout.write(
        `round ${round + 1}: ${SHEETS} sheets without the index ${a.toFixed(2)} s, with it ${b.toFixed(2)} s (${(b / a).toFixed(2)}×)\n`,
      );
    }
    ratios.sort((x, y) => x - y);
    process.stdout.write(`median ratio ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}× (goal ≤ 1.25×)\n`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    for (const n of names) await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
    await admin.end();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    for (const c of children) c.kill('SIGKILL');
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
