import type { Logger } from '../logger.js';
import type { JobQueues } from './queues.js';

/** What the worker role needs of the assembled service (createServiceApp with workJobs). */
export interface WorkerApp {
  db: { kind: string };
  jobs: Pick<JobQueues, 'start' | 'processId'>;
  close(): Promise<void>;
}

/**
 * The `worker` role: the same code as `serve`, without HTTP. `build` opens the shared PostgreSQL,
 * applies migrations and defines the job queues the modules use (the CLI passes the service app).
 */
export async function startWorker(build: () => Promise<WorkerApp>, log: Logger): Promise<() => Promise<void>> {
  const app = await build();
  // A worker exists to work queues: it is up only once the jobs platform is.
  await app.jobs.start();
  log.info({ store: app.db.kind, process: app.jobs.processId }, 'context-hub worker started');
  return () => app.close();
}
