import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type pg from 'pg';
import type { SqlExecutor } from '../../platform/db/database.js';
import type { PostgresDatabase } from '../../platform/db/postgres.js';
import type { LandingChunk } from '../models/index.js';
import type { CanonicalRecord } from '../providers/index.js';
import { RawCsvEncoder, WRITE_BYTES } from './raw-writer.csv.js';

export const RAW_BATCH_ROWS = 5_000;
const COLUMNS =
  'run_id, datastream_id, date, campaign_id, campaign_name, channel, currency, spend, impressions, clicks, conversions, revenue';

/** Lands canonical records into raw_ad_records; memory stays one batch deep whatever the window. */
export interface RawLander {
  /** Adds one record; returns a promise when the caller must wait (a batch is being written). */
  add(r: CanonicalRecord): Promise<void> | undefined;
  /** Writes what is buffered and ends the load. */
  finish(): Promise<void>;
  /** Stops a load that failed half-way (nothing more is written). */
  abort(): Promise<void>;
}

/**
 * One INSERT … SELECT FROM unnest(column arrays) per batch, never one INSERT per row.
 */
export class UnnestLander implements RawLander {
  private cols = emptyColumns();
  private count = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly runId: string,
    private readonly datastreamId: string,
    private readonly batchRows = RAW_BATCH_ROWS,
  ) {}

  add(r: CanonicalRecord): Promise<void> | undefined {
    const c = this.cols;
    c.date.push(r.date);
    c.campaign_id.push(r.campaign_id);
    c.campaign_name.push(r.campaign_name);
    c.channel.push(r.channel);
    c.currency.push(r.currency);
    c.spend.push(r.spend);
    c.impressions.push(r.impressions);
    c.clicks.push(r.clicks);
    c.conversions.push(r.conversions);
    c.revenue.push(r.revenue);
    this.count += 1;
    return this.count >= this.batchRows ? this.flush() : undefined;
  }

  private async flush(): Promise<void> {
    if (this.count === 0) return;
    const c = this.cols;
    this.cols = emptyColumns();
    this.count = 0;
    await this.db.query(
      `INSERT INTO raw_ad_records (${COLUMNS})
       SELECT $1, $2, * FROM unnest($3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::int8[], $10::int8[], $11::numeric[], $12::numeric[])`,
      [
        this.runId,
        this.datastreamId,
        c.date,
        c.campaign_id,
        c.campaign_name,
        c.channel,
        c.currency,
        c.spend,
        c.impressions,
        c.clicks,
        c.conversions,
        c.revenue,
      ],
    );
  }

  finish(): Promise<void> {
    return this.flush();
  }

  async abort(): Promise<void> {
    this.cols = emptyColumns();
    this.count = 0;
  }
}

/** CSV text field: always quoted, quotes doubled (names may hold commas, quotes, newlines). */
const q = (text: string) => (text.includes('"') ? `"${text.replaceAll('"', '""')}"` : `"${text}"`);

/** Rows per COPY statement (and per handed-over chunk) unless the caller says otherwise. */
export const LANDING_CHUNK_ROWS = 50_000;

/**
 * PostgreSQL: the run lands in chunks of `chunkRows` records, each one COPY … FROM STDIN on one
 * dedicated connection, committed on its own and numbered in the `chunk` column. `onChunk` hears of
 * each chunk once it is committed, so the model transaction (another connection) converts it while
 * the next one lands. Text goes out in ~256 KiB writes with backpressure, and the next chunk's COPY
 * is queued before the previous one has finished: memory stays flat and the connection never idles.
 */
export class ChunkedCopyLander implements RawLander {
  private readonly csv: RawCsvEncoder;
  private stream: CopyStream | undefined;
  private index = 0;
  private rows = 0;
  /** The previous chunk's commit and hand-over; at most one is outstanding. */
  private previous: Promise<void> = Promise.resolve();
  private released = false;
  /**
   * The first error of any chunk's COPY. pg-copy-streams emits a server error as an event without
   * marking the stream errored, so waits on a stream would never hear of it: every wait races this.
   */
  private error: Error | undefined;
  private readonly failed: Promise<never>;
  private fail!: (error: Error) => void;

