import type { CopyIn, SqlExecutor } from '../../../platform/db/database.js';
import { METRICS, TOTAL_CHANNEL, type Metric } from '../anomalies.schemas.js';
import type { CoveringEvent } from './rule/rule.series.js';

/**
 * The SQL of an evaluation: the points it reads, the range it replaces, the rows it writes, the
 * expected events it reads and the episodes it rebuilds. The per-series state carried between
 * evaluations has its own statements (detection.state.repo.ts).
 */

/** A day of one (project, channel) with every metric of kpis_daily, d its day number. */
export type SourceRow = { project_id: string; channel: string; d: number } & Record<Metric, number | null>;

/**
 * The metrics as stored (numeric, bigint), in one text field per row, made numbers on our side.
 * PostgreSQL's numeric → float8 cast is float8in of numeric_out's text, and Number() of the same
 * text is the same correctly rounded double. Two measured reasons, both PGlite's (BENCHMARKS.md,
 * anomalies notes): in its WASM build the cast's strtod cost ~1.7 µs a value, and each result
 * field ~1.8 µs of protocol and parsing, so nine fields cost more than the query itself.
 */
const METRICS_TEXT = `concat_ws(',', ${METRICS.map((m) => `coalesce(${m}::text, '')`).join(', ')})`;

/** One metric of the packed text: '' is NULL. */
function metricValue(text: string | undefined): number | null {
  return text === undefined || text === '' ? null : Number(text);
}

export async function readPoints(
  db: SqlExecutor,
  projectIds: string[],
  historyFrom: string,
  to: string,
  channel: string | null,
): Promise<SourceRow[]> {
  const rows = await db.query<{ project_id: string; channel: string; d: number; m: string }>(
    `WITH base AS (
       SELECT project_id, date, channel, spend, revenue, conversions, clicks, impressions, roas, cpa, ctr, cvr
       FROM kpis_daily WHERE project_id = ANY($1::text[]) AND date BETWEEN $2::date AND $3::date
     ),
     src AS (
       SELECT * FROM base
       UNION ALL
       SELECT project_id, date, '${TOTAL_CHANNEL}', sum(spend), sum(revenue), sum(conversions), sum(clicks), sum(impressions),
         sum(revenue) / NULLIF(sum(spend), 0), sum(spend) / NULLIF(sum(conversions), 0),
         sum(clicks)::numeric / NULLIF(sum(impressions), 0), sum(conversions) / NULLIF(sum(clicks), 0)
       FROM base GROUP BY project_id, date
     )
     SELECT project_id, channel, (date - DATE '2000-01-03') AS d, ${METRICS_TEXT} AS m
     FROM src WHERE $4::text IS NULL OR channel = $4
     ORDER BY project_id COLLATE "C", channel COLLATE "C", date`,
    [projectIds, historyFrom, to, channel],
  );
  return rows.map((r) => {
    const v = r.m.split(',');
    const point = { project_id: r.project_id, channel: r.channel, d: r.d } as SourceRow;
    for (let k = 0; k < METRICS.length; k += 1) point[METRICS[k]!] = metricValue(v[k]);
    return point;
  });
}

/** A JIT compilation cost more than the pass's statements ever saved (BENCHMARKS.md, anomalies notes). */
export async function disableJit(tx: SqlExecutor): Promise<void> {
  await tx.query('SET LOCAL jit = off');
}

/**
 * The rows an evaluation replaces ($1 project ids, $2 and $3 the range). The primary key cannot
 * bound a project's dates (they come after the series), so it reads the projects' entries: only
 * for projects whose evaluated days reach the range (STORED_FROM_SQL).
 */
export const DELETE_RANGE_SQL =
  'DELETE FROM anomalies_daily WHERE project_id = ANY($1::text[]) AND date BETWEEN $2 AND $3';

/**
 * The projects ($1) that may have stored rows from $2 on: no row is dated after the last day an
 * evaluation of its project reached (migration 0041), so a new day's evaluation deletes nothing
 * and skips the statement.
 */
export const STORED_FROM_SQL =
  'SELECT project_id FROM anomaly_evaluated_through WHERE project_id = ANY($1::text[]) AND through >= $2::date';

