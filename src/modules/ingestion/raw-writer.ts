import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { PostgresDatabase } from '../../platform/db/postgres.js';
import type { CanonicalRecord } from '../providers/provider.js';

export const RAW_BATCH_ROWS = 5_000;
const COLUMNS = 'run_id, datastream_id, date, campaign_id, campaign_name, channel, currency, spend, impressions, clicks, conversions, revenue';

/** Lands canonical records into raw_ad_records; memory stays one batch deep whatever the window. */
export interface RawLander {
  /** Adds one record; returns a promise when the caller must wait (a batch is being written). */
  add(r: CanonicalRecord): Promise<void> | undefined;
  /** Writes what is buffered and ends the load. */
  finish(): Promise<void>;
  /** Stops a load that failed half-way (nothing more is written). */
  abort(): Promise<void>;
}

/** COPY on PostgreSQL (the bulk path), unnest batches on PGlite. */
export async function openRawLander(db: Database, runId: string, datastreamId: string): Promise<RawLander> {
  if (db instanceof PostgresDatabase) return CopyLander.open(db, runId, datastreamId);
  return new UnnestLander(db, runId, datastreamId);
}

/**
 * One INSERT … SELECT FROM unnest(column arrays) per batch (DESIGN §2: never one INSERT per row).
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
      [this.runId, this.datastreamId, c.date, c.campaign_id, c.campaign_name, c.channel, c.currency, c.spend, c.impressions, c.clicks, c.conversions, c.revenue],
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

/**
 * One COPY … FROM STDIN for the whole run on a dedicated connection, fed in ~256 KiB chunks with
 * backpressure: the fastest way into PostgreSQL, and memory stays flat.
 */
export class CopyLander implements RawLander {
  private buffer = '';
  private readonly prefix: string;

  private constructor(
    private readonly release: (error?: Error) => void,
    private readonly stream: NodeJS.WritableStream & import('node:stream').Writable,
    runId: string,
    datastreamId: string,
  ) {
    this.prefix = `${q(runId)},${q(datastreamId)},`;
  }

  static async open(db: PostgresDatabase, runId: string, datastreamId: string): Promise<CopyLander> {
    const client = await db.pool.connect();
    const stream = client.query(copyFrom(`COPY raw_ad_records (${COLUMNS}) FROM STDIN WITH (FORMAT csv)`));
    // An error surfaces through write/finish; this listener keeps it from being unhandled meanwhile.
    stream.on('error', () => undefined);
    return new CopyLander((error) => client.release(error), stream, runId, datastreamId);
  }

  add(r: CanonicalRecord): Promise<void> | undefined {
    this.buffer += `${this.prefix}${r.date},${q(r.campaign_id)},${q(r.campaign_name)},${q(r.channel)},${q(r.currency)},${r.spend},${r.impressions},${r.clicks},${r.conversions},${r.revenue}\n`;
    if (this.buffer.length < 256 * 1024) return undefined;
    const chunk = this.buffer;
    this.buffer = '';
    return this.stream.write(chunk) ? undefined : this.drain();
  }

  private async drain(): Promise<void> {
    await Promise.race([once(this.stream, 'drain'), once(this.stream, 'error').then(([e]) => Promise.reject(e))]);
  }

  async finish(): Promise<void> {
    try {
      this.stream.end(this.buffer);
      this.buffer = '';
      await finished(this.stream);
      this.release();
    } catch (error) {
      this.release(error as Error);
      throw error;
    }
  }

  async abort(): Promise<void> {
    // Destroying the connection aborts the COPY server-side; the pool replaces the client.
    this.stream.destroy();
    this.release(new Error('copy aborted'));
  }
}

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
