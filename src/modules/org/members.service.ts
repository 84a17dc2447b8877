import type { ServerEvent } from '@modelcontextprotocol/server';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { MemberRecord } from '../../platform/auth/oauth.js';
import type { Role } from '../../platform/auth/permissions.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { z } from 'zod';
import type { AuditRecorder } from './audit.service.js';
import { assertOrgRole } from './org.policy.js';
import * as repo from './org.repo.js';
import type { CreateMemberInput, UpdateMemberInput } from './org.schemas.js';
import type { OrgSettingsService } from './settings.service.js';

export interface MemberWithGrants extends repo.MemberRow {
  grants: { project_id: string; role: repo.GrantRow['role'] }[];
}

/** Where member changes are announced to every replica (the change feed). */
export interface MemberChanges {
  publishIn(tx: SqlExecutor, event: ServerEvent): Promise<void>;
}

/**
 * A member's role and grants decide which Skills its prompts/list shows (and whether a prompt takes
 * a project_id): a change to them is a change of that list for the member's open sessions.
 */
const PROMPTS_CHANGED: ServerEvent = { kind: 'prompts_list_changed' };

const grantsKey = (grants: MemberWithGrants['grants']) =>
  grants
    .map((g) => `${g.project_id}:${g.role}`)
    .sort()
    .join(',');

