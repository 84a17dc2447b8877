import { followLandingChunks } from './ad-performance.incremental.js';
import {
  DELETE_WINDOW,
  deleteParams,
  INSERT_ONE_ROW_PER_DAY,
  insertSummed,
  missingRates,
  modelParams,
  SAVEPOINT,
  UNIQUE_VIOLATION,
} from './ad-performance.sql.js';
import type { ModelSpec } from './model-graph.js';

/**
 * Canonical campaign-day rows of one datastream, with spend and revenue converted to the
 * project's reporting currency at the rate of the spend date: fx_rates holds units per 1 EUR
 * (EUR implicit 1); the last published rate on or before the date applies (weekends, holidays,
 * and a stale feed). Rates are looked up once per (currency, date) pair, set-based.
 *
 * `build` converts the whole run after it landed (PGlite); `incremental` converts each landed
 * chunk while the next one lands (PostgreSQL, ad-performance.incremental.ts). Both write the same rows.
 */
export const adPerformanceDaily: ModelSpec = {
  name: 'ad_performance_daily',
  dependsOn: [],
  async build(tx, s) {
    // Compare as char(3), the column's type: a text comparison would bypass fx_rates' primary key
    // and scan the whole rate history once per pair.
    await tx.query(
      `CREATE TEMP TABLE run_fx ON COMMIT DROP AS
       WITH pairs AS (SELECT DISTINCT currency, date FROM raw_ad_records WHERE run_id = $1)
       SELECT p.currency, p.date,
         CASE WHEN p.currency = 'EUR' THEN 1::numeric ELSE src.rate_per_eur END AS src_rate,
         CASE WHEN $2::char(3) = 'EUR' THEN 1::numeric ELSE dst.rate_per_eur END AS dst_rate
       FROM pairs p
       LEFT JOIN LATERAL (SELECT rate_per_eur FROM fx_rates f WHERE f.currency = p.currency AND f.rate_date <= p.date ORDER BY f.rate_date DESC LIMIT 1) src ON p.currency <> $2::char(3)
       LEFT JOIN LATERAL (SELECT rate_per_eur FROM fx_rates f WHERE f.currency = $2::char(3) AND f.rate_date <= p.date ORDER BY f.rate_date DESC LIMIT 1) dst ON p.currency <> $2::char(3)`,
      [s.runId, s.reportingCurrency],
    );
    // A fresh temp table has no statistics; without them the planner may loop over it per raw row.
    await tx.query('ANALYZE run_fx');
    const missing = await tx.query<{ currency: string; date: string }>(
      `SELECT currency, min(date) AS date FROM run_fx WHERE currency <> $1::char(3) AND (src_rate IS NULL OR dst_rate IS NULL) GROUP BY currency ORDER BY currency LIMIT 5`,
      [s.reportingCurrency],
    );
    if (missing.length) throw missingRates(s.reportingCurrency, missing);
    await tx.query(DELETE_WINDOW, deleteParams(s));
    // Most providers send one row per campaign-day: copy rows straight across, and let the primary
    // key detect the exception. Summing in SQL costs a sort and an aggregate over the whole window
    // (about a quarter of the model step at 1M rows, bench:ingest), so it runs only when the key says it must.
    await tx.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const rows = await tx.query<{ n: number }>(INSERT_ONE_ROW_PER_DAY, modelParams(s));
      await tx.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      return Number(rows[0]?.n ?? 0);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await tx.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
    }
    return insertSummed(tx, s);
  },
  incremental: followLandingChunks,
};
