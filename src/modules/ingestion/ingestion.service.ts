import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../app/context.js';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import type { JobAttempt, JobQueues, QueueHandle } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import type { CredentialsService } from '../credentials/credentials.service.js';
import type { DatastreamRow, RunRow } from '../flows/flows.repo.js';
import * as flowsRepo from '../flows/flows.repo.js';
import { adPerformanceDaily } from '../models/ad-performance.model.js';
import { kpisDaily } from '../models/kpis-daily.model.js';
import { ModelGraph } from '../models/model-graph.js';
import { findProject } from '../projects/projects.repo.js';
import { ProviderError } from '../providers/provider.js';
import { openRawLander } from './raw-writer.js';
import * as runs from './runs.repo.js';

export const DATASTREAM_QUEUE = 'datastream.run';
const PROGRESS_EVERY_ROWS = 25_000;
/** How long one attempt may run before pg-boss expires (and retries) it. */
const RUN_EXPIRE_SECONDS = 4 * 3600;

export interface RunJob {
  run_id: string;
}

export const runResourceUri = (projectId: string, runId: string) => `run://${projectId}/${runId}`;

/**
 * A run: stream the window from the provider into raw storage in batches, then rebuild the
 * models for the window's dates in one transaction. A failure anywhere leaves the datasets as
 * they were, records a clear error and lets pg-boss retry with backoff. Runs of one datastream
 * never overlap: the queue is a singleton per datastream and the store allows one `running` row.
 */
