import type { SqlExecutor } from '../../platform/db/database.js';
import * as episodes from './detection/detection.episodes.js';

/** What a link names: an anomaly by id, or a day (of a series when metric and channel are given). */
export interface FocusQuery {
  anomaly_id?: string | undefined;
  date?: string | undefined;
  metric?: string | undefined;
  channel?: string | undefined;
  direction?: string | undefined;
}

export interface ListWindow {
  since: string;
  to: string | null;
}

/**
 * The anomaly a link names, or null when the link names none (or nothing of the series fired that
 * day); undefined when the id is not an anomaly of this project (the caller answers not found).
 */
export async function findFocus(
  db: SqlExecutor,
  projectId: string,
  q: FocusQuery,
): Promise<episodes.EpisodeWithPeak | null | undefined> {
  if (q.anomaly_id) {
    const row = await episodes.findEpisode(db, q.anomaly_id);
    return row && row.project_id === projectId ? row : undefined;
  }
  if (!q.date) return null;
  const onDay = await episodes.listEpisodes(db, {
    projectId,
    since: q.date,
    until: q.date,
    metric: q.metric,
    channel: q.channel,
    direction: q.direction,
    limit: 20,
  });
  // A link written for a peak day names that anomaly even where another of the series spans the day.
  return onDay.find((e) => e.peak_date === q.date) ?? onDay[0] ?? null;
}

/** The window widened to include `day`: a link opens what it names whatever its age. */
export function windowIncluding(window: ListWindow, day: string | undefined): ListWindow {
  if (!day) return window;
  return {
    since: day < window.since ? day : window.since,
    to: window.to !== null && window.to < day ? day : window.to,
  };
}
