import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';

/**
 * The parts of PGlite this runner leans on beyond its documented API: the two mutexes its own
 * `query` and `transaction` take, and the merged type parsers. Pinned by package-lock and covered
 * by the storage contract tests, which run every repository on this path.
 */
interface PgliteInternals {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  parsers: Parameters<typeof parse.parseResults>[1];
}

/** SQLSTATEs after which a cached statement must be prepared again (plan result type changed; statement gone). */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

/**
 * Runs parameterized statements on PGlite as named prepared statements, each call one protocol
 * round: Bind/Describe/Execute/Sync (plus Parse the first time a text is seen).
 *
 * PGlite's own `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six separate
 * round trips into the WASM backend and re-plans every time: several times the cost of one round
 * for a one-row read, and half of the demo hub's cheapest tool call (BENCHMARKS.md, mcp notes).
 * Parameters are serialized the way node-postgres serializes them (its `prepareValue`, types left
 * for the server to infer), so a repository's SQL behaves the same on both stores.
 */
export class PgliteStatements {
  /** SQL text → statement name, in least-recently-used order (a Map keeps insertion order). */
  private readonly names = new Map<string, string>();
  /** Statements to deallocate with the next round (evicted, or possibly half-made by a failed Parse). */
  private closing: string[] = [];
  private counter = 0;

  constructor(
    private readonly pglite: PGlite,
    /** Distinct statement texts kept prepared; dynamic SQL beyond this is re-prepared as it comes. */
    private readonly capacity = 512,
  ) {}

  private get internals(): PgliteInternals {
    return this.pglite as unknown as PgliteInternals;
  }

  /** One statement outside any transaction: takes both of PGlite's locks, as its `query` does. */
  async query<T>(text: string, params: readonly unknown[]): Promise<T[]> {
    const rows = await this.internals._runExclusiveTransaction(() =>
      this.internals._runExclusiveQuery(() => this.run<T>(text, params, true)),
    );
    await this.pglite.syncToFs();
    return rows;
  }

  /** One statement inside a transaction whose lock the caller holds. */
  queryInTransaction<T>(text: string, params: readonly unknown[]): Promise<T[]> {
    return this.internals._runExclusiveQuery(() => this.run<T>(text, params, false));
  }

  private async run<T>(text: string, params: readonly unknown[], mayRetry: boolean): Promise<T[]> {
    const parts: Uint8Array[] = this.closing.map((name) => protocol.serialize.close({ type: 'S', name }));
    this.closing = [];
    let name = this.names.get(text);
    const preparing = name === undefined;
    if (name === undefined) {
      name = `ch_${++this.counter}`;
      parts.push(protocol.serialize.parse({ name, text, types: [] }));
    } else {
      this.names.delete(text);
      this.names.set(text, name);
    }
    const values = params.map((value) => pgUtils.prepareValue(value) as string | Buffer | null);
    parts.push(
      protocol.serialize.bind({ statement: name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    );
    let messages: Awaited<ReturnType<PGlite['execProtocol']>>['messages'];
    try {
      ({ messages } = await this.pglite.execProtocol(Buffer.concat(parts), { syncToFs: false }));
    } catch (error) {
      if (preparing) {
        // The Parse may have succeeded before Bind or Execute failed; Close of a missing statement is no error.
        this.closing.push(name);
      } else if (STALE_STATEMENT_CODES.has((error as { code?: string }).code ?? '')) {
        this.names.delete(text);
        this.closing.push(name);
        // Outside a transaction nothing was aborted, so one fresh Parse can answer the same call.
        if (mayRetry) return this.run(text, params, false);
      }
      throw error;
    }
    if (preparing) {
      this.names.set(text, name);
      if (this.names.size > this.capacity) {
        const [oldestText, oldestName] = this.names.entries().next().value as [string, string];
        this.names.delete(oldestText);
        this.closing.push(oldestName);
      }
    }
    const [result] = parse.parseResults(messages, this.internals.parsers, {}, undefined);
    return (result?.rows ?? []) as T[];
  }
}
