import { dayNumber } from './detection.days.js';
import type { CoveringEvent } from './rule/rule.series.js';
import type { ExpectedEvent } from './detection.repo.js';

/**
 * Context events that explain the days they cover (the setting `expected_event_types`, docs/api.md
 * step 8b): a holiday or a promotion a team recorded is a known effect, not news. Events belong to
 * a project, not to a channel or a metric, so every series of the project gets the same days
 * (read by readExpectedEvents, detection.repo.ts).
 */

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
