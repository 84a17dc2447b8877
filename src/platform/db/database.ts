/**
 * The one seam through which all SQL runs (like pg-boss's executeSql): repositories receive a
 * `SqlExecutor` and never know whether it is embedded PGlite or a PostgreSQL pool. Both speak the
 * same dialect and `$n` parameters; value parsing is normalized here (int8/numeric as numbers,
 * `date` as 'YYYY-MM-DD' strings) so no caller has to care which store answered.
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Only PostgreSQL: starts `COPY … FROM STDIN` on this executor's connection. Bulk writers use it
   * when present (several times cheaper per row than parameter arrays) and fall back to batched
   * statements without it; no other statement may run on the executor until `end()` settles.
   */
  copyIn?(sql: string): CopyIn;
}

/** An open COPY … FROM STDIN. */
export interface CopyIn {
  /**
   * Queues bytes of the COPY's text; answers a promise only when the queue is long enough that
   * the caller should wait for the server to catch up (what it has not taken yet stays queued).
   */
  write(chunk: Uint8Array): Promise<void> | undefined;
  /** Ends the COPY; resolves once the server has taken every row, rejects with its error. */
  end(): Promise<void>;
}

export type StoreKind = 'pglite' | 'postgres';

export type NotificationHandler = (payload: string) => void;

export interface Database extends SqlExecutor {
  readonly kind: StoreKind;
  /** Set when several deployments share one database (a schema each): NOTIFY channels carry it. */
  readonly namespace?: string;
  /** Runs `fn` in one transaction; a throw rolls everything back. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations). */
  exec(script: string): Promise<void>;
  /** Holds a session-level advisory lock around `fn` (migrations, singleton work). */
  withAdvisoryLock<T>(key: number, fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; every replica attached to the database receives NOTIFY payloads. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Only a store this process alone can reach (embedded PGlite): how many protocol rounds have run
   * on it, counting every path (services, jobs, scripts). Unchanged means nothing read or wrote
   * the data since, which lets a reader reuse what it last read without asking again.
   */
  roundsRun?(): number;
  /**
   * Only the embedded store: a gzip tarball of its data directory, taken while no statement runs,
   * that PGlite opens again as it is (`loadDataDir`). PostgreSQL is backed up with pg_dump.
   */
  snapshot?(): Promise<Uint8Array>;
}

/** OIDs whose parsing differs between drivers by default. */
export const OID = { int8: 20, numeric: 1700, date: 1082 } as const;

export const parseInt8 = (value: string): number => Number(value);
export const parseNumeric = (value: string): number => Number(value);
export const parseDate = (value: string): string => value;

/** Quotes an identifier for the few places that need a dynamic name (schema names in tests). */
export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return `"${name}"`;
}
