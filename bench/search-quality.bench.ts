// npm run bench:search-quality [-- --write] [--stores=pglite,postgres] [--sets=own,beir]
//
// Retrieval quality of search_context as a user meets it: the documents go in through the real
// import (POST /api/projects/{id}/import, a tar.gz of knowledge/<topic>.md with the title in the
// front matter), the questions through the real MCP tool (the official client, limit 100), with
// SEARCH_CACHE_ENTRIES=0; nDCG@10, Recall@10, Recall@100 and MRR@10 against the judgements, beside
// a textbook BM25 (k1 1.2, b 0.75, Lucene idf, the same stems: PostgreSQL's `english` to_tsvector,
// title and text as one field) over the very documents the hub holds, computed in the same run.
//
// Sets: own — bench/search-quality-data.ts (the demo project plus 2,100 generated sheets, 108
// questions); beir — a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/test.tsv) named by
// SEARCH_QUALITY_BEIR (never committed: public sets stay where their licence puts them). SciFact is
// held out for acceptance and refused. PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL.
import '../src/platform/zod-runtime.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stringify } from 'yaml';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PgliteDatabase } from '../src/platform/db/pglite.js';
import { writeTarGz } from '../src/platform/tar.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';
import { freePort } from './support/free-port.js';
import { type LabelledSet, marketingSet } from './search-quality-data.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const STORES = (args.stores ?? 'pglite,postgres').split(',');
const SETS = (args.sets ?? 'own,beir').split(',');
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const out = (line: string) => process.stdout.write(`${line}\n`);
const children: ChildProcess[] = [];
/** PostgreSQL stores need one (the embedded one writes its own); a bench database is thrown away. */
const SECRETS_KEY = randomBytes(32).toString('base64');

interface Metrics {
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
  /** nDCG@10 per question id (for the win/loss count against the reference). */
  perQuestion: Map<string, number>;
}

function evaluate(ranked: Map<string, string[]>, qrels: Map<string, Map<string, number>>): Metrics {
  let ndcg = 0;
  let r10 = 0;
  let r100 = 0;
  let mrr = 0;
  let n = 0;
  const perQuestion = new Map<string, number>();
  for (const [qid, rel] of qrels) {
    const relevant = [...rel].filter(([, g]) => g > 0);
    if (relevant.length === 0) continue;
    n += 1;
    const list = ranked.get(qid) ?? [];
    let dcg = 0;
    list.slice(0, 10).forEach((d, i) => {
      dcg += (2 ** (rel.get(d) ?? 0) - 1) / Math.log2(i + 2);
    });
    const ideal = relevant
      .map(([, g]) => g)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
    const q = ideal > 0 ? dcg / ideal : 0;
    perQuestion.set(qid, q);
    ndcg += q;
    const hits = (k: number) => list.slice(0, k).filter((d) => (rel.get(d) ?? 0) > 0).length;
    r10 += hits(10) / relevant.length;
    r100 += hits(100) / relevant.length;
    const first = list.slice(0, 10).findIndex((d) => (rel.get(d) ?? 0) > 0);
    mrr += first === -1 ? 0 : 1 / (first + 1);
  }
  return { ndcg10: ndcg / n, recall10: r10 / n, recall100: r100 / n, mrr10: mrr / n, perQuestion };
}

/** Questions where the service's nDCG@10 is above, below and equal to the reference's. */
function winsAndLosses(service: Metrics, reference: Metrics): { better: number; worse: number; equal: number } {
  let better = 0;
  let worse = 0;
  let equal = 0;
  for (const [qid, s] of service.perQuestion) {
    const r = reference.perQuestion.get(qid) ?? 0;
    if (Math.abs(s - r) < 1e-9) equal += 1;
    else if (s > r) better += 1;
    else worse += 1;
  }
  return { better, worse, equal };
}

