import { ProviderError } from '../providers/provider.js';
import type { ModelSpec } from './model-graph.js';

const UNIQUE_VIOLATION = '23505';

// $1 project, $2 datastream, $3 reporting currency, $4 run, $5..$6 the window's dates.
const CONVERTED = (amount: string) => `CASE WHEN r.currency::text = $3::text THEN ${amount} ELSE ${amount} * x.dst_rate / x.src_rate END`;
const FROM_RAW = `FROM raw_ad_records r JOIN run_fx x ON x.currency = r.currency AND x.date = r.date
  WHERE r.run_id = $4 AND r.date BETWEEN $5 AND $6`;
const COLUMNS = `project_id, datastream_id, date, campaign_id, campaign_name, channel, source_currency, currency,
  spend_source, revenue_source, spend, revenue, impressions, clicks, conversions`;

const INSERT_ONE_ROW_PER_DAY = `WITH ins AS (
    INSERT INTO ad_performance_daily (${COLUMNS})
    SELECT $1, $2, r.date, r.campaign_id, r.campaign_name, r.channel, r.currency, $3::text, r.spend, r.revenue,
      round(${CONVERTED('r.spend')}, 6), round(${CONVERTED('r.revenue')}, 6), r.impressions, r.clicks, r.conversions
    ${FROM_RAW}
    RETURNING 1)
  SELECT count(*) AS n FROM ins`;

const INSERT_SUMMED = `WITH ins AS (
    INSERT INTO ad_performance_daily (${COLUMNS})
    SELECT $1, $2, r.date, r.campaign_id, max(r.campaign_name), max(r.channel), min(r.currency), $3::text, sum(r.spend), sum(r.revenue),
      round(sum(${CONVERTED('r.spend')}), 6), round(sum(${CONVERTED('r.revenue')}), 6), sum(r.impressions), sum(r.clicks), sum(r.conversions)
    ${FROM_RAW}
    GROUP BY r.date, r.campaign_id
    RETURNING 1)
  SELECT count(*) AS n FROM ins`;

/**
 * Canonical campaign-day rows of one datastream, with spend and revenue converted to the
 * project's reporting currency at the rate of the spend date: fx_rates holds units per 1 EUR
 * (EUR implicit 1); the last published rate on or before the date applies (weekends, holidays,
 * and a stale feed). Rates are looked up once per (currency, date) pair, set-based.
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
    if (missing.length) {
      const list = missing.map((m) => `${m.currency} on ${m.date}`).join(', ');
      throw new ProviderError(`no exchange rate to convert to ${s.reportingCurrency} for ${list} (none published on or before that date); load rates and retry`);
    }
    await tx.query('DELETE FROM ad_performance_daily WHERE project_id = $1 AND datastream_id = $2 AND date BETWEEN $3 AND $4', [s.projectId, s.datastreamId, s.from, s.to]);
    const params = [s.projectId, s.datastreamId, s.reportingCurrency, s.runId, s.from, s.to];
    // Most providers send one row per campaign-day: copy rows straight across, and let the primary
    // key detect the exception. Summing in SQL costs a sort and an aggregate over the whole window
    // (about a quarter of the model step at 1M rows, bench:ingest), so it runs only when the key says it must.
    await tx.query('SAVEPOINT one_row_per_campaign_day');
    try {
      const rows = await tx.query<{ n: number }>(INSERT_ONE_ROW_PER_DAY, params);
      await tx.query('RELEASE SAVEPOINT one_row_per_campaign_day');
      return Number(rows[0]?.n ?? 0);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT one_row_per_campaign_day');
    }
    // Several source rows of one campaign-day (ad groups, placements) add up to one canonical row.
    // Sorted grouping in memory: a hash aggregate over a window of 1M campaign-days spills and is
    // 2x slower (measured, bench:ingest); both settings end with the transaction.
    await tx.query("SET LOCAL work_mem = '256MB'");
    await tx.query('SET LOCAL enable_hashagg = off');
    const rows = await tx.query<{ n: number }>(INSERT_SUMMED, params);
    await tx.query('SET LOCAL enable_hashagg = on');
    await tx.query("SET LOCAL work_mem = '64MB'");
    return Number(rows[0]?.n ?? 0);
  },
};
