import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { CopyIn, Database, NotificationHandler, SqlExecutor } from './database.js';
import { OID, parseDate, parseInt8, parseNumeric, quoteIdent } from './database.js';
import { asUnavailable, isConnectionLoss } from './connection-loss.js';

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === OID.int8) return parseInt8;
    if (oid === OID.numeric) return parseNumeric;
    if (oid === OID.date) return parseDate;
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresOptions {
  url: string;
  /** Tables live in this schema (tests give every suite its own); extensions stay in public. */
  schema?: string;
  maxConnections?: number;
}

/** The LISTEN connection's name in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'context-hub-listen';
/** The pool's connections' name in pg_stat_activity (operators and tests find them by it). */
export const POOL_APPLICATION_NAME = 'context-hub';
const RELISTEN_FIRST_DELAY_MS = 250;
const RELISTEN_MAX_DELAY_MS = 30_000;

/**
 * PostgreSQL through a pool; LISTEN runs on one dedicated connection, reconnected when it is lost
 * (notifications sent while it was down are not replayed: readers that cache bound their age).
 */
export class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly schema: string | undefined;
  readonly namespace: string | undefined;
  private listenClient: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private readonly url: string;
  private readonly poolConfig: pg.PoolConfig;
  private currentPool: pg.Pool;

  constructor(options: PostgresOptions) {
    this.url = options.url;
    this.schema = options.schema;
    this.namespace = options.schema;
    this.poolConfig = {
      connectionString: options.url,
      application_name: POOL_APPLICATION_NAME,
      max: options.maxConnections ?? 10,
      types: typeParsers,
      ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)},public` } : {}),
    };
    this.currentPool = this.newPool();
  }

  /** The pool in use now: replaced when a connection is found lost (see replacePool). */
  get pool(): pg.Pool {
    return this.currentPool;
  }

  private newPool(): pg.Pool {
    const pool = new pg.Pool(this.poolConfig);
    // An idle client that errors (server restart) must not crash the process. Its siblings were
    // most likely cut by the same event: start over with fresh connections.
    pool.on('error', (error) => {
      if (isConnectionLoss(error)) this.replacePool(pool);
    });
    return pool;
  }

  /**
   * A failover or restart ends every session at once, but an idle pooled connection only learns it
   * when its socket is next read: a retry could be handed one more dead connection. So the first
   * loss seen on a pool retires the whole pool (clients checked out finish on it, idle ones end)
   * and every later query, a retry included, connects anew. A loss reported by an already retired
   * pool changes nothing.
   */
  private replacePool(failed: pg.Pool): void {
    if (failed !== this.currentPool || this.closing) return;
    this.currentPool = this.newPool();
    void failed.end().catch(() => undefined);
  }

  async query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    const pool = this.currentPool;
    try {
      const result = await pool.query(text, params as unknown[]);
      return result.rows as T[];
    } catch (error) {
      throw this.lost(pool, error);
    }
  }

  /** Connection losses become DatabaseUnavailableError (and retire the pool); other errors pass. */
  private lost(pool: pg.Pool, error: unknown): unknown {
    if (!isConnectionLoss(error)) return error;
    this.replacePool(pool);
    return asUnavailable(error);
  }

  async exec(script: string): Promise<void> {
    const pool = this.currentPool;
    try {
      await pool.query(script);
    } catch (error) {
      throw this.lost(pool, error);
    }
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const pool = this.currentPool;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw this.lost(pool, error);
    }
    // A checked-out client has no listener of the pool's: the socket ending under the
    // transaction would otherwise be an unhandled 'error' event, which ends the process.
    let broken: unknown;
    const onError = (error: unknown) => {
      broken ??= error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const executor: SqlExecutor = {
        query: async <R>(text: string, params: readonly unknown[] = []) =>
          (await client.query(text, params as unknown[])).rows as R[],
        copyIn: (sql: string) => openCopy(client, sql),
      };
      const result = await fn(executor);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      broken ??= isConnectionLoss(error) ? error : undefined;
      throw this.lost(pool, error);
    } finally {
      client.off('error', onError);
      // A connection that failed is destroyed, never handed to the next caller.
      client.release(broken !== undefined);
    }
  }

  async withAdvisoryLock<T>(key: number, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
      return fn(tx);
    });
  }

  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    const client = await this.ensureListenClient();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    }
    set.add(handler);
    return async () => {
      set!.delete(handler);
    };
  }

  private listenConnecting: Promise<pg.Client> | undefined;
  private relistenTimer: NodeJS.Timeout | undefined;
  private relistenDelayMs = RELISTEN_FIRST_DELAY_MS;

  private ensureListenClient(): Promise<pg.Client> {
    if (this.listenClient) return Promise.resolve(this.listenClient);
    this.listenConnecting ??= this.connectListenClient().finally(() => (this.listenConnecting = undefined));
    return this.listenConnecting;
  }

  private async connectListenClient(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, application_name: LISTEN_APPLICATION_NAME });
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    // The connection can end under us (a database restart, a failover, a proxy's idle timeout):
    // without a new one this replica would stop hearing other replicas for good.
    const lost = () => {
      if (this.listenClient !== client) return;
      this.listenClient = undefined;
      this.scheduleRelisten();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    if (this.closing) {
      await client.end().catch(() => undefined);
      throw new Error('the store is closed');
    }
    this.listenClient = client;
    return client;
  }

  /** Reconnects the LISTEN connection and listens on every channel again, backing off while it fails. */
  private scheduleRelisten(): void {
    if (this.closing || this.relistenTimer) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      void this.relisten();
    }, this.relistenDelayMs);
    this.relistenTimer.unref();
  }

  private async relisten(): Promise<void> {
    if (this.closing) return;
    try {
      const client = await this.ensureListenClient();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      this.relistenDelayMs = RELISTEN_FIRST_DELAY_MS;
    } catch {
      this.relistenDelayMs = Math.min(this.relistenDelayMs * 2, RELISTEN_MAX_DELAY_MS);
      const client = this.listenClient;
      this.listenClient = undefined;
      await client?.end().catch(() => undefined);
      this.scheduleRelisten();
    }
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  private closing: Promise<void> | undefined;

  /** Idempotent: several shutdown paths (a signal, app.close, a test's cleanup) may each close the store. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.relistenTimer) clearTimeout(this.relistenTimer);
      await this.listenConnecting?.catch(() => undefined);
      await this.listenClient?.end().catch(() => undefined);
      this.listenClient = undefined;
      await this.currentPool.end();
    })();
    return this.closing;
  }
}

/** Bytes queued ahead of the server before a COPY writer is asked to wait: the writer keeps
 * computing while the server inserts what it was given (two cores: both busy), within bounds. */
const COPY_QUEUE_BYTES = 8 << 20;

/**
 * COPY … FROM STDIN on a checked-out client (pg-copy-streams). The stream reports a server error
 * as an event without ending, so every wait races it; the transaction's own error handling then
 * rolls back.
 */
function openCopy(client: pg.PoolClient, sql: string): CopyIn {
  const stream = client.query(copyFrom(sql));
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);
  stream.on('error', (error: Error) => fail(error));
  return {
    write(chunk) {
      stream.write(chunk);
      if (stream.writableLength < COPY_QUEUE_BYTES) return undefined;
      return Promise.race([once(stream, 'drain').then(() => undefined), failed]);
    },
    async end() {
      stream.end();
      await Promise.race([finished(stream), failed]);
    },
  };
}
