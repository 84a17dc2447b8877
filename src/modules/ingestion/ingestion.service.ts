import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { PostgresDatabase } from '../../platform/db/postgres.js';
import { AppError } from '../../platform/errors.js';
import type { JobAttempt, JobQueues, QueueHandle } from '../../platform/jobs/queues.js';
import type { Logger } from '../../platform/logger.js';
import type { CredentialsService } from '../credentials/index.js';
import type { FactsService } from '../facts/index.js';
import type { DatastreamRow, FlowRuns, RunRow } from '../flows/index.js';
import { adPerformanceDaily, kpisDaily, ModelGraph, type ModelScope, type ModelSpec } from '../models/index.js';
import type { ProjectsService } from '../projects/index.js';
import {
  type AnyProvider,
  countedSleep,
  type DateWindow,
  type ProviderContext,
  ProviderError,
} from '../providers/index.js';
import { ChunkedCopyLander, LANDING_CHUNK_ROWS, type RawLander, UnnestLander } from './raw-writer.js';
import * as runs from './ingestion.repo.js';

export const DATASTREAM_QUEUE = 'datastream.run';
const PROGRESS_EVERY_ROWS = 25_000;
/** How long one attempt may run before pg-boss expires (and retries) it. */
const RUN_EXPIRE_SECONDS = 4 * 3600;

export interface RunJob {
  run_id: string;
}

/** What a run reads: the provider's records for the window, through the run's connection. */
interface Source {
  run: RunRow;
  provider: AnyProvider;
  context: ProviderContext;
  window: DateWindow;
  /** What the run has waited on its source so far (ms). */
  waitedMs(): number;
}

export const runResourceUri = (projectId: string, runId: string) => `run://${projectId}/${runId}`;

/** What a run is built on; every part is given at construction. */
export interface IngestionDeps {
  db: Database;
  jobs: JobQueues;
  credentials: CredentialsService;
  /** Datastream rows and the run ledger (the flows module's FlowRunLedger). */
  flows: FlowRuns;
  projects: ProjectsService;
  clock: Clock;
  log: Logger;
  changes: { resourceUpdated(uri: string): Promise<void> };
  /** Where a run that finally failed is reported (`run.failed`); the evaluators own the facts log. */
  facts: FactsService;
  /** Models other modules add, built after the ingestion's own (anomalies_daily follows kpis_daily). */
  models?: readonly ModelSpec[];
  /** DATASTREAM_RETRY_BASE_SECONDS: the first retry's delay (config.ts). */
  retryBaseSeconds?: number;
}

/**
 * A run: stream the window from the provider into raw storage and rebuild the models for the
 * window's dates in one transaction (on PostgreSQL the models follow the landing chunk by chunk;
 * on PGlite they build after it). A failure anywhere leaves the datasets as they were, records a
 * clear error and lets pg-boss retry with backoff. Runs of one datastream never overlap: the
 * queue is a singleton per datastream and the store allows one `running` row.
 */
export class IngestionService {
  readonly models = new ModelGraph();
  /** Records per landing chunk on PostgreSQL (the models follow the landing chunk by chunk). */
  landingChunkRows = LANDING_CHUNK_ROWS;
  private readonly queue: QueueHandle<RunJob>;
  private readonly db: Database;
  private readonly jobs: JobQueues;
  private readonly credentials: CredentialsService;
  private readonly flows: FlowRuns;
  private readonly projects: ProjectsService;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly changes: IngestionDeps['changes'];
  private readonly facts: FactsService;

  constructor(deps: IngestionDeps) {
    ({
      db: this.db,
      jobs: this.jobs,
      credentials: this.credentials,
      flows: this.flows,
      projects: this.projects,
      clock: this.clock,
      log: this.log,
      changes: this.changes,
      facts: this.facts,
    } = deps);
    for (const model of [adPerformanceDaily, kpisDaily, ...(deps.models ?? [])]) this.models.register(model);
    this.queue = this.jobs.define<RunJob>({
      name: DATASTREAM_QUEUE,
      policy: 'singleton',
      retryLimit: 2,
      retryDelay: deps.retryBaseSeconds ?? 30,
      retryBackoff: true,
      retryDelayMax: 900,
      expireInSeconds: RUN_EXPIRE_SECONDS,
      // A run whose worker died is retried by another within about a minute, not after 4 h.
      heartbeatSeconds: 20,
      concurrency: 2,
      handler: (job) => this.execute(job),
    });
  }

