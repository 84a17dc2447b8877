import type { SqlExecutor } from '../../../platform/db/database.js';
import { dayNumber } from './detection.days.js';
import type { CoveringEvent } from './detection.rule.js';

/**
 * Context events that explain the days they cover (the setting `expected_event_types`, docs/api.md
 * step 8b): a holiday or a promotion a team recorded is a known effect, not news. Events belong to
 * a project, not to a channel or a metric, so every series of the project gets the same days.
 */

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

/**
 * Per project, the day numbers its events cover, each with the event that names it: the earliest
 * event (by event_date, then id) of those covering the day, so a re-evaluation names the same one.
 */
export function coveredDays(events: readonly ExpectedEvent[]): Map<string, Map<number, CoveringEvent>> {
  const out = new Map<string, Map<number, CoveringEvent>>();
  const sorted = [...events].sort(
    (a, b) => a.event_date.localeCompare(b.event_date) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  for (const e of sorted) {
    let days = out.get(e.project_id);
    if (!days) {
      days = new Map();
      out.set(e.project_id, days);
    }
    const named: CoveringEvent = { id: e.id, title: e.title, event_type: e.event_type };
    for (let d = dayNumber(e.event_date), last = dayNumber(e.active_until); d <= last; d += 1)
      if (!days.has(d)) days.set(d, named);
  }
  return out;
}
