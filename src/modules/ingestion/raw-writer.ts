import type { SqlExecutor } from '../../platform/db/database.js';
import type { CanonicalRecord } from '../providers/provider.js';

export const RAW_BATCH_ROWS = 5_000;

/**
 * Lands canonical records into raw_ad_records in batches of column arrays: one INSERT … SELECT
 * FROM unnest(…) per batch (DESIGN §2: never one INSERT per row). Memory stays one batch deep.
 */
export class RawWriter {
  private cols = emptyColumns();
  private count = 0;
  written = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly runId: string,
    private readonly datastreamId: string,
    private readonly batchRows = RAW_BATCH_ROWS,
  ) {}

  /** Adds one record; flushes when the batch is full (then the caller awaits the write). */
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

  async flush(): Promise<void> {
    if (this.count === 0) return;
    const c = this.cols;
    this.cols = emptyColumns();
    const n = this.count;
    this.count = 0;
    await this.db.query(
      `INSERT INTO raw_ad_records (run_id, datastream_id, date, campaign_id, campaign_name, channel, currency, spend, impressions, clicks, conversions, revenue)
       SELECT $1, $2, * FROM unnest($3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::int8[], $10::int8[], $11::numeric[], $12::numeric[])`,
      [this.runId, this.datastreamId, c.date, c.campaign_id, c.campaign_name, c.channel, c.currency, c.spend, c.impressions, c.clicks, c.conversions, c.revenue],
    );
    this.written += n;
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
