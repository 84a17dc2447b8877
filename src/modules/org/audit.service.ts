import type { AuditEntry, AuditRecorder } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context/request-context.js';

export type { AuditEntry, AuditRecorder } from '../../platform/audit.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { z } from 'zod';
import { assertOrgRole } from './org.policy.js';
import * as repo from './org.repo.js';

/** The audit log of every write: who, when, what, and the request id. */
export class AuditService implements AuditRecorder {
  /** Request ids that recorded an entry and have not finished yet (see recordUnlessRecorded). */
  private readonly recorded = new Set<string>();

  constructor(private readonly db: Database) {}

  async record(ctx: RequestContext, entry: AuditEntry, tx?: SqlExecutor): Promise<void> {
    // A request that never reaches its end (a dropped connection) must not grow the set forever.
    if (this.recorded.size > 10_000) this.recorded.clear();
    this.recorded.add(ctx.requestId);
    await repo.insertAudit(tx ?? this.db, {
      at: ctx.clock.now(),
      actor_subject: ctx.actor.subject,
      actor_kind: ctx.actor.kind,
      request_id: ctx.requestId,
      action: entry.action,
      target: entry.target,
      project_id: entry.projectId ?? null,
      details: entry.details ?? {},
    });
  }

  /** Whether this request recorded an entry; forgets it (called once, when the request ends). */
  consumeRecorded(requestId: string): boolean {
    return this.recorded.delete(requestId);
  }

  /**
   * The safety net that makes "every write is audited" hold for modules that do not record their
   * own, more specific entry: a successful write (REST write method, MCP tool that is not
   * read-only) that recorded nothing gets a generic entry naming the route or tool.
   */
  async recordUnlessRecorded(ctx: RequestContext, entry: AuditEntry): Promise<void> {
    if (this.consumeRecorded(ctx.requestId)) return;
    await this.record(ctx, entry);
    this.recorded.delete(ctx.requestId);
  }

  async list(
    ctx: RequestContext,
    query: PageQuery & { action?: string; actor?: string; project_id?: string },
  ): Promise<{ items: repo.AuditRow[]; next_cursor: string | null }> {
    assertOrgRole(ctx, 'admin');
    const before = decodeCursor(query.cursor, z.number().int().positive());
    const rows = await repo.listAudit(this.db, {
      before,
      limit: query.limit + 1,
      action: query.action,
      actor: query.actor,
      project_id: query.project_id,
    });
    return pageOf(rows, query.limit, (row) => Number(row.id));
  }
}
