import type { SqlExecutor } from '../../platform/db/database.js';
import {
  DELETE_WINDOW,
  deleteParams,
  INSERT_CHUNK_ONE_ROW_PER_DAY,
  insertSummed,
  missingRates,
  modelParams,
  SAVEPOINT,
  UNIQUE_VIOLATION,
} from './ad-performance.sql.js';
import type { IncrementalBuild, LandingChunk, ModelScope } from './model-graph.js';

/**
 * The rates of every currency fx_rates knows (and EUR) on every date of the window, built before
 * any raw row exists: the run's own (currency, date) pairs are not known until it has landed. It is
 * small (≈ 40 currencies × the window's days) and holds only pairs that convert: a raw row whose
 * pair is absent finds no partner in the insert's join, which is how a chunk reveals a missing
 * rate (fewer rows written than landed). The reporting currency is kept without rates: its amounts
 * are copied as they are. Values are those the whole-run build looks up (same lateral lookups).
 */
const CREATE_RUN_FX = `CREATE TEMP TABLE run_fx ON COMMIT DROP AS
  WITH currencies AS (SELECT DISTINCT currency FROM fx_rates UNION SELECT 'EUR'::char(3)),
  days AS (
    SELECT d::date AS date,
      CASE WHEN $1::char(3) = 'EUR' THEN 1::numeric
        ELSE (SELECT rate_per_eur FROM fx_rates f WHERE f.currency = $1::char(3) AND f.rate_date <= d::date ORDER BY f.rate_date DESC LIMIT 1) END AS dst_rate
    FROM generate_series($2::date, $3::date, interval '1 day') d)
  SELECT c.currency, d.date, CASE WHEN c.currency = 'EUR' THEN 1::numeric ELSE src.rate_per_eur END AS src_rate, d.dst_rate
  FROM currencies c CROSS JOIN days d
  LEFT JOIN LATERAL (SELECT rate_per_eur FROM fx_rates f WHERE f.currency = c.currency AND f.rate_date <= d.date ORDER BY f.rate_date DESC LIMIT 1) src ON c.currency <> 'EUR'
  WHERE c.currency <> $1::char(3) AND d.dst_rate IS NOT NULL AND (c.currency = 'EUR' OR src.rate_per_eur IS NOT NULL)
  UNION ALL
  SELECT $1::char(3), d.date, NULL::numeric, NULL::numeric FROM days d`;

/** The run's pairs without a rate, as the whole-run build reports them (first date per currency). */
const MISSING_RATES = `SELECT r.currency, min(r.date) AS date
  FROM (SELECT DISTINCT currency, date FROM raw_ad_records WHERE run_id = $1) r
  WHERE r.currency <> $2::char(3) AND NOT EXISTS (SELECT 1 FROM run_fx x WHERE x.currency = r.currency AND x.date = r.date)
  GROUP BY r.currency ORDER BY r.currency LIMIT 5`;

/**
 * ad_performance_daily built along the landing (ModelSpec.incremental): the window is deleted and a
 * savepoint set up front, then each landed chunk's rows are copied across one to one. A duplicate
 * campaign-day (in one chunk or across two) trips the primary key: everything copied so far rolls
 * back to the savepoint and, once the whole run has landed, the grouped insert sums it, exactly
 * as the whole-run build does.
 */
export async function followLandingChunks(tx: SqlExecutor, s: ModelScope): Promise<IncrementalBuild> {
  await tx.query(CREATE_RUN_FX, [s.reportingCurrency, s.from, s.to]);
  // A fresh temp table has no statistics; without them the planner may loop over it per raw row.
  await tx.query('ANALYZE run_fx');
  await tx.query(DELETE_WINDOW, deleteParams(s));
  await tx.query(`SAVEPOINT ${SAVEPOINT}`);
  return new ChunkByChunk(tx, s);
}

class ChunkByChunk implements IncrementalBuild {
  private copied = 0;
  /** A duplicate campaign-day was found: the run is summed once it has landed. */
  private summing = false;
  /** A chunk wrote fewer rows than it landed: some pair has no rate (checked over the whole run at the end). */
  private ratesMissing = false;

  constructor(
    private readonly tx: SqlExecutor,
    private readonly s: ModelScope,
  ) {}

  async addChunk(chunk: LandingChunk): Promise<void> {
    // Either way the rows copied so far are not the result: converting more would be wasted.
    if (this.summing || this.ratesMissing) return;
    try {
      const rows = await this.tx.query<{ n: number }>(INSERT_CHUNK_ONE_ROW_PER_DAY, [
        ...modelParams(this.s),
        chunk.index,
      ]);
      const n = Number(rows[0]?.n ?? 0);
      this.copied += n;
      if (n < chunk.rows) this.ratesMissing = true;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await this.tx.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      this.summing = true;
    }
  }

  async finish(): Promise<number> {
    // The summing path never looked at the chunks after the duplicate, so it checks the whole run too.
    if (this.ratesMissing || this.summing) {
      const missing = await this.tx.query<{ currency: string; date: string }>(MISSING_RATES, [
        this.s.runId,
        this.s.reportingCurrency,
      ]);
      if (missing.length) throw missingRates(this.s.reportingCurrency, missing);
      if (this.ratesMissing)
        throw new Error('ad_performance_daily: a chunk wrote fewer rows than it landed, yet every rate is there');
    }
    if (!this.summing) {
      await this.tx.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      return this.copied;
    }
    return insertSummed(this.tx, this.s);
  }
}
