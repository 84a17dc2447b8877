import { z } from 'zod';
import { projectRole } from '../../platform/auth/actor.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/pagination.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectsService } from '../projects/index.js';
import type { AlertDelivery } from './alerts.delivery.js';
import * as repo from './alerts.delivery.repo.js';
import { presentDelivery } from './alerts.presenter.js';
import type { DeliveriesQuery, DeliveryOutput } from './alerts.schemas.js';

/** The delivery log (every message and each of its attempts) and sending a dead message again. */
export class AlertLog {
  constructor(
    private readonly deps: { db: Database; projects: ProjectsService; audit: AuditRecorder; delivery: AlertDelivery },
  ) {}

  async list(
    ctx: RequestContext,
    q: DeliveriesQuery,
  ): Promise<{ deliveries: DeliveryOutput[]; next_cursor: string | null }> {
    const { project } = await this.deps.projects.resolve(ctx, q.project_id, 'admin');
    const after = decodeCursor(q.cursor, z.tuple([z.string(), z.string()]));
    const { messages, attempts } = await repo.listMessages(this.deps.db, {
      projectId: project.id,
      status: q.status,
      ruleId: q.rule_id,
      destinationId: q.destination_id,
      after,
      limit: q.limit + 1,
    });
    const page = pageOf(messages, q.limit, (m) => [new Date(m.created_at).toISOString(), m.id]);
    return {
      deliveries: page.items.map((m) =>
        presentDelivery(
          m,
          attempts.filter((a) => a.message_id === m.id),
        ),
      ),
      next_cursor: page.next_cursor,
    };
  }

  async get(ctx: RequestContext, id: string): Promise<DeliveryOutput> {
    const row = await this.find(ctx, id);
    return presentDelivery(row, await repo.attemptsOf(this.deps.db, [id]));
  }

  /** A dead-lettered (or failed test) message goes out again, same id, with a fresh budget of attempts. */
  async retry(ctx: RequestContext, id: string): Promise<DeliveryOutput> {
    const row = await this.find(ctx, id);
    const requeued = await this.deps.db.transaction(async (tx) => {
      if (!(await repo.requeue(tx, id, this.deps.delivery.policy.maxAttempts, ctx.clock.now()))) return false;
      await this.deps.audit.record(
        ctx,
        { action: 'alert.delivery.retry', target: id, projectId: row.project_id, details: { status: row.status } },
        tx,
      );
      return true;
    });
    if (!requeued)
      throw new ConflictError(
        'delivery_not_dead',
        `Delivery ${id} is ${row.status}; only dead or failed ones are sent again.`,
        {
          hint: 'Wait for it to finish, or read its attempts with GET /api/alerts/deliveries/{id}.',
        },
      );
    await this.deps.delivery.enqueue([id]);
    return this.get(ctx, id);
  }

  private async find(ctx: RequestContext, id: string): Promise<repo.MessageRow> {
    const row = await repo.findMessage(this.deps.db, id);
    if (!row || projectRole(ctx.actor, row.project_id) === undefined)
      throw new NotFoundError('delivery_not_found', `Delivery ${id} does not exist.`, {
        hint: 'List them with GET /api/alerts/deliveries?project_id=….',
      });
    await this.deps.projects.resolve(ctx, row.project_id, 'admin');
    return row;
  }
}