/** A BEIR folder as a labelled set: documents become sheets doc-<n> (title, text). */
function beirSet(dir: string): LabelledSet {
  if (/scifact/i.test(dir)) throw new Error('BEIR SciFact is held out for acceptance: never run on it');
  const lines = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean);
  const topicOf = new Map<string, string>();
  const sheets = lines('corpus.jsonl').map((l, i) => {
    const d = JSON.parse(l) as { _id: string; title?: string; text: string };
    const topic = `doc-${i}`;
    topicOf.set(d._id, topic);
    return { topic, title: (d.title ?? '').trim() || d._id, body: d.text };
  });
  const qrels = new Map<string, Map<string, number>>();
  for (const l of lines('qrels/test.tsv').slice(1)) {
    const [q, d, g] = l.split('\t');
    const topic = topicOf.get(d!);
    if (!topic) continue;
    if (!qrels.has(q!)) qrels.set(q!, new Map());
    qrels.get(q!)!.set(`knowledge:${topic}`, Number(g));
  }
  const queries = lines('queries.jsonl')
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { name: `BEIR ${path.basename(dir)}`, sheets, queries, qrels };
}

async function archiveOf(set: LabelledSet): Promise<Buffer> {
  return writeTarGz(
    set.sheets.map((s) => ({
      path: `knowledge/${s.topic}.md`,
      data: Buffer.from(`---\n${stringify({ title: s.title })}---\n${s.body}\n`),
    })),
  );
}

