import type { SqlExecutor } from '../../platform/db/database.js';

/** SQL over fx_rates and fx_rate_loads; no rules. Rates travel as decimal text to stay exact. */

export interface RateRow {
  currency: string;
  rate_per_eur: string;
  rate_date: string;
  source: string;
}

/** Rows per INSERT: big enough that a 217k-row history is a dozen statements, small enough for any driver. */
const BATCH = 25_000;

export interface RateColumns {
  currencies: string[];
  dates: string[];
  rates: string[];
}

/**
 * Inserts rates in batches through unnest arrays; existing (currency, rate_date) rows are kept as
 * they are (stored rates are never rewritten). Answers how many rows were new.
 */
export async function insertRates(
  db: SqlExecutor,
  columns: RateColumns,
  source: string,
  fetchedAt: Date,
): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < columns.currencies.length; start += BATCH) {
    const end = start + BATCH;
    const rows = await db.query<{ n: number }>(
      `WITH added AS (
         INSERT INTO fx_rates (currency, rate_date, rate_per_eur, source, fetched_at)
         SELECT c, d, r, $4, $5 FROM unnest($1::text[], $2::date[], $3::numeric[]) AS t(c, d, r)
         ON CONFLICT (currency, rate_date) DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS n FROM added`,
      [
        columns.currencies.slice(start, end),
        columns.dates.slice(start, end),
        columns.rates.slice(start, end),
        source,
        fetchedAt,
      ],
    );
    inserted += Number(rows[0]?.n ?? 0);
  }
  return inserted;
}

/**
 * Adds a feed's rates in one pass per batch: rows the store lacks are inserted, rows it has are
 * kept and counted when the feed states them differently (stored rates are never rewritten).
 */
export async function mergeRates(
  db: SqlExecutor,
  columns: RateColumns,
  source: string,
  fetchedAt: Date,
): Promise<{ inserted: number; differing: number }> {
  let inserted = 0;
  let differing = 0;
  for (let start = 0; start < columns.currencies.length; start += BATCH) {
    const end = start + BATCH;
    const rows = await db.query<{ inserted: number; differing: number }>(
      `WITH feed AS MATERIALIZED (
         SELECT t.c, t.d, t.r, f.rate_per_eur AS stored
         FROM unnest($1::char(3)[], $2::date[], $3::numeric[]) AS t(c, d, r)
         LEFT JOIN fx_rates f ON f.currency = t.c AND f.rate_date = t.d),
       added AS (
         INSERT INTO fx_rates (currency, rate_date, rate_per_eur, source, fetched_at)
         SELECT c, d, r, $4, $5 FROM feed WHERE stored IS NULL
         ON CONFLICT (currency, rate_date) DO NOTHING
         RETURNING 1)
       SELECT (SELECT count(*) FROM added)::int AS inserted,
              (SELECT count(*) FROM feed WHERE stored IS NOT NULL AND stored <> r)::int AS differing`,
      [
        columns.currencies.slice(start, end),
        columns.dates.slice(start, end),
        columns.rates.slice(start, end),
        source,
        fetchedAt,
      ],
    );
    inserted += Number(rows[0]?.inserted ?? 0);
    differing += Number(rows[0]?.differing ?? 0);
  }
  return { inserted, differing };
}

/** The last publication day on or before `date` (weekends and holidays fall back to it). */
export async function lastRateDateOnOrBefore(db: SqlExecutor, date: string): Promise<string | undefined> {
  const rows = await db.query<{ d: string | null }>('SELECT max(rate_date) AS d FROM fx_rates WHERE rate_date <= $1', [
    date,
  ]);
  return rows[0]?.d ?? undefined;
}

export async function historyBounds(db: SqlExecutor): Promise<{ first: string; last: string } | undefined> {
  const rows = await db.query<{ first: string | null; last: string | null }>(
    'SELECT min(rate_date) AS first, max(rate_date) AS last FROM fx_rates',
  );
  const row = rows[0];
  return row?.first && row.last ? { first: row.first, last: row.last } : undefined;
}

export async function ratesOn(db: SqlExecutor, date: string): Promise<RateRow[]> {
  return db.query<RateRow>(
    `SELECT currency, rate_per_eur::text AS rate_per_eur, rate_date, source FROM fx_rates WHERE rate_date = $1 ORDER BY currency`,
    [date],
  );
}

/** Each currency's last rate on or before `date` (the lookup spend conversion uses). */
export async function lastRatesOnOrBefore(db: SqlExecutor, currencies: string[], date: string): Promise<RateRow[]> {
  return db.query<RateRow>(
    `SELECT c.currency, f.rate_per_eur::text AS rate_per_eur, f.rate_date, f.source
     FROM unnest($1::char(3)[]) AS c(currency)
     CROSS JOIN LATERAL (
       SELECT rate_per_eur, rate_date, source FROM fx_rates
       WHERE currency = c.currency AND rate_date <= $2 ORDER BY rate_date DESC LIMIT 1
     ) f`,
    [currencies, date],
  );
}

/**
 * Every currency ever quoted, by skipping through the primary key one currency at a time (a
 * handful of index probes instead of scanning 200k rows).
 */
export async function knownCurrencies(db: SqlExecutor): Promise<string[]> {
  const rows = await db.query<{ currency: string }>(
    `WITH RECURSIVE codes AS (
       (SELECT currency FROM fx_rates ORDER BY currency LIMIT 1)
       UNION ALL
       SELECT (SELECT f.currency FROM fx_rates f WHERE f.currency > codes.currency ORDER BY f.currency LIMIT 1)
       FROM codes WHERE codes.currency IS NOT NULL)
     SELECT currency FROM codes WHERE currency IS NOT NULL`,
  );
  return rows.map((r) => r.currency);
}

export interface LoadRecord {
  kind: 'snapshot' | 'feed';
  source: string;
  checksum: string | null;
  status: 'loaded' | 'failed';
  detail: string | null;
  daysInFeed: number;
  ratesInserted: number;
  firstDate: string | null;
  lastDate: string | null;
  startedAt: Date;
  finishedAt: Date;
}

export async function recordLoad(db: SqlExecutor, load: LoadRecord): Promise<void> {
  await db.query(
    `INSERT INTO fx_rate_loads (kind, source, checksum, status, detail, days_in_feed, rates_inserted, first_date, last_date, started_at, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      load.kind,
      load.source,
      load.checksum,
      load.status,
      load.detail,
      load.daysInFeed,
      load.ratesInserted,
      load.firstDate,
      load.lastDate,
      load.startedAt,
      load.finishedAt,
    ],
  );
}

export async function snapshotLoaded(db: SqlExecutor, checksum: string): Promise<boolean> {
  const rows = await db.query(
    "SELECT 1 FROM fx_rate_loads WHERE kind = 'snapshot' AND status = 'loaded' AND checksum = $1 LIMIT 1",
    [checksum],
  );
  return rows.length > 0;
}

export interface LastRefresh {
  status: 'loaded' | 'failed';
  detail: string | null;
  finished_at: Date;
  last_date: string | null;
}

export async function lastRefresh(db: SqlExecutor): Promise<LastRefresh | undefined> {
  const rows = await db.query<LastRefresh>(
    "SELECT status, detail, finished_at, last_date FROM fx_rate_loads WHERE kind = 'feed' ORDER BY id DESC LIMIT 1",
  );
  return rows[0];
}
