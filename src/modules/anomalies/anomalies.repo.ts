import type { SqlExecutor } from '../../platform/db/database.js';
import { METRICS, TOTAL_CHANNEL, type EffectiveSettings } from './anomalies.schemas.js';

/**
 * The whole evaluation of one project's dates is one statement: unpivot kpis_daily (plus the
 * project total, ratios recomputed from the summed parts) into points, one window pass per
 * series with a RANGE frame on the day number (missing days are absent, not zero), then the
 * z-score and firing rules per metric from arrays of parameters. No per-series round trip.
 *
 * The frame length is a per-project setting interpolated as a validated integer (a window frame
 * offset must be a constant); everything else is a bind parameter.
 */
export function frameOf(s: Pick<EffectiveSettings, 'seasonality' | 'window_days' | 'seasonal_weeks'>): {
  partitionExtra: string;
  preceding: number;
  nearest: number;
} {
  if (s.seasonality === 'day_of_week') return { partitionExtra: ', dow', preceding: 7 * s.seasonal_weeks, nearest: 7 };
  return { partitionExtra: '', preceding: s.window_days, nearest: 1 };
}

/** How many days of history before `from` the evaluation of `from` needs. */
export function lookbackDays(s: EffectiveSettings): number {
  return frameOf(s).preceding;
}

// The metric's 1-based position indexes the per-metric rule arrays ($5..$10, in METRICS order).
const UNPIVOT = METRICS.map((m, i) => `('${m}', ${i + 1}, s.${m})`).join(', ');

/** Up to this many dates, the aggregate path beats sorting the whole history for a window pass. */
export const AGGREGATE_PATH_MAX_DAYS = 3;

/**
 * `mode: 'window'` (a range of dates, a full evaluation): one window pass per series. `mode:
 * 'aggregate'` (the few dates an ingestion touched): each target day gathers its own frame in one
 * hash aggregate (no sort of the whole history). Same frame, same statistics, same rows.
 */
export function evaluationSql(
  s: EffectiveSettings,
  mode: 'window' | 'aggregate' = 'window',
  source = 'kpis_daily',
): string {
  const { preceding, nearest } = frameOf(s);
  return `${scoredSql(s, mode, source)}
    , ins AS (
    INSERT INTO anomalies_daily (project_id, date, metric, channel, value, baseline_mean, baseline_stddev, training_size,
      window_from, window_to, seasonality, z, relative_change, threshold, min_relative_change, min_abs_change, watch,
      direction, fired)
    SELECT project_id, date, metric, channel, value, mean, sd, n,
      date - ${preceding}, date - ${nearest}, '${s.seasonality}', z, rel, threshold, min_rel, min_abs, watch,
      CASE WHEN mean IS NULL OR value = mean THEN NULL WHEN value > mean THEN 'spike' ELSE 'drop' END,
      ${FIRED_SQL}
    -- The window pass emits rows in (project, channel, metric, day) order, the primary key's order,
    -- so the index grows at its right edge instead of splitting pages at random.
    FROM scored
    RETURNING fired)
    SELECT count(*) AS rows, count(*) FILTER (WHERE fired) AS fired FROM ins`;
}

/**
 * Whether a scored point fires: enough training, a large enough relative change (a baseline flat
 * at zero has none: the absolute floor decides there), |z| past the threshold.
 */
const FIRED_SQL = `COALESCE(n >= min_train
        AND (CASE WHEN rel IS NULL THEN value <> mean AND abs(value - mean) >= min_abs ELSE abs(rel) >= min_rel END)
        AND (CASE WHEN z IS NOT NULL
               THEN (watch <> 'drop' AND z >= threshold) OR (watch <> 'spike' AND z <= -threshold)
               ELSE (watch <> 'drop' AND value > mean) OR (watch <> 'spike' AND value < mean) END), false)`;

