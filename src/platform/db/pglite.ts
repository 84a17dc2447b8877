import fs from 'node:fs';
import { PGlite, type PGliteOptions, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Database, NotificationHandler, SqlExecutor } from './database.js';
import { ensureWritableDir, lockDataDir } from './data-dir-lock.js';
import { PgliteStatements } from './pglite-statements.js';
import { OID, parseDate, parseInt8, parseNumeric } from './database.js';

const parsers = {
  [OID.int8]: parseInt8,
  [OID.numeric]: parseNumeric,
  [OID.date]: parseDate,
};

export interface PgliteOptions {
  /** Directory of the data files; undefined keeps everything in memory (tests). */
  dataDir?: string;
  /** A tarball of a prepared data directory, used when `dataDir` is new, to skip initdb. */
  templateTarball?: string;
  /**
   * The in-memory filesystem to open on, already holding a data directory (the test stores load
   * the template into it in one pass: test/support/pglite-template-fs.ts). Without `dataDir`.
   */
  filesystem?: PGliteOptions['fs'];
}

/**
 * PostgreSQL's buffer cache inside the embedded store (the data directory's postgresql.conf, from
 * initdb, says 128MB). PGlite reserves and first-touches it at every open, which costs page
 * faults in proportion to its size. 32MB slowed a large ingest's model build (pages evicted and
 * re-read through the WASM file layer); 64MB measured the same as 128MB there, and search was
 * unchanged even at 32MB (BENCHMARKS.md, startup notes).
 */
export const EMBEDDED_SHARED_BUFFERS = '64MB';

/** The embedded store: one PGlite instance owned by this process. */
export class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  private readonly statements: PgliteStatements;
  private rounds = 0;

  private constructor(readonly pglite: PGlite) {
    this.statements = new PgliteStatements(pglite);
    // Every query, script, transaction and job statement reaches the WASM backend through this
    // one method; counting there cannot miss a path (see Database.roundsRun).
    const runRound = pglite.execProtocolRawSync.bind(pglite);
    pglite.execProtocolRawSync = (message: Uint8Array) => {
      this.rounds += 1;
      return runRound(message);
    };
  }

  roundsRun(): number {
    return this.rounds;
  }

  static async open(options: PgliteOptions = {}): Promise<PgliteDatabase> {
    let isNew = true;
    let release: (() => void) | undefined;
    if (options.dataDir) {
      ensureWritableDir(options.dataDir);
      release = lockDataDir(options.dataDir);
      isNew = !fs.existsSync(`${options.dataDir}/PG_VERSION`);
    }
    try {
      return await PgliteDatabase.create(options, isNew, release);
    } catch (error) {
      release?.();
      throw error;
    }
  }

  private static async create(
    options: PgliteOptions,
    isNew: boolean,
    release: (() => void) | undefined,
  ): Promise<PgliteDatabase> {
    const loadDataDir =
      isNew && options.templateTarball && fs.existsSync(options.templateTarball)
        ? new Blob([fs.readFileSync(options.templateTarball)])
        : undefined;
    const pglite = await PGlite.create({
      dataDir: options.dataDir,
      extensions: { pg_trgm },
      parsers,
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
      ...(loadDataDir ? { loadDataDir } : {}),
      ...(options.filesystem ? { fs: options.filesystem } : {}),
    });
    const db = new PgliteDatabase(pglite);
    db.releaseDataDir = release;
    return db;
  }

  /** Gives up the claim on the data directory (lockDataDir), once the store is closed. */
  private releaseDataDir: (() => void) | undefined;

  async query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.statements.query<T>(text, params);
  }

  /**
   * The PGlite instance as pg-boss's adapter (`fromPglite`) sees it: its parameterized statements
   * (job fetches, heartbeats, completions) take the prepared-statement path too. On the embedded
   * store every statement blocks the event loop while it runs, so the job platform's polling cost
   * is paid by request latency.
   */
  forJobs(): PGlite {
    const statements = this.statements;
    const pglite = this.pglite;
    return new Proxy(pglite, {
      get(target, property) {
        if (property === 'query') {
          return async (text: string, values?: unknown[]) => ({ rows: await statements.query(text, values ?? []) });
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  async exec(script: string): Promise<void> {
    await this.pglite.exec(script);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (tx) => {
      const executor: SqlExecutor = {
        query: <R>(text: string, params: readonly unknown[] = []) => {
          if (tx.closed) throw new Error('query on a finished transaction');
          return this.statements.queryInTransaction<R>(text, params);
        },
      };
      return fn(executor);
    });
  }

  async withAdvisoryLock<T>(key: number, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    // One process owns the embedded store and PGlite serializes transactions, so the transaction is the lock.
    return this.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
      return fn(tx);
    });
  }

  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    return this.pglite.listen(channel, handler);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pglite.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async ping(): Promise<void> {
    await this.pglite.query('SELECT 1');
  }

  private closing: Promise<void> | undefined;

  /** Idempotent, like PostgresDatabase.close: concurrent and repeated calls share one close. */
  close(): Promise<void> {
    this.closing ??= (this.pglite.closed ? Promise.resolve() : this.pglite.close()).finally(() =>
      this.releaseDataDir?.(),
    );
    return this.closing;
  }

  /**
   * A consistent copy of the running store. PGlite runs the dump while it holds its query lock, so
   * no statement runs during it; a transaction left open between statements is in the files like
   * after a crash, and the restored store's startup recovery (WAL replay) rolls it back. The
   * CHECKPOINT first writes the buffer cache out, so the copy needs little of that recovery.
   */
  async snapshot(): Promise<Uint8Array> {
    await this.pglite.exec('CHECKPOINT');
    return new Uint8Array(await (await this.dump()).arrayBuffer());
  }

  /** A tarball of the data directory, for preparing the first-start template. */
  async dump(): Promise<Blob> {
    return (await this.pglite.dumpDataDir('gzip')) as Blob;
  }
}

export { types as pgliteTypes };