async function startServe(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
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
      ...env,
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
      return { url: `http://127.0.0.1:${port}`, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become ready');
}

/** The service's ranking: import, then every question through search_context. */
async function serviceRun(url: string, project: string, set: LabelledSet, create: boolean) {
  if (create) {
    const made = await fetch(`${url}/api/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: project, name: 'Quality' }),
    });
    if (made.status !== 201) throw new Error(`project: ${made.status} ${await made.text()}`);
  }
  const t0 = performance.now();
  const imported = await fetch(`${url}/api/projects/${project}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip' },
    body: new Uint8Array(await archiveOf(set)),
  });
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${(await imported.text()).slice(0, 300)}`);
  const importSeconds = (performance.now() - t0) / 1000;
  const client = new Client({ name: 'bench-quality', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  const ranked = new Map<string, string[]>();
  const again = new Map<string, string[]>();
  const t1 = performance.now();
  for (const q of set.queries) {
    const r = await client.callTool({
      name: 'search_context',
      arguments: { query: q.text, project_id: project, limit: 100 },
    });
    if (r.isError) throw new Error(`search_context failed for ${q.id}: ${JSON.stringify(r.content).slice(0, 300)}`);
    const hits = (r.structuredContent as { data: { hits: { kind: string; key: string }[] } }).data.hits;
    ranked.set(
      q.id,
      hits.map((h) => `${h.kind}:${h.key}`),
    );
  }
  const perQueryMs = (performance.now() - t1) / set.queries.length;
  // Determinism: every question again, top 10.
  for (const q of set.queries) {
    const r = await client.callTool({
      name: 'search_context',
      arguments: { query: q.text, project_id: project, limit: 10 },
    });
    const hits = (r.structuredContent as { data: { hits: { kind: string; key: string }[] } }).data.hits;
    again.set(
      q.id,
      hits.map((h) => `${h.kind}:${h.key}`),
    );
  }
  const differing = set.queries.filter(
    (q) => JSON.stringify((ranked.get(q.id) ?? []).slice(0, 10)) !== JSON.stringify(again.get(q.id)),
  ).length;
  const dump = (await client.callTool({ name: 'get_context_hub', arguments: { project_id: project } })) as {
    content: { text: string }[];
  };
  await client.close();
  return { ranked, importSeconds, perQueryMs, differing, hub: JSON.parse(dump.content[0]!.text) as HubDump };
}

interface HubDump {
  skills: { name: string; description: string; body_md: string }[];
  knowledge: { topic_id: string; title: string; body_md: string }[];
  business_keys: { key: string; label: string; description: string | null; synonyms: string[] }[];
}

/** Textbook BM25 over everything the hub holds, stems from PostgreSQL's english configuration. */
async function bm25Reference(hub: HubDump, set: LabelledSet): Promise<Map<string, string[]>> {
  const docs = [
    ...hub.skills.map((s) => ({
      id: `skill:${s.name}`,
      text: `${s.name.replace(/-/g, ' ')} ${s.description} ${s.body_md}`,
    })),
    ...hub.knowledge.map((k) => ({ id: `knowledge:${k.topic_id}`, text: `${k.title} ${k.body_md}` })),
    ...hub.business_keys.map((b) => ({
      id: `business_key:${b.key}`,
      text: `${b.label} ${b.key.replace(/[._-]+/g, ' ')} ${b.synonyms.join(' ')} ${b.description ?? ''}`,
    })),
  ];
  const db = await PgliteDatabase.open();
  try {
    const tf: Map<string, number>[] = [];
    for (let i = 0; i < docs.length; i += 500) {
      const batch = docs.slice(i, i + 500);
      const rows = await db.query<{ i: number; lexeme: string; n: number }>(
        `SELECT d.i::int AS i, u.lexeme, cardinality(u.positions) AS n
           FROM unnest($1::text[]) WITH ORDINALITY d(t, i), unnest(to_tsvector('english', left(d.t, 200000))) u`,
        [batch.map((d) => d.text)],
      );
      for (let j = 0; j < batch.length; j++) tf.push(new Map());
      for (const r of rows) tf[i + Number(r.i) - 1]!.set(r.lexeme, Number(r.n));
    }
    const len = tf.map((m) => [...m.values()].reduce((s, n) => s + n, 0));
    const avg = len.reduce((s, n) => s + n, 0) / len.length;
    const df = new Map<string, number>();
    const postings = new Map<string, number[]>();
    tf.forEach((m, d) => {
      for (const t of m.keys()) {
        df.set(t, (df.get(t) ?? 0) + 1);
        if (!postings.has(t)) postings.set(t, []);
        postings.get(t)!.push(d);
      }
    });
    const N = docs.length;
    const ranked = new Map<string, string[]>();
    for (const q of set.queries) {
      const terms = (
        await db.query<{ t: string }>("SELECT unnest(tsvector_to_array(to_tsvector('english', $1))) AS t", [q.text])
      ).map((r) => r.t);
      const score = new Map<number, number>();
      for (const t of terms) {
        const n = df.get(t) ?? 0;
        if (n === 0) continue;
        const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
        for (const d of postings.get(t)!) {
          const f = tf[d]!.get(t)!;
          score.set(d, (score.get(d) ?? 0) + (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len[d]!) / avg)));
        }
      }
      ranked.set(
        q.id,
        [...score]
          .sort((a, b) => b[1] - a[1] || docs[a[0]]!.id.localeCompare(docs[b[0]]!.id))
          .slice(0, 100)
          .map(([d]) => docs[d]!.id),
      );
    }
    return ranked;
  } finally {
    await db.close();
  }
}

async function withScratchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_quality_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const u = new URL(PG_URL!);
    u.pathname = `/${name}`;
    return await fn(u.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

interface Row {
  set: string;
  store: string;
  docs: number;
  queries: number;
  service: Metrics;
  bm25: Metrics;
  /** Questions the service ranks better / worse / as well as the reference (nDCG@10). */
  versus: { better: number; worse: number; equal: number };
  differing: number;
  importSeconds: number;
  perQueryMs: number;
}

async function runStore(store: string, sets: LabelledSet[]): Promise<Row[]> {
  const rows: Row[] = [];
  const run = async (env: Record<string, string>) => {
    const { url, child } = await startServe({ SEARCH_CACHE_ENTRIES: '0', ...env });
    try {
      for (const set of sets) {
        const own = set.name.startsWith('marketing');
        // The own set goes into the demo project (its Skills, sheets and keys are part of the hub).
        const project = own ? 'proj_demo' : `proj_q${rows.length}`;
        const r = await serviceRun(url, project, set, !own);
        const bm25 = await bm25Reference(r.hub, set);
        const service = evaluate(r.ranked, set.qrels);
        const reference = evaluate(bm25, set.qrels);
        // SEARCH_QUALITY_DUMP=<file>: one JSON line per question (both top 10s, both nDCG@10), to
        // read where the service and the reference part.
        const dump = process.env.SEARCH_QUALITY_DUMP;
        if (dump)
          fs.appendFileSync(
            dump,
            set.queries
              .map(
                (q) =>
                  `${JSON.stringify({
                    store,
                    set: set.name,
                    id: q.id,
                    text: q.text,
                    relevant: [...(set.qrels.get(q.id) ?? new Map<string, number>()).keys()],
                    service: service.perQuestion.get(q.id),
                    bm25: reference.perQuestion.get(q.id),
                    service_top: (r.ranked.get(q.id) ?? []).slice(0, 10),
                    bm25_top: (bm25.get(q.id) ?? []).slice(0, 10),
                  })}\n`,
              )
              .join(''),
          );
        const docs = r.hub.skills.length + r.hub.knowledge.length + r.hub.business_keys.length;
        const row: Row = {
          set: set.name,
          store,
          docs,
          queries: set.queries.length,
          service,
          bm25: reference,
          versus: winsAndLosses(service, reference),
          differing: r.differing,
          importSeconds: r.importSeconds,
          perQueryMs: r.perQueryMs,
        };
        out(`${store} ${set.name}: ${JSON.stringify(row)}`);
        rows.push(row);
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  };
  if (store === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-quality-'));
    try {
      await run({ DATA_DIR: dir });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } else {
    if (!PG_URL) throw new Error('PostgreSQL needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
    await withScratchDatabase(async (url) => {
      const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'seed-demo'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', SECRETS_KEY },
        stdio: 'inherit',
      });
      if (seeded.status !== 0) throw new Error('seed-demo failed');
      await run({ DATABASE_URL: url });
    });
  }
  return rows;
}

const f = (n: number) => n.toFixed(3);

async function main() {
  const sets: LabelledSet[] = [];
  if (SETS.includes('own')) sets.push(marketingSet());
  if (SETS.includes('beir')) {
    const dir = process.env.SEARCH_QUALITY_BEIR;
    if (dir) for (const d of dir.split(',')) sets.push(beirSet(d));
    else out('SEARCH_QUALITY_BEIR is not set: no BEIR set this run');
  }
  const rows: Row[] = [];
  for (const store of STORES) rows.push(...(await runStore(store, sets)));
  const lines = [
    `Command: \`npm run bench:search-quality -- --write\` (2 cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}).`,
    '',
    'Documents imported through `POST /api/projects/{id}/import`, questions through `search_context` (official MCP client, limit 100, `SEARCH_CACHE_ENTRIES=0`). BM25: textbook (k1 1.2, b 0.75, Lucene idf), the same stems (PostgreSQL `english`), one field, over every document the hub holds, in the same run. "better / worse / equal": questions where the service nDCG@10 is above, below or equal to that of BM25. "differ": questions whose top 10 differed when asked again.',
    '',
    '| set | store | docs | questions | service nDCG@10 | BM25 nDCG@10 | better / worse / equal | service R@10 | BM25 R@10 | service R@100 | BM25 R@100 | service MRR@10 | BM25 MRR@10 | differ | import s | ms / question |',
    '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.set} | ${r.store} | ${r.docs} | ${r.queries} | ${f(r.service.ndcg10)} | ${f(r.bm25.ndcg10)} | ${r.versus.better} / ${r.versus.worse} / ${r.versus.equal} | ${f(r.service.recall10)} | ${f(r.bm25.recall10)} | ${f(r.service.recall100)} | ${f(r.bm25.recall100)} | ${f(r.service.mrr10)} | ${f(r.bm25.mrr10)} | ${r.differing} | ${r.importSeconds.toFixed(1)} | ${r.perQueryMs.toFixed(1)} |`,
    ),
  ];
  for (const l of lines) out(l);
  if (args.write)
    writeBenchmarkSection(
      path.join(root, 'BENCHMARKS.md'),
      'search-quality',
      `## search-quality\n\n${lines.join('\n')}\n`,
    );
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    for (const c of children) c.kill('SIGKILL');
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