/**
 * The evaluation up to the scored points (no write): the CTEs both the evaluation and the chart
 * read of one series (metricSeries) share, so a chart's baseline is the model's baseline.
 */
function scoredSql(s: EffectiveSettings, mode: 'window' | 'aggregate', source: string): string {
  const { partitionExtra, preceding, nearest } = frameOf(s);
  if (!Number.isInteger(preceding) || !Number.isInteger(nearest)) throw new Error('window frame must be integral');
  const step = s.seasonality === 'day_of_week' ? 7 : 1;
  const stats =
    mode === 'window'
      ? `w AS (
      SELECT project_id, date, channel, metric, mi, value, d,
        avg(value) OVER f AS mean, stddev_samp(value) OVER f AS sd, count(*) OVER f AS n
      FROM points
      -- Byte-order ("C") keys and the metric's number: the sort before the window compares cheaply.
      WINDOW f AS (PARTITION BY project_id COLLATE "C", channel COLLATE "C", mi${partitionExtra} ORDER BY d RANGE BETWEEN ${preceding} PRECEDING AND ${nearest} PRECEDING)
    ),`
      : `targets AS (SELECT generate_series($3::date, $4::date, interval '1 day')::date - DATE '2000-01-03' AS td),
    w AS (
      SELECT p.project_id, DATE '2000-01-03' + t.td AS date, p.channel, min(p.metric) AS metric, p.mi,
        max(p.value) FILTER (WHERE p.d = t.td) AS value, t.td AS d,
        avg(p.value) FILTER (WHERE t.td - p.d >= ${nearest} AND (t.td - p.d) % ${step} = 0) AS mean,
        stddev_samp(p.value) FILTER (WHERE t.td - p.d >= ${nearest} AND (t.td - p.d) % ${step} = 0) AS sd,
        count(*) FILTER (WHERE t.td - p.d >= ${nearest} AND (t.td - p.d) % ${step} = 0) AS n
      FROM points p JOIN targets t ON p.d BETWEEN t.td - ${preceding} AND t.td
      GROUP BY p.project_id, p.channel, p.mi, t.td
      HAVING count(*) FILTER (WHERE p.d = t.td) > 0
    ),`;
  return `
    WITH base AS (
      SELECT project_id, date, channel, spend::float8 AS spend, revenue::float8 AS revenue, conversions::float8 AS conversions,
        clicks::float8 AS clicks, impressions::float8 AS impressions, roas::float8 AS roas, cpa::float8 AS cpa,
        ctr::float8 AS ctr, cvr::float8 AS cvr
      FROM ${source} WHERE project_id = ANY($1::text[]) AND date BETWEEN $2::date AND $4::date
    ),
    src AS (
      SELECT * FROM base
      UNION ALL
      SELECT project_id, date, '${TOTAL_CHANNEL}', sum(spend), sum(revenue), sum(conversions), sum(clicks), sum(impressions),
        sum(revenue) / NULLIF(sum(spend), 0), sum(spend) / NULLIF(sum(conversions), 0),
        sum(clicks) / NULLIF(sum(impressions), 0), sum(conversions) / NULLIF(sum(clicks), 0)
      FROM base GROUP BY project_id, date
    ),
    points AS (
      SELECT s.project_id, s.date, s.channel, m.metric, m.mi, m.value, (s.date - DATE '2000-01-03') AS d,
        extract(isodow FROM s.date)::int AS dow
      FROM src s CROSS JOIN LATERAL (VALUES ${UNPIVOT}) AS m(metric, mi, value)
      WHERE m.value IS NOT NULL AND ($5::bool[])[m.mi]
    ),
    ${stats}
    scored AS (
      SELECT w.*, ($6::float8[])[mi] AS threshold, ($7::text[])[mi] AS watch, ($8::float8[])[mi] AS min_rel, ($9::int[])[mi] AS min_train,
        ($10::float8[])[mi] AS min_abs,
        -- A flat baseline (stddev 0, up to float noise) has no z: the relative change decides.
        CASE WHEN w.sd > 1e-9 * greatest(1, abs(w.mean)) THEN (w.value - w.mean) / w.sd END AS z,
        CASE WHEN w.mean <> 0 THEN (w.value - w.mean) / abs(w.mean) END AS rel
      FROM w
      WHERE w.date BETWEEN $3::date AND $4::date
    )`;
}

