import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../../src/app/service-app.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { WebhookReceiver } from '../support/alert-receivers.js';
import { type CliProcess, runCli, stop } from '../support/process.js';
import { createScratchDatabase, until } from '../support/scratch-database.js';
import { api, TEST_SECRETS_KEY } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';

const P = 'proj_workers';

/** What the evaluators publish for a run with anomalies (the alerts' input), as they publish it. */
function anomalyFacts(runId: string) {
  const top = ['spend', 'revenue', 'clicks', 'roas'].map((metric, i) => ({
    date: '2026-05-15',
    metric,
    channel: 'paid_search',
    direction: 'spike',
    value: 100 + i,
    baseline_mean: 50,
    z: 6 - i,
  }));
  return {
    anomaly: { run_id: runId, window: { from: '2026-05-12', to: '2026-05-18' }, count: top.length, top },
    transformed: {
      run_id: runId,
      datastream_id: 'ds_x',
      datasets: ['anomalies_daily'],
      window: { from: '2026-05-12', to: '2026-05-18' },
    },
  };
}

/**
 * Real worker processes on one PostgreSQL: a worker killed with SIGKILL in the middle of a
 * delivery (the receiver holds its request) and two replicas racing over the same facts. The
 * receivers count what an idempotent Standard Webhooks receiver processes: one message each.
 */
describe.skipIf(!TEST_DATABASE_URL)('alerts across worker processes (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let dataDir: string;
  let app: ServiceApp;
  let base: string;
  let env: Record<string, string>;
  const workers: CliProcess[] = [];
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase('ch_alerts');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-alerts-'));
    env = {
      DATABASE_URL: scratch.url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ALERTS_ALLOW_PRIVATE_NETWORKS: 'true',
      ALERTS_TIMEOUT_SECONDS: '5',
      ALERTS_RETRY_BASE_SECONDS: '1',
      // The supervisor checks each queue every second, not once a minute: a dead worker's delivery
      // is failed and retried about 10 s (its heartbeat) after the kill.
      JOBS_SUPERVISE_SECONDS: '1',
    };
    const config = loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1', SERVE_WORKERS: 'false', LOG_LEVEL: 'silent' });
    app = await createServiceApp({ config, logger: createLogger({ level: 'silent' }), workJobs: false });
    await app.jobs.start();
    base = await app.listen();
    expect((await api(`${base}/api/projects`, { method: 'POST', json: { id: P, name: 'Workers' } })).status).toBe(201);
  });
  afterAll(async () => {
    for (const w of workers) await stop(w);
    await app?.close();
    await Promise.all(receivers.map((r) => r.close()));
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function hookRule(name: string): Promise<WebhookReceiver> {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const d = await api(`${base}/api/alerts/destinations`, {
      method: 'POST',
      json: { project_id: P, name, kind: 'webhook', secrets: { url: receiver.url } },
    });
    expect(d.status).toBe(201);
    receiver.secret = d.body.signing_secret;
    const r = await api(`${base}/api/alerts/rules`, {
      method: 'POST',
      json: { project_id: P, name, on: ['anomaly'], destinations: [d.body.id] },
    });
    expect(r.status).toBe(201);
    return receiver;
  }

  async function publishRun(runId: string): Promise<void> {
    const facts = app.services.evaluators.facts;
    const { anomaly, transformed } = anomalyFacts(runId);
    await facts.publish('anomaly.detected', P, anomaly, new Date());
    await facts.publish('dataset.transformed', P, transformed, new Date());
  }

  /** Starts `context-hub worker` and waits until it reports in (its heartbeat row names its pid). */
  async function startWorker(): Promise<CliProcess> {
    const worker = runCli(['worker'], env);
    workers.push(worker);
    await until(
      () => app.db.query('SELECT 1 FROM job_workers WHERE process_id LIKE $1', [`%:${worker.child.pid}:%`]),
      (rows) => rows.length === 1,
    );
    return worker;
  }

  // Heartbeat staleness, pg-boss supervision, the lease and the retry take seconds here:
  // the generous hang guard is not a performance assertion.
  it('a worker killed mid-delivery: the survivor sends it again under the same id; one is processed', {
    timeout: 600_000,
  }, async () => {
    const receiver = await hookRule('Held');
    receiver.script = ['hang'];
    const first = await startWorker();
    await publishRun('run_killed');
    const [held] = await receiver.received(1);
    expect(held!.problems).toEqual([]);
    first.child.kill('SIGKILL');
    await first.exited;

    await startWorker();
    const hits = await receiver.received(2);
    expect(hits[1]!.problems).toEqual([]);
    expect(hits[1]!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    expect(receiver.processed).toEqual([String(held!.headers['webhook-id'])]);
    const [message] = await until(
      () =>
        app.db.query<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM alert_messages WHERE id = $1',
          [held!.headers['webhook-id']],
        ),
      (rows) => rows[0]?.status === 'delivered',
    );
    expect(Number(message!.attempts)).toBe(2);
    const attempts = await app.db.query<{ outcome: string }>(
      'SELECT outcome FROM alert_attempts WHERE message_id = $1 ORDER BY attempt',
      [held!.headers['webhook-id']],
    );
    expect(attempts.map((a) => a.outcome)).toEqual(['interrupted', 'delivered']);
    // Nothing else went out for that run, and nothing more will.
    expect(await app.db.query('SELECT id FROM alert_messages WHERE run_id = $1', ['run_killed'])).toHaveLength(1);
  });

  it('two replicas over the same facts, published again and again: one message per rule', {
    timeout: 600_000,
  }, async () => {
    const live = workers.filter((w) => w.child.exitCode === null);
    if (live.length < 2) await startWorker();
    const rules = await Promise.all(['Race A', 'Race B', 'Race C'].map((name) => hookRule(name)));
    // The run's facts, then what retried after-run jobs would publish, all at once.
    await Promise.all(Array.from({ length: 6 }, () => publishRun('run_raced')));
    await until(
      () =>
        app.db.query<{ n: number }>(
          `SELECT count(*) AS n FROM alert_evaluations e JOIN facts f ON f.seq = e.fact_seq
           WHERE f.type = 'dataset.transformed' AND f.payload->>'run_id' = 'run_raced'`,
        ),
      (rows) => Number(rows[0]!.n) === 6,
    );
    for (const receiver of rules) await receiver.received(1);
    const messages = await until(
      () =>
        app.db.query<{ status: string; item_count: number }>(
          `SELECT status, item_count FROM alert_messages WHERE run_id = 'run_raced'`,
        ),
      (rows) => rows.length === 3 && rows.every((r) => r.status === 'delivered'),
    );
    expect(messages.map((m) => Number(m.item_count))).toEqual([4, 4, 4]);
    for (const receiver of rules) {
      expect(receiver.hits).toHaveLength(1);
      expect(receiver.processed).toHaveLength(1);
    }
  });
});