  async enqueue(
    ctx: RequestContext,
    ds: DatastreamRow,
    window: { from: string; to: string },
    trigger: string,
  ): Promise<RunRow> {
    const workers = await this.jobs.liveWorkers(DATASTREAM_QUEUE);
    const waiting_reason =
      workers === 0
        ? 'no process works the datastream queue: this process has SERVE_WORKERS=false and no `context-hub worker` on this database has reported in the last 90 s; start one (or set SERVE_WORKERS=true) and the run starts'
        : null;
    const run = await this.flows.recordRun({
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
    const run = await this.flows.getRun(job.data.run_id);
    if (!run || run.status === 'succeeded') return;
    const ds = await this.flows.datastreamRow(run.datastream_id);
    if (!ds) return;
    let claimed = await runs.claim(this.db, run.id, this.clock.now());
    if (!claimed) {
      const now = this.clock.now();
      const expired = new Date(now.getTime() - RUN_EXPIRE_SECONDS * 1000);
      const abandoned = await this.db.transaction(async (tx) => {
        const failed = await runs.failAbandoned(tx, ds.id, expired, now);
        const facts = [];
        for (const row of failed) facts.push(await this.recordFailure(tx, ds, row, now));
        return facts;
      });
      for (const fact of abandoned) if (fact) await this.facts.announce(fact);
      if (abandoned.length) claimed = await runs.claim(this.db, run.id, now);
    }
    if (!claimed) throw new Error(`another run of datastream ${ds.id} is running; this one waits for a retry`);
    await this.changes.resourceUpdated(runResourceUri(run.project_id, run.id));
    let phase = 'reading the source';
    let waitedMs = () => 0;
    try {
      await runs.clearLanding(this.db, ds.id);
      const connection = await this.credentials.require(ds.project_id, ds.connection_ref_id);
      if (connection.status === 'revoked')
        throw new ProviderError(`connection ${ds.connection_ref_id} is revoked; rotate it before running`);
      const { provider, context: given } = this.credentials.contextFor(connection, this.clock, job.signal);
      // Every wait of the run's requests goes through this sleeper, so the run can say what its
      // source cost it in waiting.
      const waits = countedSleep(given.outbound.sleep);
      waitedMs = waits.waitedMs;
      const context = { ...given, outbound: { ...given.outbound, sleep: waits.sleep } };
      const window = { from: run.window_from, to: run.window_to };
      const project = await this.projects.findRow(ds.project_id);
      const scope: ModelScope = {
        projectId: ds.project_id,
        datastreamId: ds.id,
        runId: run.id,
        from: window.from,
        to: window.to,
        reportingCurrency: project!.reporting_currency.trim(),
      };
      const source: Source = { run, provider, context, window, waitedMs };
      // Wall-clock phase timings for the log (operations, benchmarks); not business time.
      const t0 = performance.now();
      let read = 0;
      let readMs = 0;
      let built: { written: Record<string, number>; ms: Record<string, number> };
      const db = this.db;
      if (db instanceof PostgresDatabase) {
        // Two connections side by side: the landing commits chunk after chunk, and the model
        // transaction converts each landed chunk while the next one lands; the other models build
        // after the landing, in the same transaction. A failure anywhere rolls the transaction back.
        built = await db.transaction(async (tx) => {
          const follower = this.models.followLanding(tx, scope);
          try {
            const lander = await ChunkedCopyLander.open(db, run.id, ds.id, this.landingChunkRows, (chunk) =>
              follower.chunkLanded(chunk),
            );
            read = await this.land(source, lander, () => follower.failed);
          } catch (error) {
            // The follower's statement in flight must finish before the rollback is sent behind it.
            await follower.stop();
            throw error;
          }
          readMs = performance.now() - t0;
          phase = 'building the models';
          return follower.finish();
        });
      } else {
        // One connection (PGlite): land the whole run, then build the models.
        read = await this.land(source, new UnnestLander(db, run.id, ds.id));
        await runs.analyzeLanding(db);
        readMs = performance.now() - t0;
        phase = 'building the models';
        built = await db.transaction((tx) => this.models.buildAll(tx, scope));
      }
      const { written, ms: modelMs } = built;
      const rowsWritten = Object.values(written).reduce((a, b) => a + b, 0);
      await runs.succeed(this.db, run.id, {
        rowsRead: read,
        rowsWritten,
        sourceWaitMs: waitedMs(),
        now: this.clock.now(),
      });
      // On PostgreSQL `models` is what remains after the landing; per_model counts each model's own statements.
      const ms = {
        read_and_land: Math.round(readMs),
        models: Math.round(performance.now() - t0 - readMs),
        per_model: modelMs,
      };
      this.log.info({ run: run.id, datastream: ds.id, rows_read: read, written, ms }, 'datastream run succeeded');
    } catch (error) {
      const message = safeMessage(error, phase);
      if (error instanceof ProviderError && (error.status === 'expired' || phase === 'reading the source')) {
        await this.credentials
          .recordRunFailure(
            ds.project_id,
            ds.connection_ref_id,
            error.status === 'expired' ? 'expired' : 'error',
            message,
            this.clock.now(),
          )
          .catch(() => undefined);
      }
      this.log.warn(
        {
          run: run.id,
          datastream: ds.id,
          attempt: job.retryCount,
          err: { message: error instanceof Error ? error.message : String(error) },
        },
        'datastream run failed',
      );
      const now = this.clock.now();
      // The last attempt's failure and its `run.failed` fact commit together: one never exists without the other.
      const fact = await this.db.transaction(async (tx) => {
        await runs.fail(tx, run.id, { error: message, exhausted: job.lastAttempt, sourceWaitMs: waitedMs(), now });
        if (!job.lastAttempt) return undefined;
        return this.recordFailure(tx, ds, { ...run, attempts: (run.attempts ?? 0) + 1, error: message }, now);
      });
      if (fact) await this.facts.announce(fact).catch(() => undefined);
      throw error;
    } finally {
      await this.changes.resourceUpdated(runResourceUri(run.project_id, run.id)).catch(() => undefined);
    }
  }

  private async recordFailure(
    tx: SqlExecutor,
    ds: DatastreamRow,
    run: Pick<runs.FailedRun, 'id' | 'project_id' | 'window_from' | 'window_to' | 'attempts' | 'trigger' | 'error'>,
    now: Date,
  ) {
    return this.facts.record(
      tx,
      'run.failed',
      run.project_id,
      {
        run_id: run.id,
        datastream_id: ds.id,
        datastream: ds.name,
        window: { from: run.window_from, to: run.window_to },
        attempts: Number(run.attempts),
        trigger: run.trigger,
        error: run.error,
        finished_at: now.toISOString(),
      },
      now,
    );
  }

  /**
   * Streams the window from the provider into `lander` and returns the records read. Stops early
   * (dropping the landing) when `stop` says the models following it have failed.
   */
  private async land(src: Source, lander: RawLander, stop: () => boolean = () => false): Promise<number> {
    const { run, provider, context, window } = src;
    let read = 0;
    let reported = 0;
    let stopped = false;
    try {
      for await (const source of provider.fetch(context, window)) {
        read += 1;
        const record = provider.toCanonical(source, context);
        if (record.date < window.from || record.date > window.to) continue;
        const pending = lander.add(record);
        if (pending) {
          await pending;
          stopped = stop();
          if (stopped) break;
        }
        if (read - reported >= PROGRESS_EVERY_ROWS) {
          reported = read;
          await runs.progress(this.db, run.id, read, src.waitedMs());
        }
      }
      await (stopped ? lander.abort() : lander.finish());
    } catch (error) {
      await lander.abort();
      throw error;
    }
    await runs.progress(this.db, run.id, read, src.waitedMs());
    return read;
  }

  /** Polls the run until it settles (or `signal` aborts), reporting progress on each change. */
  async waitForRun(
    runId: string,
    onProgress: (run: RunRow) => Promise<void>,
    signal: AbortSignal,
    maxWaitMs = 10 * 60_000,
  ): Promise<RunRow> {
    const started = Date.now();
    let last = '';
    for (;;) {
      const run = (await this.flows.getRun(runId))!;
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
