import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { PgBoss, fromPglite, type Job, type JobWithMetadata, type QueuePolicy } from 'pg-boss';
import type { Database } from '../db/database.js';
import { PgliteDatabase } from '../db/pglite.js';
import { PostgresDatabase } from '../db/postgres.js';
import type { Logger } from '../logger.js';

/**
 * The jobs platform: a small typed facade over pg-boss. Modules define queues (name, retries,
 * backoff, policy, handler) before start; `serve` (SERVE_WORKERS=true) and `worker` start the same
 * definitions, so a job sent from an API-only replica runs in whichever process works that queue.
 * Every queue gets a dead-letter queue `<name>.dead` that keeps jobs whose retries ran out.
 */
export interface JobAttempt<T> {
  id: string;
  data: T;
  /** 0 on the first attempt. */
  retryCount: number;
  retryLimit: number;
  /** True when a failure of this attempt ends the job (no retry follows). */
  lastAttempt: boolean;
  signal: AbortSignal;
}

export interface QueueDefinition<T> {
  name: string;
  /** `singleton`: one active job per singletonKey at a time (others wait); `standard` otherwise. */
  policy?: QueuePolicy;
  retryLimit?: number;
  /** First retry delay in seconds; doubled per retry with jitter when `retryBackoff`. */
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  expireInSeconds?: number;
  /**
   * Workers refresh a running job's heartbeat; a job whose process died (no heartbeat for this many
   * seconds, at least 10) is failed by pg-boss's supervisor and retried by another process, long
   * before `expireInSeconds`.
   */
  heartbeatSeconds?: number;
  /** How many jobs of this queue one process runs at once. */
  concurrency?: number;
  handler(job: JobAttempt<T>): Promise<void>;
}

export interface SendOptions {
  singletonKey?: string;
  /** Debounce: one job per key within this many seconds (pg-boss: a key alone does not dedupe). */
  singletonSeconds?: number;
  startAfter?: Date;
}

/** A typed handle to one queue, returned by `define`. */
export interface QueueHandle<T> {
  readonly name: string;
  send(data: T, options?: SendOptions): Promise<string | null>;
}

export interface JobQueuesOptions {
  db: Database;
  log: Logger;
  /** Process queued jobs in this process (SERVE_WORKERS, or the worker role). */
  work: boolean;
  /** Seconds between polls; pg-boss's minimum is 0.5. */
  pollingIntervalSeconds?: number;
  /**
   * JOBS_SUPERVISE_SECONDS: the supervisor's pass, each queue's check for jobs whose process died
   * and the refresh of the cached queue state, all at this interval. Unset: a pass every
   * SUPERVISE_SECONDS, the other two once a minute (pg-boss's defaults).
   */
  superviseSeconds?: number;
}

const HEARTBEAT_MS = 30_000;
/** A worker that has not beaten for this long is considered gone. */
export const WORKER_STALE_SECONDS = 90;

export class JobQueues {
  private readonly definitions = new Map<string, QueueDefinition<unknown>>();
  private readonly workerIds = new Map<string, string>();
  private boss: PgBoss | undefined;
  private starting: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Set by stop(): a late send must not bring pg-boss back up during shutdown. */
  private stopped = false;
  readonly processId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(private readonly options: JobQueuesOptions) {}

  get working(): boolean {
    return this.options.work;
  }

  get started(): boolean {
    return this.boss !== undefined;
  }

  define<T>(definition: QueueDefinition<T>): QueueHandle<T> {
    if (this.starting) throw new Error(`queue ${definition.name} defined after the jobs platform started`);
    if (this.definitions.has(definition.name)) throw new Error(`queue ${definition.name} defined twice`);
    this.definitions.set(definition.name, definition as QueueDefinition<unknown>);
    return { name: definition.name, send: (data, options) => this.send(definition.name, data as object, options) };
  }

