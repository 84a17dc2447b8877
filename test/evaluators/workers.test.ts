import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../../src/app/service-app.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { TICK_QUEUE } from '../../src/platform/jobs/scheduler.js';
import { runCli, stop, type CliProcess } from '../support/process.js';
import { api, TEST_SECRETS_KEY } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';
import { createScratchDatabase, until } from '../support/scratch-database.js';

const P = 'proj_workers';
const STREAMS = 8;

/** Polls the database (bounded by attempts) until `ok` holds. */

/**
 * Managed mode: an API-only replica plus two `context-hub worker` processes on one PostgreSQL (a
 * database of its own, so pg-boss's schema is not shared with other suites). Every process ticks
 * the schedules at once; each due slot must run exactly once.
 */
describe.skipIf(!TEST_DATABASE_URL)('scheduled runs with two worker processes on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let url: string;
  let dataDir: string;
  let app: ServiceApp;
  let base: string;
  const workers: CliProcess[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase('ch_workers');
    url = scratch.url;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-workers-'));
    const config = loadConfig({
      DATABASE_URL: url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVE_WORKERS: 'false',
      LOG_LEVEL: 'silent',
    });
    app = await createServiceApp({ config, logger: createLogger({ level: 'silent' }), workJobs: false });
    base = await app.listen();
    // One datastream per project: concurrent runs of two datastreams of one project currently
    // collide in kpis_daily (reported to the data-in owner); this suite is about the schedule.
    for (let i = 0; i < STREAMS; i += 1) {
      const p = `${P}_${i}`;
      expect((await api(`${base}/api/projects`, { method: 'POST', json: { id: p, name: p } })).status).toBe(201);
      expect(
        (
          await api(`${base}/api/credentials`, {
            method: 'POST',
            json: { project_id: p, provider: 'demo', connection_ref_id: 'demo', config: { campaigns: 5 } },
          })
        ).status,
      ).toBe(200);
      const res = await api(`${base}/api/flows/upsert`, {
        method: 'POST',
        json: {
          project_id: p,
          kind: 'datastream',
          definition: {
            name: 'main',
            connection_ref_id: 'demo',
            provider: 'demo',
            cadence: 'daily',
            retrieval_window: { lookback_days: 3 },
          },
        },
      });
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < 2; i += 1)
      workers.push(
        runCli(['worker'], { DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
      );
    await until(
      () => app.db.query<{ n: number }>('SELECT count(*) AS n FROM job_workers'),
      (r) => Number(r[0]!.n) >= 2,
    );
  });
  afterAll(async () => {
    for (const w of workers) await stop(w);
    await app?.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every due slot exactly once while three processes tick, none lost', async () => {
    // Every datastream is due now.
    await app.db.query(`UPDATE datastreams SET next_run_at = now() - interval '1 minute'`);
    // The workers tick through the queue (as the minute cron would have them), this replica directly, all at once.
    await Promise.all([
      app.jobs.send(TICK_QUEUE, {}),
      app.jobs.send(TICK_QUEUE, {}),
      app.services.evaluators.plan.tick(new Date()),
      app.services.evaluators.plan.tick(new Date()),
    ]);
    const runs = await until(
      () =>
        app.db.query<{ datastream_id: string; status: string; attempts: number }>(
          `SELECT datastream_id, status, attempts FROM datastream_runs WHERE trigger = 'schedule'`,
        ),
      (rows) => rows.length === STREAMS && rows.every((r) => r.status === 'succeeded'),
    );
    expect(new Set(runs.map((r) => r.datastream_id)).size).toBe(STREAMS);
    for (const r of runs) expect(r.attempts).toBe(1);
    const firings = await app.db.query<{ n: number; started: number }>(
      `SELECT count(*) AS n, count(run_id) AS started FROM schedule_firings WHERE target LIKE 'datastream:%'`,
    );
    expect(firings.map((f) => [Number(f.n), Number(f.started)])).toEqual([[STREAMS, STREAMS]]);
    // Every run's after-run work settled exactly once.
    const outbox = await until(
      () =>
        app.db.query<{ pending: number; done: number }>(
          `SELECT count(*) FILTER (WHERE processed_at IS NULL) AS pending, count(*) FILTER (WHERE processed_at IS NOT NULL) AS done FROM evaluator_outbox`,
        ),
      (r) => Number(r[0]!.done) === STREAMS,
    );
    expect(Number(outbox[0]!.pending)).toBe(0);
    const ingested = await app.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM facts WHERE type = 'datastream.ingested'`,
    );
    expect(Number(ingested[0]!.n)).toBe(STREAMS);
    // A second round of ticks finds nothing due: the slots moved to tomorrow.
    const again = await app.services.evaluators.plan.tick(new Date());
    expect(again.runs).toEqual([]);
  });
});