/** Moves each project's last evaluated day ($1 ids) forward to $2, in the evaluation's transaction. */
const ADVANCE_THROUGH_SQL = `INSERT INTO anomaly_evaluated_through (project_id, through)
  SELECT p, $2::date FROM unnest($1::text[]) AS p
  ON CONFLICT (project_id) DO UPDATE SET through = greatest(anomaly_evaluated_through.through, EXCLUDED.through)`;

/**
 * Deletes the stored rows of [from, to] of the projects, then records that their evaluation
 * reaches `to`.
 */
export async function replaceRange(tx: SqlExecutor, projectIds: string[], from: string, to: string): Promise<void> {
  const stored = (await tx.query<{ project_id: string }>(STORED_FROM_SQL, [projectIds, from])).map((r) => r.project_id);
  if (stored.length) await tx.query(DELETE_RANGE_SQL, [stored, from, to]);
  await tx.query(ADVANCE_THROUGH_SQL, [projectIds, to]);
}

/** What the rule needs of an event: its identity and the days of its active window. */
export interface ExpectedEvent extends CoveringEvent {
  project_id: string;
  event_date: string;
  /** (end_date or event_date) + impact_window_days: the last day of the active window. */
  active_until: string;
}

/**
 * The events of the given types whose active window touches [from, to], for every project of a
 * pass in one query (oldest first, then by id: the order that decides which event names a day).
 */
export async function readExpectedEvents(
  db: SqlExecutor,
  projectIds: string[],
  types: readonly string[],
  from: string,
  to: string,
): Promise<ExpectedEvent[]> {
  if (!types.length || !projectIds.length) return [];
  return db.query<ExpectedEvent>(
    `SELECT project_id, id, title, event_type, event_date::text AS event_date,
       (COALESCE(end_date, event_date) + impact_window_days)::text AS active_until
     FROM context_events
     WHERE project_id = ANY($1::text[]) AND event_type = ANY($2::text[])
       AND event_date <= $4::date AND COALESCE(end_date, event_date) + impact_window_days >= $3::date
     ORDER BY project_id COLLATE "C", event_date, id COLLATE "C"`,
    [projectIds, [...types], from, to],
  );
}

/** The columns of anomalies_daily in the order the row encoder writes them (detection.write.ts). */
const COLUMNS = `project_id, date, metric, channel, value, baseline_mean, baseline_stddev, training_size, window_from,
  window_to, seasonality, z, relative_change, threshold, min_relative_change, min_abs_change, watch, direction, fired,
  score, severity, kind, status, excluded, anchor_date, run_days, model, precedent, explained_by_channel,
  explained_by_metric, explained_by_event`;

/** How many columns COLUMNS names: the field count of every encoded row. */
export const ROW_FIELD_COUNT = 31;

/** A binary COPY into anomalies_daily, on a store that has COPY (PostgreSQL); else undefined. */
export function copyRows(tx: SqlExecutor): CopyIn | undefined {
  return tx.copyIn ? tx.copyIn(`COPY anomalies_daily (${COLUMNS}) FROM STDIN (FORMAT binary)`) : undefined;
}

/** The OID of the `anomaly_row` composite (made by the store's own migration). */
export async function anomalyRowType(tx: SqlExecutor): Promise<number> {
  return (await tx.query<{ oid: number }>(`SELECT 'anomaly_row'::regtype::oid::int AS oid`))[0]!.oid;
}

/** Inserts one binary array of `anomaly_row` composites (migration 0040). */
export async function insertRowArray(tx: SqlExecutor, rows: Buffer): Promise<void> {
  await tx.query(`INSERT INTO anomalies_daily (${COLUMNS}) SELECT * FROM unnest($1::anomaly_row[])`, [rows]);
}

/** Days before the range a level shift took back into the baseline: no longer excluded. */
export async function readmit(
  tx: SqlExecutor,
  back: readonly (readonly [project: string, channel: string, metric: string, d: number])[],
): Promise<void> {
  if (!back.length) return;
  await tx.query(
    `UPDATE anomalies_daily a SET excluded = false
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t(p, c, m, d)
     WHERE a.project_id = t.p AND a.channel = t.c AND a.metric = t.m AND a.date = DATE '2000-01-03' + t.d`,
    [back.map((b) => b[0]), back.map((b) => b[1]), back.map((b) => b[2]), back.map((b) => b[3])],
  );
}

