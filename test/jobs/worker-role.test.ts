import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startService, TEST_SECRETS_KEY, type RunningService } from '../support/service.js';
import { TEST_DATABASE_URL } from '../support/stores.js';
import { awaitRun, type Run } from '../support/flows.js';
import { CLI } from '../support/process.js';

const root = path.resolve(import.meta.dirname, '../..');

// The worker role needs PostgreSQL: the embedded store belongs to one process.
describe.runIf(TEST_DATABASE_URL)('`context-hub worker` works runs an API-only serve queued [postgres]', () => {
  let service: RunningService;
  let worker: ChildProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-worker-'));

  beforeAll(async () => {
    service = await startService('postgres', { env: { SERVE_WORKERS: 'false' } });
    await service.app.services.demo.run(service.app.systemContext());
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker!.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    await service?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a queued backfill waits with a reason, then a worker process on the same database runs it', async () => {
    const before = (await api(`${service.url}/api/flows/runs?project_id=proj_demo`)).body.runs as Run[];
    expect(before[0]).toMatchObject({
      status: 'queued',
      waiting_reason: expect.stringContaining('SERVE_WORKERS=false'),
    });
    worker = spawn(process.execPath, [CLI, 'worker'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: service.store.url!,
        SECRETS_KEY: TEST_SECRETS_KEY,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const run = await awaitRun(service, 'proj_demo', before[0]!.id);
    expect(run).toMatchObject({ status: 'succeeded', rows_read: 120 * 12, waiting_reason: null });
    // With a worker reporting in, a new run no longer says it waits for nobody.
    const ds = (await api(`${service.url}/api/flows?project_id=proj_demo`)).body.datastreams[0];
    const queued = await api(`${service.url}/api/flows/${ds.id}/run`, { method: 'POST' });
    expect(queued.body.run.waiting_reason).toBeNull();
    expect((await awaitRun(service, 'proj_demo', queued.body.id)).status).toBe('succeeded');
  });
});
