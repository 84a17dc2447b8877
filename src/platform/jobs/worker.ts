import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createServiceApp } from '../../app/service-app.js';

/**
 * The `worker` role: the same code as `serve`, without HTTP. It opens the shared PostgreSQL,
 * applies migrations and processes the job queues the modules define.
 */
export async function startWorker(config: Config, log: Logger): Promise<() => Promise<void>> {
  const app = await createServiceApp({ config, logger: log, workJobs: true });
  // A worker exists to work queues: it is up only once the jobs platform is.
  await app.jobs.start();
  log.info({ store: app.db.kind, process: app.jobs.processId }, 'context-hub worker started');
  return () => app.close();
}
