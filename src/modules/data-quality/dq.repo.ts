import type { SqlExecutor } from '../../platform/db/database.js';
import type { CheckResult } from './dq.types.js';

export interface LedgerRow {
  id: string;
  seq: number;
  project_id: string;
  monitor: string;
  datastream_id: string | null;
  dataset: string;
  status: CheckResult['status'];
  observed: number | null;
  threshold: number | null;
  run_id: string | null;
  started_at: Date;
  finished_at: Date;
  message: string;
}

/** Appends one ledger row per check in one statement; answers the stored rows. */
export async function insertChecks(db: SqlExecutor, rows: Omit<LedgerRow, 'seq'>[]): Promise<LedgerRow[]> {
  return db.query<LedgerRow>(
    `INSERT INTO dq_checks (id, project_id, monitor, datastream_id, dataset, status, observed, threshold, run_id, started_at, finished_at, message)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::text[])
     RETURNING *`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.project_id),
      rows.map((r) => r.monitor),
      rows.map((r) => r.datastream_id),
      rows.map((r) => r.dataset),
      rows.map((r) => r.status),
      rows.map((r) => r.observed),
      rows.map((r) => r.threshold),
      rows.map((r) => r.run_id),
      rows.map((r) => r.started_at),
      rows.map((r) => r.finished_at),
      rows.map((r) => r.message),
    ],
  );
}

/** Checks of the last 7 days before `now`, and how many passed. */
export async function passRate(
  db: SqlExecutor,
  projectId: string,
  now: Date,
): Promise<{ total: number; passed: number } | undefined> {
  const [rate] = await db.query<{ total: number; passed: number }>(
    `SELECT count(*) AS total, count(*) FILTER (WHERE status = 'pass') AS passed FROM dq_checks WHERE project_id = $1 AND finished_at > $2::timestamptz - interval '7 days'`,
    [projectId, now],
  );
  return rate;
}

/** The latest check of each (monitor, datastream) that failed or errored, newest first. */
export async function openFailures(db: SqlExecutor, projectId: string): Promise<LedgerRow[]> {
  return db.query<LedgerRow>(
    `SELECT * FROM (SELECT DISTINCT ON (monitor, datastream_id) * FROM dq_checks WHERE project_id = $1 ORDER BY monitor, datastream_id, seq DESC) latest
     WHERE status IN ('fail', 'error') ORDER BY seq DESC`,
    [projectId],
  );
}

/** Each datastream of the project with the newest date it has in ad_performance_daily. */
export async function datastreamFreshness(
  db: SqlExecutor,
  projectId: string,
): Promise<{ id: string; name: string; timezone: string; last_date: string | null }[]> {
  return db.query<{ id: string; name: string; timezone: string; last_date: string | null }>(
    `SELECT d.id, d.name, d.timezone, (SELECT max(date) FROM ad_performance_daily a WHERE a.project_id = d.project_id AND a.datastream_id = d.id) AS last_date
     FROM datastreams d WHERE d.project_id = $1 ORDER BY d.name`,
    [projectId],
  );
}

/** The ledger, newest first, keyset on seq; `status` null means every status. */
export async function listChecks(
  db: SqlExecutor,
  q: { projectId: string; beforeSeq: number | null; status: string | null; limit: number },
): Promise<LedgerRow[]> {
  return db.query<LedgerRow>(
    `SELECT * FROM dq_checks WHERE project_id = $1 AND ($2::bigint IS NULL OR seq < $2) AND ($3::text IS NULL OR status = $3) ORDER BY seq DESC LIMIT $4`,
    [q.projectId, q.beforeSeq, q.status, q.limit],
  );
}

/** The newest date a datastream has in ad_performance_daily (null: none). */
export async function newestDate(db: SqlExecutor, projectId: string, datastreamId: string): Promise<string | null> {
  return (
    (
      await db.query<{ d: string | null }>(
        'SELECT max(date) AS d FROM ad_performance_daily WHERE project_id = $1 AND datastream_id = $2',
        [projectId, datastreamId],
      )
    )[0]?.d ?? null
  );
}