/**
 * Anomalies as people read them: a maximal run of consecutive fired days of one series on one side
 * is one anomaly (an episode), with a stable id derived from (project, metric, channel, first_date).
 * Episodes are derived from the fired rows of anomalies_daily after each evaluation, so they can
 * never disagree with the days.
 */

/** The id of the episode that starts on first_date; the migration backfill uses the same formula. */
export const EPISODE_ID_SQL = `'anom_' || substr(md5(project_id || '|' || metric || '|' || channel || '|' || min(date)::text), 1, 24)`;

/**
 * Rebuilds the episodes the evaluation of [from, to] can have changed: those overlapping
 * [from − 1, to + 1] (a run can grow into, or start next to, the range), recomputed over their
 * whole extent per series. A series without such an episode has no fired day at from − 1 or to + 1,
 * so its runs inside [from, to] are complete.
 */
export async function rebuildEpisodes(tx: SqlExecutor, projectIds: string[], from: string, to: string): Promise<void> {
  const gone = await tx.query<{ project_id: string; channel: string; metric: string; lo: string; hi: string }>(
    `WITH gone AS (
       DELETE FROM anomaly_episodes WHERE project_id = ANY($1::text[]) AND last_date >= $2::date - 1 AND first_date <= $3::date + 1
       RETURNING project_id, channel, metric, first_date, last_date)
     SELECT project_id, channel, metric, min(first_date) AS lo, max(last_date) AS hi FROM gone GROUP BY 1, 2, 3`,
    [projectIds, from, to],
  );
  await tx.query(
    `WITH ext AS (
       SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::date[], $8::date[]) AS t(project_id, channel, metric, lo, hi)
     ),
     days AS (
       SELECT a.project_id, a.channel, a.metric, a.date, a.direction, a.kind, a.value, a.baseline_mean, a.z, a.score, a.severity
       FROM anomalies_daily a
       WHERE a.project_id = ANY($1::text[]) AND a.fired AND a.date BETWEEN $2::date AND $3::date
       UNION ALL
       SELECT a.project_id, a.channel, a.metric, a.date, a.direction, a.kind, a.value, a.baseline_mean, a.z, a.score, a.severity
       FROM anomalies_daily a JOIN ext e ON a.project_id = e.project_id AND a.channel = e.channel AND a.metric = e.metric
       WHERE a.fired AND a.date BETWEEN least(e.lo, $2::date - 1) AND greatest(e.hi, $3::date + 1)
         AND (a.date < $2::date OR a.date > $3::date)
     ),
     runs AS (
       SELECT *, date - (row_number() OVER (PARTITION BY project_id, channel, metric, direction ORDER BY date))::int AS grp
       FROM days WHERE direction IS NOT NULL
     )
     INSERT INTO anomaly_episodes (id, project_id, metric, channel, kind, direction, first_date, last_date, peak_date, days,
       peak_value, peak_baseline, peak_z, peak_score, severity)
     SELECT ${EPISODE_ID_SQL}, project_id, metric, channel,
       CASE WHEN bool_or(kind = 'level_shift') THEN 'level_shift' ELSE direction END, direction, min(date), max(date),
       (array_agg(date ORDER BY score DESC, date))[1], count(*)::int,
       (array_agg(value ORDER BY score DESC, date))[1], (array_agg(baseline_mean ORDER BY score DESC, date))[1],
       (array_agg(z ORDER BY score DESC, date))[1], max(score),
       coalesce((array_agg(severity ORDER BY score DESC, date))[1], 'low')
     FROM runs GROUP BY project_id, channel, metric, direction, grp`,
    [
      projectIds,
      from,
      to,
      gone.map((g) => g.project_id),
      gone.map((g) => g.channel),
      gone.map((g) => g.metric),
      gone.map((g) => g.lo),
      gone.map((g) => g.hi),
    ],
  );
}
