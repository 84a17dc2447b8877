import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { projectRole } from '../../platform/auth/actor.js';
import type { Permission } from '../../platform/auth/permissions.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { CalendarDate, todayIn } from '../../platform/calendar.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectsService } from '../projects/index.js';
import * as config from './alerts.config.repo.js';
import { uniqueName } from './alerts.destinations.js';
import { presentMute, presentRule } from './alerts.presenter.js';
import type {
  CreateMuteInput,
  CreateRuleInput,
  MuteOutput,
  RuleOutput,
  UpdateMuteInput,
  UpdateRuleInput,
} from './alerts.schemas.js';

/**
 * Rules (which sources, filtered how, go to which destinations, outside which quiet hours) and
 * mutes (a metric and/or channel silenced until a day). Reading needs `data.read`; rules are an
 * administrator's; muting is an editor's (it is part of handling an alert).
 */
export class AlertRules {
  constructor(private readonly deps: { db: Database; projects: ProjectsService; audit: AuditRecorder }) {}

  async create(ctx: RequestContext, input: CreateRuleInput): Promise<RuleOutput> {
    const { project } = await this.deps.projects.resolve(ctx, input.project_id, 'admin');
    await this.checkDestinations(project.id, input.destinations);
    const id = `rule_${randomBytes(8).toString('hex')}`;
    const row = await this.deps.db.transaction(async (tx) => {
      await config.insertRule(tx, { id, project_id: project.id, ...this.write(ctx, input) }).catch((error: unknown) => {
        throw uniqueName(error, input.name);
      });
      await this.audit(ctx, tx, 'alert.rule.create', id, project.id, { name: input.name, on: input.on });
      return (await config.findRule(tx, id))!;
    });
    return presentRule(row);
  }