  private constructor(
    private readonly client: pg.PoolClient,
    runId: string,
    datastreamId: string,
    private readonly chunkRows: number,
    private readonly onChunk: (chunk: LandingChunk) => void,
  ) {
    this.csv = new RawCsvEncoder(`${q(runId)},${q(datastreamId)},`);
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    // Observed through the races below (or not at all when nothing fails).
    this.failed.catch(() => undefined);
    // The pool listens for errors on idle clients only: a checked-out connection that dies under
    // the COPY (failover, restart, a proxy's timeout) would be an unhandled 'error' event, which
    // ends the process. Here it fails the landing like any COPY error.
    client.on('error', this.onConnectionError);
  }

  private readonly onConnectionError = (error: Error): void => {
    this.error ??= error;
    this.fail(this.error);
  };

  static async open(
    db: PostgresDatabase,
    runId: string,
    datastreamId: string,
    chunkRows: number,
    onChunk: (chunk: LandingChunk) => void,
  ): Promise<ChunkedCopyLander> {
    if (!(chunkRows >= 1)) throw new Error(`landing chunk size must be at least 1 row, not ${chunkRows}`);
    return new ChunkedCopyLander(await db.pool.connect(), runId, datastreamId, chunkRows, onChunk);
  }

  add(r: CanonicalRecord): Promise<void> | undefined {
    if (this.error) throw this.error;
    if (!this.stream) this.startChunk();
    this.csv.row(r);
    this.rows += 1;
    if (this.rows >= this.chunkRows) return this.endChunk();
    if (this.csv.size < WRITE_BYTES) return undefined;
    return this.stream!.write(this.csv.take()) ? undefined : this.drain(this.stream!);
  }

  private startChunk(): void {
    // pg queues this COPY behind the one still finishing; the stream holds writes until it starts.
    const stream = this.client.query(copyFrom(`COPY raw_ad_records (${COLUMNS}, chunk) FROM STDIN WITH (FORMAT csv)`));
    stream.on('error', (error: Error) => {
      this.error ??= error;
      this.fail(this.error);
    });
    this.stream = stream;
    this.csv.endRowsWith(`,${this.index}\n`);
  }

  /** Ends the current COPY; resolves once the chunk before it is committed and handed over. */
  private endChunk(): Promise<void> {
    const stream = this.stream!;
    const chunk: LandingChunk = { index: this.index, rows: this.rows };
    stream.end(this.csv.take());
    this.stream = undefined;
    this.index += 1;
    this.rows = 0;
    const committed = Promise.race([finished(stream), this.failed]).then(() => this.onChunk(chunk));
    // Awaited at the next chunk's end (or in finish); until then a failure must not count as unhandled.
    committed.catch(() => undefined);
    const before = this.previous;
    this.previous = committed;
    return before;
  }

  private async drain(stream: CopyStream): Promise<void> {
    await Promise.race([once(stream, 'drain'), this.failed]);
  }

  async finish(): Promise<void> {
    try {
      if (this.error) throw this.error;
      if (this.stream) await this.endChunk();
      await this.previous;
      this.release();
    } catch (error) {
      this.release(error as Error);
      throw error;
    }
  }

  async abort(): Promise<void> {
    // Destroying the connection aborts the COPY server-side; the pool replaces the client. Chunks
    // already committed stay in raw_ad_records until the datastream's next run clears them.
    this.stream?.destroy();
    this.stream = undefined;
    this.release(new Error('copy aborted'));
  }

  /** Once only: abort() follows a finish() that failed. An error makes the pool drop the connection. */
  private release(error?: Error): void {
    if (this.released) return;
    this.released = true;
    this.client.off('error', this.onConnectionError);
    this.client.release(error);
  }
}

type CopyStream = ReturnType<typeof copyFrom>;

function emptyColumns() {
  return {
    date: [] as string[],
    campaign_id: [] as string[],
    campaign_name: [] as string[],
    channel: [] as string[],
    currency: [] as string[],
    spend: [] as number[],
    impressions: [] as number[],
    clicks: [] as number[],
    conversions: [] as number[],
    revenue: [] as number[],
  };
}
