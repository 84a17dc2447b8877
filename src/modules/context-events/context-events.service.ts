import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import { projectRole } from '../../platform/auth/actor.js';
import type { Permission } from '../../platform/auth/permissions.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import { todayIn } from '../../platform/calendar.js';
import type { ProjectsService, ResolvedProject } from '../projects/index.js';
import { presentEvent } from './context-events.presenter.js';
import * as repo from './context-events.repo.js';
import {
  DEFAULT_IMPACT_WINDOW_DAYS,
  type CreateEventInput,
  type EventOutput,
  type EventType,
  type UpdateEventInput,
} from './context-events.schemas.js';

export interface EventPage {
  resolved: ResolvedProject;
  events: EventOutput[];
  next_cursor: string | null;
}

export interface ListRequest {
  project_id: string | undefined;
  active_on?: string | undefined;
  event_type?: EventType | undefined;
  limit: number;
  cursor?: string | undefined;
}

export type AddEventRequest = Omit<CreateEventInput, 'project_id' | 'description' | 'impact_window_days'> & {
  project_id: string | undefined;
  description?: string | undefined;
  impact_window_days?: number | undefined;
};

const Cursor = z.tuple([z.string(), z.string()]);

/** Business context events: what happened to a project, and when it explains the data. */
export class ContextEventsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
  ) {}

  async create(
    ctx: RequestContext,
    input: AddEventRequest,
  ): Promise<{ resolved: ResolvedProject; event: EventOutput }> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    const [row] = await repo.insertEvents(this.db, [
      {
        id: newEventId(),
        project_id: resolved.project.id,
        event_type: input.event_type,
        title: input.title,
        description: input.description ?? '',
        event_date: input.event_date,
        end_date: input.end_date ?? null,
        impact_window_days: input.impact_window_days ?? DEFAULT_IMPACT_WINDOW_DAYS,
        actor: ctx.actor.subject,
        now: ctx.clock.now(),
      },
    ]);
    return { resolved, event: presentEvent(row!, todayIn(ctx.clock, resolved.project.timezone)) };
  }

  async list(ctx: RequestContext, request: ListRequest): Promise<EventPage> {
    const resolved = await this.projects.resolve(ctx, request.project_id, 'context.read');
    const after = decodeCursor(request.cursor, Cursor);
    const rows = await repo.listEvents(this.db, {
      projectId: resolved.project.id,
      activeOn: request.active_on,
      eventType: request.event_type,
      after,
      limit: request.limit + 1,
    });
    const page = pageOf(rows, request.limit, (row) => [row.event_date, row.id]);
    const today = todayIn(ctx.clock, resolved.project.timezone);
    return { resolved, events: page.items.map((row) => presentEvent(row, today)), next_cursor: page.next_cursor };
  }

  async get(ctx: RequestContext, id: string): Promise<EventOutput> {
    const { row, resolved } = await this.findFor(ctx, id, 'context.read');
    return presentEvent(row, todayIn(ctx.clock, resolved.project.timezone));
  }

  async update(ctx: RequestContext, id: string, patch: UpdateEventInput): Promise<EventOutput> {
    const { row, resolved } = await this.findFor(ctx, id, 'context.write');
    const next = {
      event_type: patch.event_type ?? row.event_type,
      title: patch.title ?? row.title,
      description: patch.description ?? row.description,
      event_date: patch.event_date ?? row.event_date,
      end_date: patch.end_date === undefined ? row.end_date : patch.end_date,
      impact_window_days: patch.impact_window_days ?? Number(row.impact_window_days),
    };
    if (next.end_date !== null && next.end_date < next.event_date) {
      throw new ValidationError([
        {
          path: patch.end_date !== undefined ? 'body.end_date' : 'body.event_date',
          message: `end_date (${next.end_date}) must be on or after event_date (${next.event_date})`,
        },
      ]);
    }
    const updated = await repo.updateEvent(this.db, id, { ...next, actor: ctx.actor.subject, now: ctx.clock.now() });
    if (!updated) throw notFound(id);
    return presentEvent(updated, todayIn(ctx.clock, resolved.project.timezone));
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.findFor(ctx, id, 'context.write');
    if (!(await repo.deleteEvent(this.db, id))) throw notFound(id);
  }

  /**
   * Events of a project active on `date` (YYYY-MM-DD): started on or before it and not past
   * (end_date or event_date) + impact_window_days. For the anomaly and insight evaluators, which
   * run on the system's behalf; `active_today` in the answer is relative to `today` when given.
   */
  async activeOn(projectId: string, date: string, today: string = date): Promise<EventOutput[]> {
    const rows = await repo.eventsActiveOn(this.db, projectId, date);
    return rows.map((row) => presentEvent(row, today));
  }

  /**
   * Events of a project active on at least one day of [from, to], once each, oldest first: what
   * activeOn answers for each of those days, together, in one query (explain_anomaly's days).
   */
  async activeDuring(projectId: string, from: string, to: string, today: string = to): Promise<EventOutput[]> {
    const rows = await repo.eventsActiveDuring(this.db, projectId, from, to);
    return rows.map((row) => presentEvent(row, today));
  }

  /**
   * An event the caller may act on. Without any grant on its project the event does not exist
   * for them (404, so ids cannot be probed); with a read-only grant a write is role_forbidden.
   */
  private async findFor(
    ctx: RequestContext,
    id: string,
    permission: Permission,
  ): Promise<{ row: repo.EventRow; resolved: ResolvedProject }> {
    const row = await repo.findEvent(this.db, id);
    if (!row || projectRole(ctx.actor, row.project_id) === undefined) throw notFound(id);
    const resolved = await this.projects.resolve(ctx, row.project_id, permission);
    return { row, resolved };
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError('context_event_not_found', `Context event ${id} does not exist.`, {
    hint: "List the project's events (GET /api/context/events?project_id=… or list_context_events) for valid ids.",
  });
}

export function newEventId(): string {
  return `evt_${randomBytes(8).toString('hex')}`;
}
