// npm run bench:alerts [-- --write] [--stores=pglite,postgres] [--runs=20]
//
// Time from a run's commit to the alert receiver's first byte, on loopback. One service (serve
// with its own workers, as a self-hosted process runs) and a Standard Webhooks receiver; each
// round adds a fresh rule and webhook destination (so the run's anomalies are new to it), runs the
// demo datastream and measures from the run's finished_at (stamped right after its transaction
// commits) to the moment the receiver got the request's headers. The path in between: the run://
// update → the after-run job (data-quality monitors, facts) → the alerts evaluation job → the
// delivery job → the HTTP POST. Goal: p95 ≤ 5 s.
// PostgreSQL: TEST_DATABASE_URL (a schema of its own, dropped afterwards).
// --write replaces the "## alerts" section of BENCHMARKS.md with the figures.
// zod configured as the CLI entry configures it, before any schema is built.
import '../src/platform/zod-runtime.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebhookReceiver } from '../test/support/alert-receivers.js';
import { awaitRun, createProject } from '../test/support/flows.js';
import { api, type RunningService, startService } from '../test/support/service.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const RUNS = Number(args.runs ?? 20);
const STORES = String(args.stores ?? 'pglite,postgres').split(',');
const P = 'proj_bench_alerts';

interface Round {
  total: number;
  /** commit → the after-run job's start (its facts carry the instant it started publishing). */
  facts: number;
  /** → message written: data-quality monitors, the facts, the evaluation job. */
  evaluated: number;
  /** message → attempt started (delivery job). */
  queued: number;
  /** attempt started → receiver's first byte. */
  sent: number;
  items: number;
}

const ms = (d: Date | string) => new Date(d).getTime();
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function measure(store: 'pglite' | 'postgres'): Promise<Round[]> {
  const receiver = await new WebhookReceiver().start();
  const service: RunningService = await startService(store, { env: { ALERTS_ALLOW_PRIVATE_NETWORKS: 'true' } });
  try {
    await createProject(service, P);
    const start = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
    await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: P, provider: 'demo', connection_ref_id: 'demo', config: { campaigns: 10, seed: 7 } },
    });
    const ds = await api(`${service.url}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: {
          name: 'Main',
          connection_ref_id: 'demo',
          provider: 'demo',
          cadence: 'manual',
          retrieval_window: { lookback_days: 7, start_date: start },
        },
      },
    });
    const dsId = ds.body.datastream.id as string;
    // A first run lands the history (backfill); the measured runs re-read the last week.
    const warm = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
    await awaitRun(service, P, warm.body.id);
    const rounds: Round[] = [];
    let previous: string | undefined;
    for (let i = 0; i < RUNS; i += 1) {
      const dest = await api(`${service.url}/api/alerts/destinations`, {
        method: 'POST',
        json: { project_id: P, name: `hook ${i}`, kind: 'webhook', secrets: { url: `${receiver.url}?round=${i}` } },
      });
      receiver.secret = dest.body.signing_secret;
      const rule = await api(`${service.url}/api/alerts/rules`, {
        method: 'POST',
        json: { project_id: P, name: `rule ${i}`, on: ['anomaly'], destinations: [dest.body.id] },
      });
      if (previous)
        await api(`${service.url}/api/alerts/rules/${previous}`, { method: 'PATCH', json: { enabled: false } });
      previous = rule.body.id;
      const queued = await api(`${service.url}/api/flows/${dsId}/run`, { method: 'POST' });
      const run = await awaitRun(service, P, queued.body.id);
      if (run.status !== 'succeeded') throw new Error(`run ${run.id} ${run.status}: ${run.error}`);
      const hits = await receiver.received(i + 1);
      const hit = hits[i]!;
      if (hit.problems.length) throw new Error(`receiver: ${hit.problems.join('; ')}`);
      const messageId = String(hit.headers['webhook-id']);
      const [row] = await service.app.db.query<{
        created_at: Date;
        started_at: Date;
        occurred_at: Date;
        item_count: number;
      }>(
        `SELECT m.created_at, a.started_at, f.occurred_at, m.item_count FROM alert_messages m
         JOIN alert_attempts a ON a.message_id = m.id AND a.attempt = 1 JOIN facts f ON f.seq = m.fact_seq WHERE m.id = $1`,
        [messageId],
      );
      const commit = ms(run.finished_at!);
      rounds.push({
        total: hit.at - commit,
        facts: ms(row!.occurred_at) - commit,
        evaluated: ms(row!.created_at) - ms(row!.occurred_at),
        queued: ms(row!.started_at) - ms(row!.created_at),
        sent: hit.at - ms(row!.started_at),
        items: Number(row!.item_count),
      });
      process.stdout.write(`${store} round ${i + 1}/${RUNS}: ${rounds.at(-1)!.total} ms\n`);
    }
    return rounds;
  } finally {
    await service.close();
    await receiver.close();
  }
}

const results: { store: string; rounds: Round[] }[] = [];
for (const store of STORES) {
  if (store === 'postgres' && !process.env.TEST_DATABASE_URL) {
    process.stdout.write('postgres skipped: set TEST_DATABASE_URL\n');
    continue;
  }
  results.push({ store, rounds: await measure(store as 'pglite' | 'postgres') });
}

const row = (store: string, rounds: Round[]) => {
  const totals = rounds.map((r) => r.total);
  const median = (k: keyof Round) =>
    pct(
      rounds.map((r) => r[k]),
      50,
    );
  return `| ${store} | ${rounds.length} | ${pct(totals, 50)} | ${pct(totals, 95)} | ${Math.max(...totals)} | ${median('facts')} | ${median('evaluated')} | ${median('queued')} | ${median('sent')} | ${median('items')} |`;
};
const load = os.loadavg()[0]!.toFixed(1);
const section = [
  '## alerts',
  '',
  `Command: \`npm run bench:alerts -- --write\` (${new Date().toISOString().slice(0, 10)}, 2 cores shared with other work: load average ${load} at the end; Node ${process.version}, PostgreSQL 15 on loopback).`,
  '',
  "From a run's commit (its `finished_at`) to the first byte at a Standard Webhooks receiver on loopback, through the whole",
  'path: the after-run job (data-quality monitors, facts), the alerts evaluation job, the delivery job, the signed POST.',
  'One `serve` process with its own workers; each round adds a fresh rule and destination and re-runs the demo datastream',
  '(7-day window). Goal: p95 ≤ 5 s. The step columns are medians in ms ("message written" includes the',
  "run's data-quality monitors and facts, published before the evaluation); items: the median anomalies per message.",
  '',
  '| store | rounds | p50 ms | p95 ms | max ms | commit → after-run job | → message written | → attempt started | → first byte | items |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map((r) => row(r.store, r.rounds)),
  '',
].join('\n');
process.stdout.write(`\n${section}\n`);
if (args.write) writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), 'alerts', section);