  async list(ctx: RequestContext, projectId: string, page: PageQuery) {
    const { project } = await this.deps.projects.resolve(ctx, projectId, 'data.read');
    const rows = await config.listRules(
      this.deps.db,
      project.id,
      decodeCursor(page.cursor, z.string()),
      page.limit + 1,
    );
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.name);
    return { rules: items.map(presentRule), next_cursor };
  }

  async get(ctx: RequestContext, id: string): Promise<RuleOutput> {
    return presentRule(await this.findRule(ctx, id, 'data.read'));
  }

  async update(ctx: RequestContext, id: string, patch: UpdateRuleInput): Promise<RuleOutput> {
    const row = await this.findRule(ctx, id, 'admin');
    if (patch.destinations) await this.checkDestinations(row.project_id, patch.destinations);
    const next = {
      name: patch.name ?? row.name,
      on: patch.on ?? (row.sources as CreateRuleInput['on']),
      filters: patch.filters ?? (row.filters as CreateRuleInput['filters']),
      destinations: patch.destinations ?? row.destinations.map((d) => d.id),
      quiet_hours: patch.quiet_hours === undefined ? row.quiet_hours : patch.quiet_hours,
      enabled: patch.enabled ?? row.enabled,
    };
    const updated = await this.deps.db.transaction(async (tx) => {
      const found = await config.updateRule(tx, id, this.write(ctx, next)).catch((error: unknown) => {
        throw uniqueName(error, next.name);
      });
      if (!found) throw ruleNotFound(id);
      await this.audit(ctx, tx, 'alert.rule.update', id, row.project_id, { changed: patch });
      return (await config.findRule(tx, id))!;
    });
    return presentRule(updated);
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    const row = await this.findRule(ctx, id, 'admin');
    await this.deps.db.transaction(async (tx) => {
      if (!(await config.deleteRule(tx, id))) throw ruleNotFound(id);
      await this.audit(ctx, tx, 'alert.rule.delete', id, row.project_id, { name: row.name });
    });
  }

  async createMute(ctx: RequestContext, input: CreateMuteInput): Promise<MuteOutput> {
    const { project } = await this.deps.projects.resolve(ctx, input.project_id, 'context.write');
    if (input.rule_id) {
      const rule = await config.findRule(this.deps.db, input.rule_id);
      if (!rule || rule.project_id !== project.id)
        throw new ValidationError([{ path: 'body.rule_id', message: `no rule ${input.rule_id} in ${project.id}` }]);
    }
    const row = await this.deps.db.transaction(async (tx) => {
      const inserted = await config.insertMute(tx, {
        id: `mute_${randomBytes(8).toString('hex')}`,
        project_id: project.id,
        rule_id: input.rule_id ?? null,
        metric: input.metric ?? null,
        channel: input.channel ?? null,
        until: input.until,
        reason: input.reason,
        actor: ctx.actor.subject,
        now: ctx.clock.now(),
      });
      await this.audit(ctx, tx, 'alert.mute.create', inserted.id, project.id, {
        metric: inserted.metric,
        channel: inserted.channel,
        until: inserted.until,
        rule_id: inserted.rule_id,
      });
      return inserted;
    });
    return presentMute(row, todayIn(ctx.clock, project.timezone));
  }

  async listMutes(ctx: RequestContext, projectId: string, page: PageQuery) {
    const { project } = await this.deps.projects.resolve(ctx, projectId, 'data.read');
    const after = decodeCursor(page.cursor, z.tuple([CalendarDate, z.string()]));
    const rows = await config.listMutes(this.deps.db, project.id, after, page.limit + 1);
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => [r.until, r.id]);
    const today = todayIn(ctx.clock, project.timezone);
    return { mutes: items.map((r) => presentMute(r, today)), next_cursor };
  }

  async updateMute(ctx: RequestContext, id: string, patch: UpdateMuteInput): Promise<MuteOutput> {
    const { row, timezone } = await this.findMute(ctx, id, 'context.write');
    const updated = await this.deps.db.transaction(async (tx) => {
      const next = await config.updateMute(tx, id, {
        until: patch.until ?? row.until,
        reason: patch.reason ?? row.reason,
      });
      if (!next) throw muteNotFound(id);
      await this.audit(ctx, tx, 'alert.mute.update', id, row.project_id, { changed: patch });
      return next;
    });
    return presentMute(updated, todayIn(ctx.clock, timezone));
  }

  async removeMute(ctx: RequestContext, id: string): Promise<void> {
    const { row } = await this.findMute(ctx, id, 'context.write');
    await this.deps.db.transaction(async (tx) => {
      if (!(await config.deleteMute(tx, id))) throw muteNotFound(id);
      await this.audit(ctx, tx, 'alert.mute.delete', id, row.project_id, { metric: row.metric, channel: row.channel });
    });
  }

  private write(ctx: RequestContext, r: Omit<CreateRuleInput, 'project_id'>): config.RuleWrite {
    return {
      name: r.name,
      sources: [...new Set(r.on)],
      filters: r.filters,
      quiet_hours: r.quiet_hours,
      enabled: r.enabled,
      destinations: [...new Set(r.destinations)],
      actor: ctx.actor.subject,
      now: ctx.clock.now(),
    };
  }

  /** A body naming a destination of another project, or none, is a 400 naming each one. */
  private async checkDestinations(projectId: string, ids: string[]): Promise<void> {
    const found = await config.existingDestinations(this.deps.db, projectId, ids);
    const errors = ids
      .map((id, i) => ({ id, i }))
      .filter(({ id }) => !found.has(id))
      .map(({ id, i }) => ({ path: `body.destinations.${i}`, message: `no destination ${id} in ${projectId}` }));
    if (errors.length)
      throw new ValidationError(errors, undefined, 'validation_failed', 'List them with GET /api/alerts/destinations.');
  }

  private async audit(
    ctx: RequestContext,
    tx: SqlExecutor,
    action: string,
    target: string,
    projectId: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.audit.record(ctx, { action, target, projectId, details }, tx);
  }

  private async findRule(ctx: RequestContext, id: string, permission: Permission): Promise<config.RuleRow> {
    const row = await config.findRule(this.deps.db, id);
    if (!row || projectRole(ctx.actor, row.project_id) === undefined) throw ruleNotFound(id);
    await this.deps.projects.resolve(ctx, row.project_id, permission);
    return row;
  }

  private async findMute(ctx: RequestContext, id: string, permission: Permission) {
    const row = await config.findMute(this.deps.db, id);
    if (!row || projectRole(ctx.actor, row.project_id) === undefined) throw muteNotFound(id);
    const { project } = await this.deps.projects.resolve(ctx, row.project_id, permission);
    return { row, timezone: project.timezone };
  }
}

function ruleNotFound(id: string): NotFoundError {
  return new NotFoundError('rule_not_found', `Alert rule ${id} does not exist.`, {
    hint: 'List them with GET /api/alerts/rules?project_id=….',
  });
}

function muteNotFound(id: string): NotFoundError {
  return new NotFoundError('mute_not_found', `Mute ${id} does not exist.`, {
    hint: 'List them with GET /api/alerts/mutes?project_id=….',
  });
}