export function evaluationParams(
  projectIds: string[],
  historyFrom: string,
  from: string,
  to: string,
  s: EffectiveSettings,
): unknown[] {
  const rules = METRICS.map((metric) => s.metrics.find((m) => m.metric === metric)!);
  return [
    projectIds,
    historyFrom,
    from,
    to,
    rules.map((r) => r.enabled),
    rules.map((r) => r.threshold),
    rules.map((r) => r.direction),
    rules.map((r) => r.min_relative_change),
    rules.map((r) => r.min_training_days),
    rules.map((r) => r.min_abs_change),
  ];
}

/**
 * Replaces the rows of [from, to] with a fresh evaluation, for one project or for several that
 * share the same settings (one statement either way); returns rows and fired.
 */
export async function evaluate(
  tx: SqlExecutor,
  project: string | string[],
  from: string,
  to: string,
  historyFrom: string,
  s: EffectiveSettings,
): Promise<{ rows: number; fired: number }> {
  const projectIds = Array.isArray(project) ? project : [project];
  // JIT compilation costs more than it saves here on PostgreSQL (BENCHMARKS.md, anomalies notes)
  // and never pays off for one project's pass; off for this transaction only.
  await tx.query('SET LOCAL jit = off');
  // The sort before the window pass stays in memory for a project's history (this transaction only).
  await tx.query("SET LOCAL work_mem = '64MB'");
  await tx.query('DELETE FROM anomalies_daily WHERE project_id = ANY($1::text[]) AND date BETWEEN $2 AND $3', [
    projectIds,
    from,
    to,
  ]);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  const mode = days <= AGGREGATE_PATH_MAX_DAYS ? 'aggregate' : 'window';
  const counts = await tx.query<{ rows: number; fired: number }>(
    evaluationSql(s, mode),
    evaluationParams(projectIds, historyFrom, from, to, s),
  );
  return { rows: Number(counts[0]?.rows ?? 0), fired: Number(counts[0]?.fired ?? 0) };
}

export interface SeriesPointRow {
  date: string;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  training_size: number;
  z: number | null;
  fired: boolean;
}

/**
 * One metric's daily series on one channel (TOTAL_CHANNEL: the project total) over [from, to], each
 * day with the trailing baseline the evaluation computes for it (same frame, same statistics, same
 * firing rule), without writing anything. `historyFrom` is `from` minus the frame length.
 */
export async function metricSeries(
  db: SqlExecutor,
  q: { projectId: string; metric: string; channel: string; from: string; to: string; historyFrom: string },
  s: EffectiveSettings,
): Promise<SeriesPointRow[]> {
  // Only the asked metric is unpivoted (the per-metric enabled flags select it); its own rules score it.
  const params = evaluationParams([q.projectId], q.historyFrom, q.from, q.to, s);
  params[4] = METRICS.map((m) => m === q.metric);
  const rows = await db.query<SeriesPointRow>(
    `${scoredSql(s, 'window', 'kpis_daily')}
    SELECT date, value, mean AS baseline_mean, sd AS baseline_stddev, n AS training_size, z, ${FIRED_SQL} AS fired
    FROM scored WHERE metric = $11 AND channel = $12 ORDER BY date`,
    [...params, q.metric, q.channel],
  );
  return rows.map((r) => ({ ...r, training_size: Number(r.training_size) }));
}