/** Rows of ad_performance_daily on `day`, and the mean and count of the up to 28 days before it that have rows. */
export async function volumeStats(
  db: SqlExecutor,
  projectId: string,
  datastreamId: string,
  day: string,
): Promise<{ today: number; mean: number | null; days: number }[]> {
  return db.query<{ today: number; mean: number | null; days: number }>(
    `WITH per_day AS (SELECT date, count(*) AS n FROM ad_performance_daily WHERE project_id = $3 AND datastream_id = $1 AND date BETWEEN $2::date - 28 AND $2::date GROUP BY date)
     SELECT coalesce((SELECT n FROM per_day WHERE date = $2::date), 0) AS today,
       (SELECT avg(n)::float8 FROM per_day WHERE date < $2::date) AS mean, (SELECT count(*) FROM per_day WHERE date < $2::date) AS days`,
    [datastreamId, day, projectId],
  );
}

/** A run's raw records, and how many have an empty campaign_id, campaign_name or channel. */
export async function emptyKeyCounts(db: SqlExecutor, runId: string): Promise<{ n: number; empty: number }> {
  return (
    await db.query<{ n: number; empty: number }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE btrim(campaign_id) = '' OR btrim(campaign_name) = '' OR btrim(channel) = '') AS empty FROM raw_ad_records WHERE run_id = $1`,
      [runId],
    )
  )[0]!;
}

/** A run's raw records, and how many distinct ones (identical in every column count once). */
export async function duplicateCounts(db: SqlExecutor, runId: string): Promise<{ n: number; distinct_n: number }> {
  return (
    await db.query<{ n: number; distinct_n: number }>(
      `SELECT count(*) AS n, count(DISTINCT (date, campaign_id, campaign_name, channel, currency, spend, impressions, clicks, conversions, revenue)) AS distinct_n
     FROM raw_ad_records WHERE run_id = $1`,
      [runId],
    )
  )[0]!;
}

/**
 * Each currency-day a run's spend needs a rate for (its currency and the reporting currency, EUR
 * needs none), with the age in days of the newest rate at or before that day (null: no rate).
 */
export async function rateAges(
  db: SqlExecutor,
  runId: string,
  reportingCurrency: string,
): Promise<{ currency: string; date: string; age: number | null }[]> {
  return db.query<{ currency: string; date: string; age: number | null }>(
    `WITH pairs AS (SELECT DISTINCT currency::text AS currency, date FROM raw_ad_records WHERE run_id = $1 AND spend <> 0),
     needed AS (SELECT currency, date FROM pairs WHERE currency <> $2::text AND currency <> 'EUR'
                UNION SELECT $2::text, date FROM pairs WHERE $2::text <> 'EUR' AND currency <> $2::text)
     SELECT n.currency, n.date, n.date - (SELECT max(rate_date) FROM fx_rates f WHERE f.currency = n.currency AND f.rate_date <= n.date) AS age FROM needed n`,
    [runId, reportingCurrency],
  );
}

/** Channels and currencies in a run's raw records that the datastream's data before `before` never had. */
export async function unseenValues(
  db: SqlExecutor,
  q: { runId: string; datastreamId: string; before: string; projectId: string },
): Promise<{ kind: string; value: string }[]> {
  return db.query<{ kind: string; value: string }>(
    `SELECT 'channel' AS kind, channel AS value FROM (SELECT DISTINCT channel FROM raw_ad_records WHERE run_id = $1) r
       WHERE EXISTS (SELECT 1 FROM ad_performance_daily WHERE project_id = $4 AND datastream_id = $2 AND date < $3)
         AND NOT EXISTS (SELECT 1 FROM ad_performance_daily a WHERE a.project_id = $4 AND a.datastream_id = $2 AND a.date < $3 AND a.channel = r.channel)
     UNION ALL
     SELECT 'currency', currency FROM (SELECT DISTINCT currency::text AS currency FROM raw_ad_records WHERE run_id = $1) r
       WHERE EXISTS (SELECT 1 FROM ad_performance_daily WHERE project_id = $4 AND datastream_id = $2 AND date < $3)
         AND NOT EXISTS (SELECT 1 FROM ad_performance_daily a WHERE a.project_id = $4 AND a.datastream_id = $2 AND a.date < $3 AND a.source_currency::text = r.currency)
     ORDER BY 1, 2`,
    [q.runId, q.datastreamId, q.before, q.projectId],
  );
}
