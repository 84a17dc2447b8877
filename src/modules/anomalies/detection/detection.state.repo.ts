import type { SqlExecutor } from '../../../platform/db/database.js';
import { addDays } from '../../../platform/calendar.js';
import { CONFIRMED_DAYS, EXPECTED_DAYS, NOT_CONFIRMED, NOT_FALSE_POSITIVE } from '../triage/triage.repo.js';
import type { Precedent, Precedents } from './rule/rule.series.js';

/**
 * The statements behind a series' carried state (detection.state.ts): what the stored days before
 * an evaluated range left behind, and what an evaluation saved for the day after its last.
 */

/*
 * Two statements readState issues, named so that the query-plan tests explain the
 * very text the evaluator runs: each must stay on an index of anomalies_daily (a one-day
 * evaluation reads a few stored rows per series, not the history).
 */

/** excludedDays: $1 project ids, $2 first day of the history, $3 first evaluated day. */
export const EXCLUDED_DAYS_SQL = `SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d FROM anomalies_daily a
     WHERE a.project_id = ANY($1::text[]) AND a.date >= $2::date AND a.date < $3::date AND a.excluded
       AND ${NOT_FALSE_POSITIVE}
     UNION
     ${EXPECTED_DAYS}`;

/**
 * The rows that carry a level-shift anchor or a run of fired days (same parameters): its condition
 * implies the predicate of the partial index anomalies_daily_state (migration 0031), which keeps it
 * off the rest of the history.
 */
export const CARRIED_STATE_SQL = `SELECT project_id, channel, metric, (date - DATE '2000-01-03') AS d, (anchor_date - DATE '2000-01-03') AS anchor,
       run_days, direction
     FROM anomalies_daily
     WHERE project_id = ANY($1::text[]) AND date >= $2::date AND date < $3::date
       AND (anchor_date IS NOT NULL OR run_days > 0)
     ORDER BY date`;

/**
 * The quiet days just before the range, of the series the pass evaluates ($1–$3: project, channel
 * and metric of each; $4 first day of the history, $5 first evaluated day, $6 the first quiet day
 * wanted): per series through the primary key, a few entries each, instead of a date condition
 * the key could only check on every stored day of the projects.
 */
export const QUIET_DAYS_SQL = `SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d, a.z
       FROM unnest($1::text[], $2::text[], $3::text[]) AS s(p, c, m)
       JOIN anomalies_daily a ON a.project_id = s.p AND a.channel = s.c AND a.metric = s.m
         AND a.date >= $4::date AND a.date >= $6::date AND a.date < $5::date
       WHERE a.status = 'ok' AND a.z <> 0
       ORDER BY a.date`;

/**
 * The single seam for days left out of baselines before the evaluated range: days stored as
 * excluded (fired, low volume) unless triaged `false_positive`, and days triaged `expected`
 * (triage/triage.repo.ts says why each).
 */
export async function excludedDays(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  from: string,
): Promise<{ project_id: string; channel: string; metric: string; d: number }[]> {
  return db.query(EXCLUDED_DAYS_SQL, [projectIds, historyFrom, from]);
}

/** A row that carries a level-shift anchor or a run of fired days (CARRIED_STATE_SQL). */
export interface CarriedRow {
  project_id: string;
  channel: string;
  metric: string;
  d: number;
  anchor: number | null;
  run_days: number;
  direction: 'spike' | 'drop' | null;
}

export async function readCarriedState(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  from: string,
): Promise<CarriedRow[]> {
  return db.query<CarriedRow>(CARRIED_STATE_SQL, [projectIds, historyFrom, from]);
}

/** The quiet days of the given series (QUIET_DAYS_SQL) from `firstQuiet` to the day before `from`. */
export async function readQuietRows(
  db: SqlExecutor,
  series: readonly (readonly [string, string, string])[],
  historyFrom: string,
  from: string,
  firstQuiet: string,
): Promise<{ project_id: string; channel: string; metric: string; d: number; z: number }[]> {
  return db.query(QUIET_DAYS_SQL, [
    series.map((x) => x[0]),
    series.map((x) => x[1]),
    series.map((x) => x[2]),
    historyFrom,
    from,
    firstQuiet,
  ]);
}

/**
 * What the precedent check (rule/rule.series.ts) needs of the days before an evaluated range, read
 * from the stored rows: per series and side, the deviations |value − expected| of the precedent
 * window that no later day before the range equals or beats (the rule's deque as the sequential
 * pass would have left it, so a one-day evaluation gives the rows a whole re-evaluation gives),
 * and the days people confirmed as incidents (never a precedent, before or inside the range).
 * Only days judged on a full baseline count, as in the rule.
 */

export interface PrecedentRow {
  project_id: string;
  channel: string;
  metric: string;
  side: 'spike' | 'drop';
  d: number;
  size: number;
}