/** The currency kpis_daily holds for a project's days in [from, to] (one reporting currency per project). */
export async function kpiCurrency(
  db: SqlExecutor,
  projectId: string,
  from: string,
  to: string,
): Promise<string | null> {
  const rows = await db.query<{ c: string | null }>(
    'SELECT min(currency)::text AS c FROM kpis_daily WHERE project_id = $1 AND date BETWEEN $2 AND $3',
    [projectId, from, to],
  );
  return rows[0]?.c ?? null;
}

export async function kpiDateRange(
  db: SqlExecutor,
  projectId: string,
): Promise<{ first: string | null; last: string | null }> {
  const rows = await db.query<{ first: string | null; last: string | null }>(
    'SELECT min(date) AS first, max(date) AS last FROM kpis_daily WHERE project_id = $1',
    [projectId],
  );
  return rows[0] ?? { first: null, last: null };
}

export interface AnomalyRow {
  project_id: string;
  date: string;
  metric: string;
  channel: string;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  training_size: number;
  window_from: string;
  window_to: string;
  seasonality: string;
  z: number | null;
  relative_change: number | null;
  threshold: number;
  min_relative_change: number;
  min_abs_change: number;
  watch: string;
  direction: string | null;
  fired: boolean;
}

/** Newest first; within a day the largest |z| first (a flat baseline's null z last), then metric, channel. */
const FIRED_ORDER = 'date DESC, abs(coalesce(z, 0)) DESC, metric, channel';

/** The sort key of a fired row, for keyset paging: the row is the last one of its page. */
export type FiredKey = [date: string, absZ: number, metric: string, channel: string];

export function firedKeyOf(row: AnomalyRow): FiredKey {
  return [row.date, Math.abs(row.z ?? 0), row.metric, row.channel];
}

export async function listFired(
  db: SqlExecutor,
  q: {
    projectId: string;
    since: string;
    until?: string | undefined;
    metric?: string | undefined;
    direction?: string | undefined;
    channel?: string | undefined;
    /** Rows strictly after this key in FIRED_ORDER. */
    after?: FiredKey | undefined;
    limit: number;
  },
): Promise<AnomalyRow[]> {
  const a = q.after;
  // FIRED_ORDER mixes directions, so "after" is spelled out instead of one row comparison.
  return db.query<AnomalyRow>(
    `SELECT * FROM anomalies_daily
     WHERE project_id = $1 AND fired AND date >= $2 AND ($3::date IS NULL OR date <= $3)
       AND ($4::text IS NULL OR metric = $4) AND ($5::text IS NULL OR direction = $5) AND ($6::text IS NULL OR channel = $6)
       AND ($7::date IS NULL OR date < $7 OR (date = $7 AND (abs(coalesce(z, 0)) < $8::float8
         OR (abs(coalesce(z, 0)) = $8::float8 AND (metric, channel) > ($9::text, $10::text)))))
     ORDER BY ${FIRED_ORDER} LIMIT $11`,
    [
      q.projectId,
      q.since,
      q.until ?? null,
      q.metric ?? null,
      q.direction ?? null,
      q.channel ?? null,
      a?.[0] ?? null,
      a?.[1] ?? null,
      a?.[2] ?? null,
      a?.[3] ?? null,
      q.limit,
    ],
  );
}

export async function readSettings(
  db: SqlExecutor,
  projectId: string,
): Promise<{ settings: Record<string, unknown>; updated_at: Date } | undefined> {
  return (
    await db.query<{ settings: Record<string, unknown>; updated_at: Date }>(
      'SELECT settings, updated_at FROM anomaly_settings WHERE project_id = $1',
      [projectId],
    )
  )[0];
}

export async function writeSettings(
  db: SqlExecutor,
  projectId: string,
  settings: unknown,
  actor: string,
  now: Date,
): Promise<Date> {
  const rows = await db.query<{ updated_at: Date }>(
    `INSERT INTO anomaly_settings (project_id, settings, updated_at, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
     RETURNING updated_at`,
    [projectId, JSON.stringify(settings), now, actor],
  );
  return rows[0]!.updated_at;
}
