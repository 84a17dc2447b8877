import type { RequestContext } from '../../../platform/context/request-context.js';
import type { Database } from '../../../platform/db/database.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../../platform/errors.js';
import type { AuditRecorder } from '../../../platform/audit.js';
import type { ProjectsService } from '../../projects/index.js';
import { anomaliesResourceUri, type TriageStatus } from '../anomalies.schemas.js';
import type { AnomaliesService } from '../anomalies.service.js';
import * as repo from './triage.repo.js';
import { CLOSED, TRANSITIONS } from './triage.rules.js';
import type { TriageInput, TriageOutput } from './triage.schemas.js';

export class InvalidTransitionError extends ConflictError {
  constructor(id: string, from: TriageStatus, to: TriageStatus) {
    const allowed = TRANSITIONS[from];
    super('invalid_transition', `Anomaly ${id} is ${from}; it cannot become ${to}.`, {
      details: { from, to, allowed },
      hint: CLOSED.has(from)
        ? `Reopen it first (status "open"), then set "${to}".`
        : `From ${from} it may become: ${allowed.join(', ')}.`,
    });
  }
}

export interface TriageDeps {
  db: Database;
  projects: ProjectsService;
  anomalies: AnomaliesService;
  /** The organization's members (an assignee must be one). */
  members: { lookup(subject: string): Promise<unknown | undefined> };
  /** Context events, read with the caller's rights (a linked event must be in the anomaly's project). */
  events: { get(ctx: RequestContext, id: string): Promise<{ project_id: string }> };
  audit: AuditRecorder;
  /** PagerDuty resolve for an incident opened under an anomaly id (alerts delivery). */
  delivery: { resolve(projectId: string, dedupKey: string): Promise<string[]> };
  changes: { resourceUpdated(uri: string): Promise<void> };
}

/** Triage of fired anomalies: status, note, assignee and a linked event. */
export class AnomalyTriageService {
  constructor(private readonly deps: TriageDeps) {}

  /** The anomaly's triage as it stands (open and empty when nobody triaged it). */
  async get(ctx: RequestContext, id: string): Promise<TriageOutput> {
    const { resolved } = await this.deps.anomalies.getById(ctx, id);
    const row = await repo.readTriage(this.deps.db, id);
    return present(row ?? emptyRow(id, resolved.project.id), row?.status ?? 'open', 0);
  }

  async triage(ctx: RequestContext, id: string, input: TriageInput): Promise<TriageOutput> {
    // Not found, or not readable: the same 404 (getById); readable but not writable: role_forbidden.
    const { resolved } = await this.deps.anomalies.getById(ctx, id);
    const projectId = resolved.project.id;
    await this.deps.projects.resolve(ctx, projectId, 'context.write');
    if (input.assignee) await this.checkAssignee(input.assignee);
    if (input.context_event_id) await this.checkEvent(ctx, input.context_event_id, projectId);
    const now = ctx.clock.now();
    const { before, after } = await this.deps.db.transaction(async (tx) => {
      const current = await repo.lockTriage(tx, id, projectId, now);
      const to = input.status ?? current.status;
      if (to !== current.status && !TRANSITIONS[current.status].includes(to))
        throw new InvalidTransitionError(id, current.status, to);
      const next = {
        ...current,
        status: to,
        note: input.note === undefined ? current.note : input.note,
        assignee: input.assignee === undefined ? current.assignee : input.assignee,
        context_event_id: input.context_event_id === undefined ? current.context_event_id : input.context_event_id,
        updated_at: now,
        updated_by: ctx.actor.subject,
      };
      await repo.writeTriage(tx, next);
      await this.deps.audit.record(
        ctx,
        {
          action: 'anomaly.triage',
          target: id,
          projectId,
          details: {
            from: current.status,
            to,
            ...(input.note !== undefined ? { note_changed: true } : {}),
            ...(input.assignee !== undefined ? { assignee: input.assignee } : {}),
            ...(input.context_event_id !== undefined ? { context_event_id: input.context_event_id } : {}),
          },
        },
        tx,
      );
      return { before: current.status, after: next };
    });
    // After the commit: a resolve for an anomaly that never paged queues nothing, and a second one
    // for the same incident is refused by the delivery ledger, so this may run on every closing.
    const resolves =
      CLOSED.has(after.status) && !CLOSED.has(before) ? await this.deps.delivery.resolve(projectId, id) : [];
    await this.deps.changes.resourceUpdated(anomaliesResourceUri(projectId));
    return present(after, before, resolves.length);
  }

  private async checkAssignee(subject: string): Promise<void> {
    if (!(await this.deps.members.lookup(subject)))
      throw new ValidationError(
        [{ path: 'body.assignee', message: `${subject} is not a member of the organization` }],
        undefined,
        'assignee_not_member',
        'Assign a member (GET /api/org/members lists them) or leave assignee out.',
      );
  }

  private async checkEvent(ctx: RequestContext, eventId: string, projectId: string): Promise<void> {
    let eventProject: string | undefined;
    try {
      eventProject = (await this.deps.events.get(ctx, eventId)).project_id;
    } catch (e) {
      if (!(e instanceof NotFoundError) && !(e instanceof AppError && e.status === 403)) throw e;
    }
    if (eventProject !== projectId)
      throw new ValidationError(
        [{ path: 'body.context_event_id', message: `${eventId} is not a context event of ${projectId}` }],
        undefined,
        'context_event_not_in_project',
        `Link an event of ${projectId} (list_context_events lists them) or leave context_event_id out.`,
      );
  }
}

function emptyRow(id: string, projectId: string): repo.TriageRow {
  return {
    anomaly_id: id,
    project_id: projectId,
    status: 'open',
    note: null,
    assignee: null,
    context_event_id: null,
    updated_at: null,
    updated_by: null,
  };
}

function present(row: repo.TriageRow, previous: TriageStatus, resolves: number): TriageOutput {
  return {
    anomaly_id: row.anomaly_id,
    project_id: row.project_id,
    status: row.status,
    previous_status: previous,
    note: row.note,
    assignee: row.assignee,
    context_event_id: row.context_event_id,
    updated_at: row.updated_at ? new Date(row.updated_at).toISOString() : null,
    updated_by: row.updated_by,
    allowed_next: [...TRANSITIONS[row.status]],
    pagerduty_resolves: resolves,
  };
}