export async function readPrecedents(
  db: SqlExecutor,
  projectIds: string[],
  from: string,
  days: number,
): Promise<PrecedentRow[]> {
  if (days <= 0) return [];
  return db.query<PrecedentRow>(
    `WITH dev AS (
       SELECT a.project_id, a.channel, a.metric, (a.date - DATE '2000-01-03') AS d,
         CASE WHEN a.value > a.baseline_mean THEN 'spike' ELSE 'drop' END AS side, abs(a.value - a.baseline_mean) AS size
       FROM anomalies_daily a
       WHERE a.project_id = ANY($1::text[]) AND a.date >= $2::date - $3::int AND a.date < $2::date
         AND a.baseline_mean IS NOT NULL AND a.value <> a.baseline_mean
         AND a.status IN ('ok', 'fired', 'precedented', 'explained') AND ${NOT_CONFIRMED}
     ),
     ranked AS (
       SELECT *, max(size) OVER (PARTITION BY project_id, channel, metric, side ORDER BY d DESC
         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later
       FROM dev
     )
     SELECT project_id, channel, metric, side, d, size FROM ranked
     WHERE later IS NULL OR size > later
     ORDER BY project_id, channel, metric, side, d`,
    [projectIds, from, days],
  );
}

/** Days of confirmed anomalies in [from − days, to], per series. */
export async function readConfirmedDays(
  db: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  days: number,
): Promise<{ project_id: string; channel: string; metric: string; d: number }[]> {
  if (days <= 0) return [];
  return db.query(CONFIRMED_DAYS, [projectIds, addDays(from, -days), to]);
}

/** What an evaluation saved of a series as of a day (detection.state.ts, writeSavedState). */
export interface SavedState {
  precedents: Precedents;
  /** The z of the quiet days ending that day, oldest first, for `sustainedDays`; null: not saved. */
  quiet: { sustainedDays: number; z: number[] } | null;
}

/**
 * The state an evaluation saved for the day after its last (detection.state.ts), per series key,
 * for the same precedent window. Deques are stored flat, [d, size, d, size, …] oldest first, per side.
 */
export async function readSavedState(
  db: SqlExecutor,
  projectIds: string[],
  asOf: string,
  days: number,
): Promise<Map<string, SavedState>> {
  const rows = await db.query<{
    project_id: string;
    channel: string;
    metric: string;
    spike_deque: number[];
    drop_deque: number[];
    sustained_days: number | null;
    quiet_z: number[] | null;
  }>(
    `SELECT project_id, channel, metric, spike_deque, drop_deque, sustained_days, quiet_z FROM anomaly_precedent_state
     WHERE project_id = ANY($1::text[]) AND as_of = $2::date AND precedent_days = $3::int`,
    [projectIds, asOf, days],
  );
  const unflat = (flat: number[]): Precedent[] => {
    const out: Precedent[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ d: Number(flat[i]), size: Number(flat[i + 1]) });
    return out;
  };
  return new Map(
    rows.map((r) => [
      `${r.project_id}\u0000${r.channel}\u0000${r.metric}`,
      {
        precedents: { spike: unflat(r.spike_deque), drop: unflat(r.drop_deque) },
        quiet:
          r.quiet_z === null || r.sustained_days === null
            ? null
            : { sustainedDays: Number(r.sustained_days), z: r.quiet_z.map(Number) },
      },
    ]),
  );
}

/**
 * Drops the saved state of the projects dated on or after `from` (the evaluation rewrote the rows
 * it was read from) or older than the `savedDays` kept before `to`.
 */
export async function dropSavedState(
  tx: SqlExecutor,
  projectIds: string[],
  from: string,
  to: string,
  savedDays: number,
): Promise<void> {
  await tx.query(
    `DELETE FROM anomaly_precedent_state
     WHERE project_id = ANY($1::text[]) AND (as_of >= $2::date OR as_of <= $3::date - $4::int)`,
    [projectIds, from, to, savedDays],
  );
}

/** A saved day of a series: project, channel, metric, day number, then the deques and quiet z as array text. */
export type SavedStateRow = [string, string, string, number, string, string, string];

export async function insertSavedState(
  tx: SqlExecutor,
  rows: readonly SavedStateRow[],
  days: number,
  sustainedDays: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO anomaly_precedent_state (project_id, channel, metric, as_of, precedent_days, spike_deque, drop_deque,
       sustained_days, quiet_z)
     SELECT p, c, m, DATE '2000-01-03' + a, $5::int, s::float8[], d::float8[], $8::int, q::float8[]
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $6::text[], $7::text[], $9::text[]) AS t(p, c, m, a, s, d, q)
     -- Saved meanwhile by an evaluation of the same project that committed first: replaced.
     ON CONFLICT (project_id, channel, metric, as_of) DO UPDATE SET precedent_days = EXCLUDED.precedent_days,
       spike_deque = EXCLUDED.spike_deque, drop_deque = EXCLUDED.drop_deque,
       sustained_days = EXCLUDED.sustained_days, quiet_z = EXCLUDED.quiet_z`,
    [
      rows.map((r) => r[0]),
      rows.map((r) => r[1]),
      rows.map((r) => r[2]),
      rows.map((r) => r[3]),
      days,
      rows.map((r) => r[4]),
      rows.map((r) => r[5]),
      sustainedDays,
      rows.map((r) => r[6]),
    ],
  );
}