  /**
   * Starts pg-boss, creates the queues and (when working) the workers. Idempotent: callers share
   * one start. `serve` starts it only after listening (its start would delay the listener;
   * BENCHMARKS.md, startup notes);
   * `send` starts it or waits for it, so nothing queued before it finishes is lost.
   */
  start(): Promise<void> {
    this.stopped = false;
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    const boss = await createBoss(this.options.db, this.options.superviseSeconds);
    boss.on('error', (err: Error) => this.options.log.error({ err: { message: err.message } }, 'jobs platform error'));
    await boss.start();
    // One read of what exists; a restart then writes nothing when no queue's options changed.
    const existing = new Map((await boss.getQueues()).map((q) => [q.name, q as unknown as Record<string, unknown>]));
    for (const def of this.definitions.values()) {
      const dead = deadLetterName(def.name);
      if (!existing.has(dead)) await boss.createQueue(dead, { retentionSeconds: 30 * 86_400 });
      const options = {
        policy: def.policy ?? 'standard',
        retryLimit: def.retryLimit ?? 2,
        retryDelay: def.retryDelay ?? 5,
        retryBackoff: def.retryBackoff ?? true,
        ...(def.retryDelayMax ? { retryDelayMax: def.retryDelayMax } : {}),
        expireInSeconds: def.expireInSeconds ?? 3600,
        ...(def.heartbeatSeconds ? { heartbeatSeconds: def.heartbeatSeconds } : {}),
        deadLetter: dead,
      };
      const current = existing.get(def.name);
      if (!current) await boss.createQueue(def.name, options);
      else if (Object.entries(options).some(([key, value]) => key !== 'policy' && current[key] !== value)) {
        const { policy: _policy, ...changeable } = options;
        await boss.updateQueue(def.name, changeable);
      }
    }
    if (this.options.work) {
      for (const def of this.definitions.values()) await this.startWorker(boss, def);
    }
    this.boss = boss;
    if (this.options.work) {
      await this.beat();
      this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), HEARTBEAT_MS);
      this.heartbeat.unref();
    }
  }

  private async startWorker(boss: PgBoss, def: QueueDefinition<unknown>): Promise<void> {
    const id = await boss.work<object>(
      def.name,
      {
        includeMetadata: true,
        batchSize: 1,
        localConcurrency: def.concurrency ?? 1,
        pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2,
      },
      async (jobs: Job<object>[]) => {
        for (const job of jobs) await def.handler(toAttempt(job));
      },
    );
    this.workerIds.set(def.name, id);
  }

  async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
    // `serve` starts the platform shortly after it listens; a job sent earlier (the demo seed's
    // backfill, an on-demand run) starts it now instead of being refused.
    if (!this.boss && !this.stopped) await this.start();
    if (!this.boss) throw new Error('the jobs platform is stopped');
    const id = await this.boss.send(name, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.singletonSeconds ? { singletonSeconds: options.singletonSeconds } : {}),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    });
    // A worker of this process picks the job up now instead of at its next poll.
    const worker = this.workerIds.get(name);
    if (worker) this.boss.notifyWorker(worker);
    return id;
  }

  /**
   * Whether any process (this one or a `worker`) currently works `queue`, from the heartbeats the
   * working processes write. A run nobody can pick up stays queued and this says why.
   */
  async liveWorkers(queue: string): Promise<number> {
    if (this.options.work && this.definitions.has(queue)) return 1;
    const rows = await this.options.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM job_workers WHERE $1 = ANY(queues) AND last_seen_at > now() - make_interval(secs => $2)`,
      [queue, WORKER_STALE_SECONDS],
    );
    return Number(rows[0]?.n ?? 0);
  }

  private async beat(): Promise<void> {
    await this.options.db.query(
      `INSERT INTO job_workers (process_id, queues, started_at, last_seen_at) VALUES ($1, $2, now(), now())
       ON CONFLICT (process_id) DO UPDATE SET last_seen_at = now(), queues = EXCLUDED.queues`,
      [this.processId, [...this.definitions.keys()]],
    );
  }

  /** pg-boss itself, for layers built on this facade (the scheduler's cron). */
  get engine(): PgBoss {
    if (!this.boss) throw new Error('the jobs platform is not started');
    return this.boss;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => undefined);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const boss = this.boss;
    this.boss = undefined;
    this.starting = undefined;
    if (!boss) return;
    // Let running handlers finish (they hold their own transactions), then close pg-boss's pool.
    await boss.stop({ graceful: true, close: true, timeout: 30_000 });
    if (this.options.work) {
      await this.options.db
        .query('DELETE FROM job_workers WHERE process_id = $1', [this.processId])
        .catch(() => undefined);
    }
  }
}

const SUPERVISE_SECONDS = 15;

export function deadLetterName(queue: string): string {
  return `${queue}.dead`;
}

function toAttempt(job: JobWithMetadata<object> | Job<object>): JobAttempt<unknown> {
  const meta = job as JobWithMetadata<object>;
  const retryLimit = meta.retryLimit ?? 0;
  return {
    id: job.id,
    data: job.data,
    retryCount: job.retryCount,
    retryLimit,
    lastAttempt: job.retryCount >= retryLimit,
    signal: job.signal,
  };
}

/**
 * pg-boss on the same store: PGlite natively, PostgreSQL in a schema of its own. When the
 * service's tables live in a schema other than public (a search_path in DATABASE_URL, or the
 * tests' per-suite schemas), pg-boss uses `<schema>_boss`, so every process on that search_path,
 * `serve` or `worker`, meets in the same queues.
 */
async function createBoss(db: Database, superviseSeconds: number | undefined): Promise<PgBoss> {
  // How soon a job whose worker died (stale heartbeat) is failed and retried elsewhere: a pass every
  // superviseIntervalSeconds, each queue's check (monitorIntervalSeconds) at most that often, and
  // the queue state each process caches (queueCacheIntervalSeconds: a singleton queue's fetch skips
  // the keys it last saw active) read again that often.
  const supervision = superviseSeconds
    ? {
        superviseIntervalSeconds: superviseSeconds,
        monitorIntervalSeconds: superviseSeconds,
        queueCacheIntervalSeconds: superviseSeconds,
      }
    : { superviseIntervalSeconds: SUPERVISE_SECONDS };
  if (db instanceof PgliteDatabase) {
    return new PgBoss({
      db: fromPglite(db.forJobs()),
      backend: 'pglite',
      schema: 'pgboss',
      supervise: true,
      schedule: true,
      ...supervision,
    });
  }
  if (db instanceof PostgresDatabase) {
    const current = db.schema ?? (await db.query<{ s: string }>('SELECT current_schema() AS s'))[0]?.s ?? 'public';
    return new PgBoss({
      // The pool was opened from DATABASE_URL; pg-boss opens its own small pool on the same server.
      connectionString: db.pool.options.connectionString,
      schema: current === 'public' ? 'pgboss' : `${current}_boss`,
      max: 4,
      application_name: 'context-hub-jobs',
      ...supervision,
    });
  }
  throw new Error('unsupported store for the jobs platform');
}
