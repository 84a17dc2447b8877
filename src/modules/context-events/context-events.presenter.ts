import type { EventRow } from './context-events.repo.js';
import type { EventOutput } from './context-events.schemas.js';

/** A stored event as every read answers it; `today` is the project's current date. */
export function presentEvent(row: EventRow, today: string): EventOutput {
  return {
    id: row.id,
    project_id: row.project_id,
    event_type: row.event_type,
    title: row.title,
    description: row.description,
    event_date: row.event_date,
    end_date: row.end_date,
    impact_window_days: Number(row.impact_window_days),
    active_from: row.event_date,
    active_until: row.active_until,
    active_today: row.event_date <= today && today <= row.active_until,
    created_at: new Date(row.created_at).toISOString(),
    created_by: row.created_by,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** One summary line for an agent's prompt. */
export function eventLine(event: EventOutput): string {
  const span = event.end_date ? `${event.event_date}…${event.end_date}` : event.event_date;
  return `- ${span} ${event.event_type}: ${event.title} [${event.id}; active ${event.active_from}…${event.active_until}${event.active_today ? ', active today' : ''}]`;
}
