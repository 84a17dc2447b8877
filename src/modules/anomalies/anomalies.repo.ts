import type { SqlExecutor } from '../../platform/db/database.js';

/*
 * The anomaly reads and the settings store: stored settings, a project's KPI range and currency,
 * and the anomalies (episodes) as people read them. Only queries: the evaluation that writes the
 * rows these read is detection's (detection/index.ts, `detection.evaluate`).
 */

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

export interface EpisodeRow {
  id: string;
  project_id: string;
  metric: string;
  channel: string;
  kind: string;
  direction: string;
  first_date: string;
  last_date: string;
  peak_date: string;
  days: number;
  peak_score: number;
  severity: string;
}

/** An episode with its peak day's stored row (the evaluation's figures for that day). */
export type EpisodeWithPeak = EpisodeRow & {
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  training_size: number;
  window_from: string;
  window_to: string;
  seasonality: string;
  model: string;
  z: number | null;
  relative_change: number | null;
  threshold: number;
  min_relative_change: number;
  min_abs_change: number;
  watch: string;
  fired: boolean;
  /** The triage status (anomaly_triage); open when nobody triaged it. */
  status: string;
  /** The member the triage assigned it to, if any. */
  assignee: string | null;
};

const WITH_PEAK = `SELECT e.*, a.value, a.baseline_mean, a.baseline_stddev, a.training_size, a.window_from, a.window_to,
    a.seasonality, a.model, a.z, a.relative_change, a.threshold, a.min_relative_change, a.min_abs_change, a.watch, a.fired,
    coalesce(t.status, 'open') AS status, t.assignee
  FROM anomaly_episodes e
  JOIN anomalies_daily a ON a.project_id = e.project_id AND a.channel = e.channel AND a.metric = e.metric AND a.date = e.peak_date
  LEFT JOIN anomaly_triage t ON t.anomaly_id = e.id`;

/** Newest first (by last fired day), then the highest score, then metric and channel. */
const ORDER = 'e.last_date DESC, e.peak_score DESC, e.metric, e.channel';

/** The sort key of an anomaly in a list, for keyset paging: the anomaly is the last one of its page. */
export type EpisodeKey = [lastDate: string, score: number, metric: string, channel: string];

export function episodeKeyOf(row: EpisodeWithPeak): EpisodeKey {
  return [row.last_date, row.peak_score, row.metric, row.channel];
}

/** Anomalies with a fired day in [since, until], in ORDER, after the key. */
export async function listEpisodes(
  db: SqlExecutor,
  q: {
    projectId: string;
    since: string;
    until?: string | undefined;
    metric?: string | undefined;
    direction?: string | undefined;
    channel?: string | undefined;
    status?: string | undefined;
    after?: EpisodeKey | undefined;
    limit: number;
  },
): Promise<EpisodeWithPeak[]> {
  const a = q.after;
  // ORDER mixes directions, so "after" is spelled out instead of one row comparison.
  return db.query<EpisodeWithPeak>(
    `${WITH_PEAK}
     WHERE e.project_id = $1 AND e.last_date >= $2 AND ($3::date IS NULL OR e.first_date <= $3)
       AND ($4::text IS NULL OR e.metric = $4) AND ($5::text IS NULL OR e.direction = $5) AND ($6::text IS NULL OR e.channel = $6)
       AND ($7::date IS NULL OR e.last_date < $7 OR (e.last_date = $7 AND (e.peak_score < $8::float8
         OR (e.peak_score = $8::float8 AND (e.metric, e.channel) > ($9::text, $10::text)))))
       AND ($12::text IS NULL OR coalesce(t.status, 'open') = $12)
     ORDER BY ${ORDER} LIMIT $11`,
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
      q.status ?? null,
    ],
  );
}

export async function findEpisode(db: SqlExecutor, id: string): Promise<EpisodeWithPeak | undefined> {
  return (await db.query<EpisodeWithPeak>(`${WITH_PEAK} WHERE e.id = $1`, [id]))[0];
}

export interface EpisodeDayRow {
  date: string;
  value: number;
  baseline_mean: number | null;
  baseline_stddev: number | null;
  training_size: number;
  z: number | null;
  relative_change: number | null;
  score: number;
  severity: string | null;
  direction: string | null;
  kind: string | null;
  fired: boolean;
  status: string;
  excluded: boolean;
  model: string;
  precedent: number | null;
  explained_by_channel: string | null;
  explained_by_metric: string | null;
  explained_by_event: string | null;
  explained_by_event_title: string | null;
  explained_by_event_type: string | null;
}

/** Every evaluated day of the episode's series from its first to its last day. */
export async function episodeDays(db: SqlExecutor, e: EpisodeRow): Promise<EpisodeDayRow[]> {
  return db.query<EpisodeDayRow>(
    `SELECT a.date, a.value, a.baseline_mean, a.baseline_stddev, a.training_size, a.z, a.relative_change, a.score,
       a.severity, a.direction, a.kind, a.fired, a.status, a.excluded, a.model, a.precedent, a.explained_by_channel,
       a.explained_by_metric, a.explained_by_event, ev.title AS explained_by_event_title,
       ev.event_type AS explained_by_event_type
     FROM anomalies_daily a LEFT JOIN context_events ev ON ev.id = a.explained_by_event
     WHERE a.project_id = $1 AND a.channel = $2 AND a.metric = $3 AND a.date BETWEEN $4 AND $5 ORDER BY a.date`,
    [e.project_id, e.channel, e.metric, e.first_date, e.last_date],
  );
}

export interface ExplainedDayRow {
  date: string;
  channel: string;
  metric: string;
  value: number;
  baseline_mean: number | null;
  relative_change: number | null;
  z: number | null;
}

/** The days of other series that the episode's series explains (detection.explained.ts), by date. */
export async function explainedBy(
  db: SqlExecutor,
  e: Pick<EpisodeRow, 'project_id' | 'channel' | 'metric' | 'first_date' | 'last_date'>,
): Promise<ExplainedDayRow[]> {
  return db.query<ExplainedDayRow>(
    `SELECT date, channel, metric, value, baseline_mean, relative_change, z FROM anomalies_daily
     WHERE project_id = $1 AND explained_by_channel = $2 AND explained_by_metric = $3 AND date BETWEEN $4 AND $5
     ORDER BY date, channel COLLATE "C", metric`,
    [e.project_id, e.channel, e.metric, e.first_date, e.last_date],
  );
}

/** How many anomalies have a fired day in [since, until]. */
export async function countEpisodes(db: SqlExecutor, projectId: string, since: string, until: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*) AS n FROM anomaly_episodes WHERE project_id = $1 AND last_date >= $2 AND first_date <= $3',
    [projectId, since, until],
  );
  return Number(rows[0]?.n ?? 0);
}
