// npm run bench:search-import [-- --sheets=5000] [--rounds=3] [--store=postgres|pglite|both]
//
// What the search index costs an import: 5,000 sheets through POST /api/projects/{id}/import into
// services of this build side by side, per store, rounds alternating between them, each into a new
// project:
// - "before": the store as it was before the search index: its triggers disabled, and the
//   full-text and trigram indexes of the tiered search that it replaced (dropped by migration
//   0062) in place, so every import still maintains them as it then did;
// - "bare": the triggers disabled and nothing put back (what an import costs with no search at all);
// - "with": as shipped.
// Goal: "with" within 1.25× of "before". PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a
// database per service); PGlite: a data directory per service.
import '../src/platform/zod-runtime.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stringify } from 'yaml';
import type { Database } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import { openDatabase } from '../src/platform/db/open.js';
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
const STORE_ARG = String(args.store ?? 'both');
const STORES = STORE_ARG === 'both' ? ['postgres', 'pglite'] : [STORE_ARG];
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const children: ChildProcess[] = [];
/** PostgreSQL stores need one (the embedded one writes its own); a bench database is thrown away. */
const SECRETS_KEY = randomBytes(32).toString('base64');

async function serve(store: Record<string, string>): Promise<string> {
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
      ...store,
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

/** The indexes of the tiered search, as migrations 0002, 0007 and 0050 made them. */
const BEFORE_INDEXES = [
  'CREATE INDEX knowledge_doc_tsv ON knowledge USING gin (doc_tsv) WITH (fastupdate = off)',
  "CREATE INDEX knowledge_title_tsv ON knowledge USING gin (to_tsvector('english'::regconfig, title)) WITH (fastupdate = off)",
  'CREATE INDEX skills_doc_tsv ON skills USING gin (doc_tsv) WITH (fastupdate = off)',
  "CREATE INDEX skills_title_tsv ON skills USING gin (to_tsvector('english'::regconfig, title_text)) WITH (fastupdate = off)",
  'CREATE INDEX skills_title_trgm ON skills USING gin (title_text gin_trgm_ops) WITH (fastupdate = off)',
  'CREATE INDEX business_keys_doc_tsv ON business_keys USING gin (doc_tsv) WITH (fastupdate = off)',
  "CREATE INDEX business_keys_title_tsv ON business_keys USING gin (to_tsvector('english'::regconfig, title_text)) WITH (fastupdate = off)",
  'CREATE INDEX business_keys_title_trgm ON business_keys USING gin (title_text gin_trgm_ops) WITH (fastupdate = off)',
];

type Variant = 'before' | 'bare' | 'with';
const VARIANTS: Variant[] = ['before', 'bare', 'with'];

/** Migrates a new store and turns it into the variant's schema, before any service opens it. */
async function prepare(db: Database, variant: Variant): Promise<void> {
  await migrate(db);
  if (variant === 'with') return;
  for (const t of ['knowledge', 'skills', 'business_keys'])
    for (const suffix of ['insert', 'update', 'delete'])
      await db.query(`ALTER TABLE ${t} DISABLE TRIGGER ${t}_search_${suffix}`);
  if (variant === 'before') for (const sql of BEFORE_INDEXES) await db.query(sql);
}

/** A new store per variant: its environment for `serve`, and how to throw it away. */
async function newStore(
  kind: string,
  variant: Variant,
  admin: pg.Client | undefined,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === 'postgres') {
    const name = `bench_import_${randomBytes(4).toString('hex')}`;
    await admin!.query(`CREATE DATABASE ${name}`);
    const u = new URL(PG_URL!);
    u.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: u.toString(), dataDir: os.tmpdir() });
    await prepare(db, variant);
    await db.close();
    return {
      env: { DATABASE_URL: u.toString() },
      drop: async () => {
        await admin!.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  const db = await openDatabase({ databaseUrl: undefined, dataDir });
  await prepare(db, variant);
  await db.close();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main() {
  if (STORES.includes('postgres') && !PG_URL)
    throw new Error('--store=postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const set = marketingSet(SHEETS);
  const archive = await writeTarGz(
    set.sheets.slice(0, SHEETS).map((s) => ({
      path: `knowledge/${s.topic}.md`,
      data: Buffer.from(`---\n${stringify({ title: s.title })}---\n${s.body}\n`),
    })),
  );
  const admin = PG_URL ? new pg.Client({ connectionString: PG_URL }) : undefined;
  await admin?.connect();
  const stores: { drop(): Promise<void> }[] = [];
  try {
    for (const kind of STORES) {
      const bases = new Map<Variant, string>();
      for (const variant of VARIANTS) {
        const store = await newStore(kind, variant, admin);
        stores.push(store);
        bases.set(variant, await serve(store.env));
      }
      const seconds = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
      const ratios: number[] = [];
      const bareRatios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const t = new Map<Variant, number>();
        for (const variant of VARIANTS) {
          const s = await importInto(bases.get(variant)!, `proj_${variant}${round}`, archive);
          t.set(variant, s);
          seconds.get(variant)!.push(s);
        }
        ratios.push(t.get('with')! / t.get('before')!);
        bareRatios.push(t.get('with')! / t.get('bare')!);
        process.stdout.write(
          `${kind} round ${round + 1}: ${SHEETS} sheets before the index ${t.get('before')!.toFixed(2)} s, bare ${t.get('bare')!.toFixed(2)} s, with it ${t.get('with')!.toFixed(2)} s (${ratios.at(-1)!.toFixed(2)}× before, ${bareRatios.at(-1)!.toFixed(2)}× bare)\n`,
        );
      }
      process.stdout.write(
        `${kind}: median before ${median(seconds.get('before')!).toFixed(2)} s, bare ${median(seconds.get('bare')!).toFixed(2)} s, with ${median(seconds.get('with')!).toFixed(2)} s; median ratio ${median(ratios).toFixed(2)}× before (goal ≤ 1.25×), ${median(bareRatios).toFixed(2)}× bare\n`,
      );
      for (const c of children.splice(0)) c.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    for (const store of stores) await store.drop();
    await admin?.end();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    for (const c of children) c.kill('SIGKILL');
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