export class IngestionService {
  readonly models = new ModelGraph();
  private readonly queue: QueueHandle<RunJob>;

  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueues,
    private readonly credentials: CredentialsService,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly changes: { resourceUpdated(uri: string): Promise<void> },
  ) {
    this.models.register(adPerformanceDaily);
    this.models.register(kpisDaily);
    this.queue = jobs.define<RunJob>({
      name: DATASTREAM_QUEUE,
      policy: 'singleton',
      retryLimit: 2,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 900,
      expireInSeconds: RUN_EXPIRE_SECONDS,
      // A run whose worker died is retried by another within about a minute, not after 4 h.
      heartbeatSeconds: 20,
      concurrency: 2,
      handler: (job) => this.execute(job),
    });
  }

  async enqueue(ctx: RequestContext, ds: DatastreamRow, window: { from: string; to: string }, trigger: string): Promise<RunRow> {
    const workers = await this.jobs.liveWorkers(DATASTREAM_QUEUE);
    const waiting_reason =
      workers === 0
        ? 'no process works the datastream queue: this process has SERVE_WORKERS=false and no `context-hub worker` on this database has reported in the last 90 s; start one (or set SERVE_WORKERS=true) and the run starts'
        : null;
    const run = await flowsRepo.insertRun(this.db, {
      id: `run_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
      project_id: ds.project_id,
      datastream_id: ds.id,
      trigger,
      window_from: window.from,
      window_to: window.to,
      waiting_reason,
      now: ctx.clock.now(),
    });
    await this.queue.send({ run_id: run.id }, { singletonKey: ds.id });
    return run;
  }

  /** The job handler; throws so pg-boss retries (and finally dead-letters) a failed run. */
  async execute(job: JobAttempt<RunJob>): Promise<void> {
    const run = await flowsRepo.findRun(this.db, job.data.run_id);
    if (!run || run.status === 'succeeded') return;
    const ds = await flowsRepo.findDatastream(this.db, run.datastream_id);
    if (!ds) return;
    let claimed = await runs.claim(this.db, run.id, this.clock.now());
    if (!claimed) {
      const now = this.clock.now();
      const expired = new Date(now.getTime() - RUN_EXPIRE_SECONDS * 1000);
      if (await runs.failAbandoned(this.db, ds.id, expired, now)) claimed = await runs.claim(this.db, run.id, now);
    }
    if (!claimed) throw new Error(`another run of datastream ${ds.id} is running; this one waits for a retry`);
    await this.changes.resourceUpdated(runResourceUri(run.project_id, run.id));
    let phase = 'reading the source';
    try {
      await runs.clearLanding(this.db, ds.id);
      const connection = await this.credentials.require(ds.project_id, ds.connection_ref_id);
      if (connection.status === 'revoked') throw new ProviderError(`connection ${ds.connection_ref_id} is revoked; rotate it before running`);
      const { provider, context } = this.credentials.contextFor(connection, this.clock, job.signal);
      const window = { from: run.window_from, to: run.window_to };
      const lander = await openRawLander(this.db, run.id, ds.id);
      // Wall-clock phase timings for the log (operations, benchmarks); not business time.
      const t0 = performance.now();
      let read = 0;
      let reported = 0;
      try {
        for await (const source of provider.fetch(context, window)) {
          read += 1;
          const record = provider.toCanonical(source, context);
          if (record.date < window.from || record.date > window.to) continue;
          const pending = lander.add(record);
          if (pending) await pending;
          if (read - reported >= PROGRESS_EVERY_ROWS) {
            reported = read;
            await runs.progress(this.db, run.id, read);
          }
        }
        await lander.finish();
      } catch (error) {
        await lander.abort();
        throw error;
      }
      await runs.progress(this.db, run.id, read);
      const readMs = performance.now() - t0;
      phase = 'building the models';
      const project = await findProject(this.db, ds.project_id);
      const scope = { projectId: ds.project_id, datastreamId: ds.id, runId: run.id, from: window.from, to: window.to, reportingCurrency: project!.reporting_currency.trim() };
      const { written, ms: modelMs } = await this.db.transaction((tx) => this.models.buildAll(tx, scope));
      const rowsWritten = Object.values(written).reduce((a, b) => a + b, 0);
      await runs.succeed(this.db, run.id, { rowsRead: read, rowsWritten, now: this.clock.now() });
      const ms = { read_and_land: Math.round(readMs), models: Math.round(performance.now() - t0 - readMs), per_model: modelMs };
      this.log.info({ run: run.id, datastream: ds.id, rows_read: read, written, ms }, 'datastream run succeeded');
    } catch (error) {
      const message = safeMessage(error, phase);
      if (error instanceof ProviderError && (error.status === 'expired' || phase === 'reading the source')) {
        await this.credentials.recordRunFailure(ds.project_id, ds.connection_ref_id, error.status === 'expired' ? 'expired' : 'error', message, this.clock.now()).catch(() => undefined);
      }
      this.log.warn({ run: run.id, datastream: ds.id, attempt: job.retryCount, err: { message: error instanceof Error ? error.message : String(error) } }, 'datastream run failed');
      await runs.fail(this.db, run.id, { error: message, exhausted: job.lastAttempt, now: this.clock.now() });
      throw error;
    } finally {
      await this.changes.resourceUpdated(runResourceUri(run.project_id, run.id)).catch(() => undefined);
    }
  }

  /** Polls the run until it settles (or `signal` aborts), reporting progress on each change. */
  async waitForRun(runId: string, onProgress: (run: RunRow) => Promise<void>, signal: AbortSignal, maxWaitMs = 10 * 60_000): Promise<RunRow> {
    const started = Date.now();
    let last = '';
    for (;;) {
      const run = (await flowsRepo.findRun(this.db, runId))!;
      const key = `${run.status}:${run.rows_read}:${run.attempts}`;
      if (key !== last) {
        last = key;
        await onProgress(run);
      }
      const settled = run.status === 'succeeded' || (run.status === 'failed' && run.retries_exhausted);
      if (settled || signal.aborted || Date.now() - started > maxWaitMs) return run;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function safeMessage(error: unknown, phase: string): string {
  if (error instanceof ProviderError || error instanceof AppError) return error.message;
  const code = (error as { code?: string })?.code;
  if (code === '42P01') return `a table the models need is missing while ${phase} (are all migrations applied?)`;
  return `internal error while ${phase}${code ? ` (SQLSTATE ${code})` : ''}; the service log has details`;
}