/** Members of the organization, their roles and per-project grants. */
export class MembersService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditRecorder,
    private readonly settings: OrgSettingsService,
    /** The change feed; absent where nobody listens (unit wiring). */
    private readonly changes?: MemberChanges,
  ) {}

  /**
   * Tells every replica's MCP sessions and subscriptions that prompt lists changed, from inside the
   * write's transaction: delivered at commit, never for a change that rolled back.
   */
  private async announce(tx: SqlExecutor): Promise<void> {
    await this.changes?.publishIn(tx, PROMPTS_CHANGED);
  }

  async list(
    ctx: RequestContext,
    query: PageQuery & { role?: Role },
  ): Promise<{ items: MemberWithGrants[]; next_cursor: string | null }> {
    assertOrgRole(ctx, 'admin');
    const after = decodeCursor(query.cursor, z.string());
    const rows = await repo.listMembers(this.db, { after, limit: query.limit + 1, role: query.role });
    const page = pageOf(rows, query.limit, (row) => row.subject);
    return { items: await this.withGrants(this.db, page.items), next_cursor: page.next_cursor };
  }

  /** The caller itself, as authenticated: any member may ask who it is and what it was granted. */
  me(ctx: RequestContext): RequestContext['actor'] {
    return ctx.actor;
  }

  async get(ctx: RequestContext, subject: string): Promise<MemberWithGrants> {
    assertOrgRole(ctx, 'admin');
    return this.require(this.db, subject);
  }

  async create(ctx: RequestContext, input: CreateMemberInput): Promise<MemberWithGrants> {
    assertOrgRole(ctx, input.role === 'owner' ? 'owner' : 'admin');
    return this.db.transaction(async (tx) => {
      await repo.lockMembers(tx);
      await this.settings.assertWithinLimit('members', await repo.countMembers(tx), 1, tx);
      const grants = input.grants ?? [];
      await this.assertProjectsExist(
        tx,
        grants.map((g) => g.project_id),
        'grants',
      );
      const row = await repo.insertMember(tx, {
        subject: input.subject,
        email: input.email ?? null,
        role: input.role,
        created_by: ctx.actor.subject,
        now: ctx.clock.now(),
      });
      if (!row)
        throw new ConflictError('member_exists', `${input.subject} is already a member.`, {
          hint: `Change it with PATCH /api/org/members/${encodeURIComponent(input.subject)}.`,
        });
      await repo.replaceGrants(tx, input.subject, grants, ctx.clock.now());
      await this.audit.record(
        ctx,
        { action: 'member.create', target: `member:${input.subject}`, details: { role: input.role, grants } },
        tx,
      );
      return this.require(tx, input.subject);
    });
  }

  async update(ctx: RequestContext, subject: string, input: UpdateMemberInput): Promise<MemberWithGrants> {
    assertOrgRole(ctx, 'admin');
    return this.db.transaction(async (tx) => {
      await repo.lockMembers(tx);
      const current = await this.require(tx, subject);
      const touchesOwner = current.role === 'owner' || input.role === 'owner';
      if (touchesOwner && input.role !== undefined && input.role !== current.role) assertOrgRole(ctx, 'owner');
      if (current.role === 'owner' && input.role !== undefined && input.role !== 'owner')
        await this.assertNotLastOwner(tx, subject);
      const row = await repo.updateMember(tx, subject, input, ctx.clock.now());
      await this.audit.record(
        ctx,
        { action: 'member.update', target: `member:${subject}`, details: { from: { role: current.role }, to: input } },
        tx,
      );
      if (input.role !== undefined && input.role !== current.role) await this.announce(tx);
      return { ...row!, grants: current.grants };
    });
  }

  async remove(ctx: RequestContext, subject: string): Promise<void> {
    assertOrgRole(ctx, 'admin');
    await this.db.transaction(async (tx) => {
      await repo.lockMembers(tx);
      const current = await this.require(tx, subject);
      if (current.role === 'owner') {
        assertOrgRole(ctx, 'owner');
        await this.assertNotLastOwner(tx, subject);
      }
      await repo.deleteMember(tx, subject);
      await this.audit.record(
        ctx,
        { action: 'member.delete', target: `member:${subject}`, details: { role: current.role } },
        tx,
      );
    });
  }

  async grants(ctx: RequestContext, subject: string): Promise<MemberWithGrants['grants']> {
    assertOrgRole(ctx, 'admin');
    return (await this.require(this.db, subject)).grants;
  }

  async replaceGrants(
    ctx: RequestContext,
    subject: string,
    grants: { project_id: string; role: repo.GrantRow['role'] }[],
  ): Promise<MemberWithGrants['grants']> {
    assertOrgRole(ctx, 'admin');
    return this.db.transaction(async (tx) => {
      const before = await this.require(tx, subject);
      await this.assertProjectsExist(
        tx,
        grants.map((g) => g.project_id),
        'grants',
      );
      await repo.replaceGrants(tx, subject, grants, ctx.clock.now());
      await this.audit.record(
        ctx,
        { action: 'member.grants.replace', target: `member:${subject}`, details: { from: before.grants, to: grants } },
        tx,
      );
      const after = (await this.require(tx, subject)).grants;
      if (grantsKey(before.grants) !== grantsKey(after)) await this.announce(tx);
      return after;
    });
  }

  /** What the oauth authenticator needs per request: one query. */
  async lookup(subject: string): Promise<MemberRecord | undefined> {
    const found = await repo.memberWithGrants(this.db, subject);
    if (!found) return undefined;
    return {
      role: found.role,
      email: found.email ?? undefined,
      grants: new Map(found.grants.map((g) => [g.project_id, g.role])),
    };
  }

  /**
   * ORG_OWNER_SUBJECT and `context-hub members add --role owner`: makes the subject an owner,
   * creating it when missing. Not bounded by the member limit (it is how an organization starts).
   */
  async ensureOwner(
    ctx: RequestContext,
    subject: string,
    email?: string,
  ): Promise<{ created: boolean; promoted: boolean }> {
    return this.db.transaction(async (tx) => {
      await repo.lockMembers(tx);
      const current = await repo.findMember(tx, subject, true);
      if (current?.role === 'owner') return { created: false, promoted: false };
      if (current) {
        await repo.updateMember(tx, subject, { role: 'owner', ...(email ? { email } : {}) }, ctx.clock.now());
        await this.audit.record(
          ctx,
          {
            action: 'member.update',
            target: `member:${subject}`,
            details: { from: { role: current.role }, to: { role: 'owner' }, via: 'bootstrap' },
          },
          tx,
        );
        await this.announce(tx);
        return { created: false, promoted: true };
      }
      await repo.insertMember(tx, {
        subject,
        email: email ?? null,
        role: 'owner',
        created_by: ctx.actor.subject,
        now: ctx.clock.now(),
      });
      await this.audit.record(
        ctx,
        { action: 'member.create', target: `member:${subject}`, details: { role: 'owner', via: 'bootstrap' } },
        tx,
      );
      return { created: true, promoted: false };
    });
  }

  private async assertNotLastOwner(tx: SqlExecutor, subject: string): Promise<void> {
    if ((await repo.countMembers(tx, 'owner')) <= 1) {
      throw new ConflictError('last_owner', `${subject} is the last owner; the organization needs one.`, {
        hint: 'Make another member owner first.',
      });
    }
  }

  private async assertProjectsExist(tx: SqlExecutor, ids: string[], path: string): Promise<void> {
    const existing = await repo.existingProjectIds(tx, ids);
    const violations = ids.flatMap((id, i) =>
      existing.has(id) ? [] : [{ path: `${path}.${i}.project_id`, message: `project ${id} does not exist` }],
    );
    if (violations.length) throw new ValidationError(violations);
  }

  private async require(db: SqlExecutor, subject: string): Promise<MemberWithGrants> {
    const row = await repo.findMember(db, subject);
    if (!row)
      throw new NotFoundError('member_not_found', `${subject} is not a member.`, {
        hint: 'GET /api/org/members lists the members.',
      });
    return (await this.withGrants(db, [row]))[0]!;
  }

  private async withGrants(db: SqlExecutor, rows: repo.MemberRow[]): Promise<MemberWithGrants[]> {
    const grants = await repo.grantsOf(
      db,
      rows.map((r) => r.subject),
    );
    return rows.map((row) => ({
      ...row,
      grants: grants.filter((g) => g.subject === row.subject).map((g) => ({ project_id: g.project_id, role: g.role })),
    }));
  }
}
