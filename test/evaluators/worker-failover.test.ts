import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceApp } from '../../src/app/service-app.js';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { runCli, stop, type CliProcess } from '../support/process.js';
import { api, TEST_SECRETS_KEY } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';
import { createScratchDatabase, until } from '../support/scratch-database.js';

const P = 'proj_failover';
/**
 * The supervisor checks the queue, and the survivor its cached queue state, every second (not once a
 * minute), and the retry waits 1–2 s (not 30–60 s): what is tested (a stale heartbeat fails the
 * attempt, the same run is retried to success on the survivor) is the same, minus the waiting.
 */
const QUICK_RECOVERY = { JOBS_SUPERVISE_SECONDS: '1', DATASTREAM_RETRY_BASE_SECONDS: '1' };

/**
 * A worker killed in the middle of a run: its job's heartbeat goes stale, pg-boss fails it, and the
 * other worker retries the same run to success. The source is a loopback CSV export that holds the
 * first request open, so the test knows the run is in flight on the first worker when it kills it.
 */
describe.skipIf(!TEST_DATABASE_URL)("a killed worker's run is retried by another worker", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let url: string;
  let dataDir: string;
  let app: ServiceApp;
  let base: string;
  let source: http.Server;
  let requests = 0;
  let firstRequestArrived: () => void = () => undefined;
  const firstRequest = new Promise<void>((resolve) => (firstRequestArrived = resolve));
  const held: http.ServerResponse[] = [];
  const workers: CliProcess[] = [];

  beforeAll(async () => {
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    source = http.createServer((_req, res) => {
      requests += 1;
      if (requests === 1) {
        held.push(res);
        firstRequestArrived();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(`Day,Campaign,Cost,Clicks\n${day},a1,10,5\n${day},a2,7.5,3\n`);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/export.csv`;

    scratch = await createScratchDatabase('ch_failover');
    url = scratch.url;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-failover-'));
    const config = loadConfig({
      DATABASE_URL: url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVE_WORKERS: 'false',
      LOG_LEVEL: 'silent',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      ...QUICK_RECOVERY,
    });
    app = await createServiceApp({ config, logger: createLogger({ level: 'silent' }), workJobs: false });
    await app.jobs.start();
    base = await app.listen();
    expect((await api(`${base}/api/projects`, { method: 'POST', json: { id: P, name: 'Failover' } })).status).toBe(201);
    const conn = await api(`${base}/api/credentials`, {
      method: 'POST',
      json: {
        project_id: P,
        provider: 'csv',
        connection_ref_id: 'export',
        config: {
          url: sourceUrl,
          mapping: { date: 'Day', campaign_id: 'Campaign', spend: 'Cost', clicks: 'Clicks' },
          defaults: { channel: 'search', currency: 'USD' },
        },
      },
    });
    expect(conn.status).toBe(200);
    const ds = await api(`${base}/api/flows/upsert`, {
      method: 'POST',
      json: {
        project_id: P,
        kind: 'datastream',
        definition: { name: 'export', connection_ref_id: 'export', provider: 'csv', cadence: 'manual' },
      },
    });
    expect(ds.status).toBe(200);
  });

  afterAll(async () => {
    for (const res of held) res.destroy();
    for (const w of workers) await stop(w);
    await app?.close();
    await new Promise((r) => source.close(r));
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Heartbeat staleness (20 s), supervision and the retry delay take about half a minute here: the
  // generous hang guard is not a performance assertion.
  it("fails the dead worker's attempt and finishes the same run on the survivor", { timeout: 600_000 }, async () => {
    const env = {
      DATABASE_URL: url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The source is an export server on loopback.
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      ...QUICK_RECOVERY,
    };
    const first = runCli(['worker'], env);
    workers.push(first);
    await until(
      () => app.db.query<{ n: number }>('SELECT count(*) AS n FROM job_workers'),
      (r) => Number(r[0]!.n) >= 1,
    );

    const { body: flows } = await api(`${base}/api/flows?project_id=${P}`);
    const queued = await api(`${base}/api/flows/${flows.datastreams[0].id}/run`, { method: 'POST' });
    expect(queued.status).toBeLessThan(300);
    await firstRequest;
    first.child.kill('SIGKILL');
    await first.exited;

    workers.push(runCli(['worker'], env));
    const run = await until(
      () =>
        app.db.query<{ status: string; attempts: number; rows_read: number }>(
          'SELECT status, attempts, rows_read FROM datastream_runs WHERE id = $1',
          [queued.body.id],
        ),
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(run[0]!.attempts).toBe(2);
    expect(Number(run[0]!.rows_read)).toBe(2);
    const kpis = await app.db.query<{ clicks: number }>(
      'SELECT sum(clicks) AS clicks FROM kpis_daily WHERE project_id = $1',
      [P],
    );
    expect(Number(kpis[0]!.clicks)).toBe(8);
  });
});
