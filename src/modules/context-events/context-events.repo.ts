import type { SqlExecutor } from '../../platform/db/database.js';

export interface EventRow {
  id: string;
  project_id: string;
  event_type: string;
  title: string;
  description: string;
  event_date: string;
  end_date: string | null;
  impact_window_days: number;
  active_until: string;
  created_at: Date;
  created_by: string;
  updated_at: Date;
}

const COLUMNS = `id, project_id, event_type, title, description, event_date, end_date, impact_window_days,
  (COALESCE(end_date, event_date) + impact_window_days) AS active_until, created_at, created_by, updated_at`;

/** The active-window predicate, shared by the list filter and activeOn so both agree. */
const ACTIVE_ON = (param: string) => ACTIVE_DURING(param, param);

/** Active on some day of [from, to]: the event's window and the range overlap. */
const ACTIVE_DURING = (from: string, to: string) =>
  `(event_date <= ${to} AND COALESCE(end_date, event_date) + impact_window_days >= ${from})`;

export interface NewEvent {
  id: string;
  project_id: string;
  event_type: string;
  title: string;
  description: string;
  event_date: string;
  end_date: string | null;
  impact_window_days: number;
  actor: string;
  now: Date;
}

/** Inserts many events in one statement (the demo seeder); existing ids are left alone. */
export async function insertEvents(db: SqlExecutor, events: NewEvent[]): Promise<EventRow[]> {
  if (events.length === 0) return [];
  return db.query<EventRow>(
    `INSERT INTO context_events (id, project_id, event_type, title, description, event_date, end_date, impact_window_days,
       created_at, created_by, updated_at, updated_by)
     SELECT id, project_id, event_type, title, description, event_date, end_date, impact_window_days, now_, actor, now_, actor
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::date[], $8::int[], $9::timestamptz[], $10::text[])
       AS t(id, project_id, event_type, title, description, event_date, end_date, impact_window_days, now_, actor)
     ON CONFLICT (id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      events.map((e) => e.id),
      events.map((e) => e.project_id),
      events.map((e) => e.event_type),
      events.map((e) => e.title),
      events.map((e) => e.description),
      events.map((e) => e.event_date),
      events.map((e) => e.end_date),
      events.map((e) => e.impact_window_days),
      events.map((e) => e.now),
      events.map((e) => e.actor),
    ],
  );
}

export async function findEvent(db: SqlExecutor, id: string): Promise<EventRow | undefined> {
  return (await db.query<EventRow>(`SELECT ${COLUMNS} FROM context_events WHERE id = $1`, [id]))[0];
}

export async function updateEvent(
  db: SqlExecutor,
  id: string,
  next: Pick<
    NewEvent,
    'event_type' | 'title' | 'description' | 'event_date' | 'end_date' | 'impact_window_days' | 'actor' | 'now'
  >,
): Promise<EventRow | undefined> {
  const rows = await db.query<EventRow>(
    `UPDATE context_events SET event_type = $2, title = $3, description = $4, event_date = $5, end_date = $6,
       impact_window_days = $7, updated_at = $8, updated_by = $9
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      id,
      next.event_type,
      next.title,
      next.description,
      next.event_date,
      next.end_date,
      next.impact_window_days,
      next.now,
      next.actor,
    ],
  );
  return rows[0];
}

export async function deleteEvent(db: SqlExecutor, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM context_events WHERE id = $1 RETURNING id', [id])).length > 0;
}

export interface ListOptions {
  projectId: string;
  activeOn?: string | undefined;
  eventType?: string | undefined;
  /** Keyset: rows strictly after (event_date, id) in newest-first order. */
  after?: [string, string] | undefined;
  limit: number;
}

export async function listEvents(db: SqlExecutor, o: ListOptions): Promise<EventRow[]> {
  return db.query<EventRow>(
    `SELECT ${COLUMNS} FROM context_events
     WHERE project_id = $1
       AND ($2::date IS NULL OR ${ACTIVE_ON('$2::date')})
       AND ($3::text IS NULL OR event_type = $3)
       AND ($4::date IS NULL OR (event_date, id) < ($4::date, $5::text))
     ORDER BY event_date DESC, id DESC
     LIMIT $6`,
    [o.projectId, o.activeOn ?? null, o.eventType ?? null, o.after?.[0] ?? null, o.after?.[1] ?? null, o.limit],
  );
}

/** Events active on any day of [from, to], oldest first (one query for a range of days). */
export async function eventsActiveDuring(
  db: SqlExecutor,
  projectId: string,
  from: string,
  to: string,
): Promise<EventRow[]> {
  return db.query<EventRow>(
    `SELECT ${COLUMNS} FROM context_events WHERE project_id = $1 AND ${ACTIVE_DURING('$2::date', '$3::date')}
     ORDER BY event_date, id`,
    [projectId, from, to],
  );
}

export async function eventsActiveOn(db: SqlExecutor, projectId: string, date: string): Promise<EventRow[]> {
  return db.query<EventRow>(
    `SELECT ${COLUMNS} FROM context_events WHERE project_id = $1 AND ${ACTIVE_ON('$2::date')} ORDER BY event_date DESC, id DESC`,
    [projectId, date],
  );
}
