import type { SqlExecutor } from '../../platform/db/database.js';
import { ProviderError } from '../providers/index.js';
import type { ModelScope } from './model-graph.js';

/**
 * The statements ad_performance_daily is built with, shared by the whole-run build
 * (ad-performance.model.ts) and the chunk-by-chunk one (ad-performance.incremental.ts), so both
 * convert and sum in exactly the same way. Both read the rates from a temp table `run_fx`
 * (currency, date, src_rate, dst_rate), which each builds its own way.
 */

export const UNIQUE_VIOLATION = '23505';
export const SAVEPOINT = 'one_row_per_campaign_day';

// $1 project, $2 datastream, $3 reporting currency, $4 run, $5..$6 the window's dates (, $7 chunk).
const CONVERTED = (amount: string) =>
  `CASE WHEN r.currency::text = $3::text THEN ${amount} ELSE ${amount} * x.dst_rate / x.src_rate END`;
const FROM_RAW = `FROM raw_ad_records r JOIN run_fx x ON x.currency = r.currency AND x.date = r.date
  WHERE r.run_id = $4 AND r.date BETWEEN $5 AND $6`;
const COLUMNS = `project_id, datastream_id, date, campaign_id, campaign_name, channel, source_currency, currency,
  spend_source, revenue_source, spend, revenue, impressions, clicks, conversions`;

const insertOneRowPerDay = (where: string) => `WITH ins AS (
    INSERT INTO ad_performance_daily (${COLUMNS})
    SELECT $1, $2, r.date, r.campaign_id, r.campaign_name, r.channel, r.currency, $3::text, r.spend, r.revenue,
      round(${CONVERTED('r.spend')}, 6), round(${CONVERTED('r.revenue')}, 6), r.impressions, r.clicks, r.conversions
    ${FROM_RAW}${where}
    RETURNING 1)
  SELECT count(*) AS n FROM ins`;

/** Every raw row of the run, one to one. */
export const INSERT_ONE_ROW_PER_DAY = insertOneRowPerDay('');
/** One landed chunk's raw rows, one to one (raw_ad_records_run_chunk finds them). */
export const INSERT_CHUNK_ONE_ROW_PER_DAY = insertOneRowPerDay(' AND r.chunk = $7');

const INSERT_SUMMED = `WITH ins AS (
    INSERT INTO ad_performance_daily (${COLUMNS})
    SELECT $1, $2, r.date, r.campaign_id, max(r.campaign_name), max(r.channel), min(r.currency), $3::text, sum(r.spend), sum(r.revenue),
      round(sum(${CONVERTED('r.spend')}), 6), round(sum(${CONVERTED('r.revenue')}), 6), sum(r.impressions), sum(r.clicks), sum(r.conversions)
    ${FROM_RAW}
    GROUP BY r.date, r.campaign_id
    RETURNING 1)
  SELECT count(*) AS n FROM ins`;

/** $1..$6 of the statements above. */
export const modelParams = (s: ModelScope) => [s.projectId, s.datastreamId, s.reportingCurrency, s.runId, s.from, s.to];

export const DELETE_WINDOW =
  'DELETE FROM ad_performance_daily WHERE project_id = $1 AND datastream_id = $2 AND date BETWEEN $3 AND $4';
export const deleteParams = (s: ModelScope) => [s.projectId, s.datastreamId, s.from, s.to];

/**
 * Several source rows of one campaign-day (ad groups, placements) add up to one canonical row.
 * Sorted grouping in memory: a hash aggregate over a window of 1M campaign-days spills and is 2x
 * slower (measured, bench:ingest); both settings end with the transaction.
 */
export async function insertSummed(tx: SqlExecutor, s: ModelScope): Promise<number> {
  await tx.query("SET LOCAL work_mem = '256MB'");
  await tx.query('SET LOCAL enable_hashagg = off');
  const rows = await tx.query<{ n: number }>(INSERT_SUMMED, modelParams(s));
  await tx.query('SET LOCAL enable_hashagg = on');
  await tx.query("SET LOCAL work_mem = '64MB'");
  return Number(rows[0]?.n ?? 0);
}

/** The run's error when rates are missing: at most five currencies, each with its first date without one. */
export function missingRates(reportingCurrency: string, missing: { currency: string; date: string }[]): ProviderError {
  const list = missing.map((m) => `${m.currency} on ${m.date}`).join(', ');
  return new ProviderError(
    `no exchange rate to convert to ${reportingCurrency} for ${list} (none published on or before that date); load rates and retry`,
  );
}
