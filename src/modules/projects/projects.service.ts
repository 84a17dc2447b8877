import type { ServerEvent } from '@modelcontextprotocol/server';
import type { RequestContext } from '../../platform/context/request-context.js';
import { actorCanOnProject, actorHas, projectRole, visibleProjects } from '../../platform/auth/actor.js';
import type { Permission } from '../../platform/auth/permissions.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { z } from 'zod';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectDirectory } from './project-directory.js';
import * as repo from './projects.repo.js';

/** Built once: a zod schema per call was a visible share of a list_projects call (bench:mcp). */
const PROJECT_CURSOR = z.string();
import { projectResourceUri, type CreateProjectInput, type UpdateProjectInput } from './projects.schemas.js';

export type { ProjectRow } from './projects.repo.js';

export interface ResolvedProject {
  project: repo.ProjectRow;
  /** How the id was chosen; tools put it in the envelope's provenance. */
  resolvedFrom: 'explicit' | 'default';
}

/** A check another module runs before a project is created (org role and limits), given at construction. */
export type ProjectCreationGuard = (ctx: RequestContext, db: Database) => Promise<void>;

/** Where project changes are announced to every replica (the change feed). */
export interface ProjectChanges {
  resourceUpdated(uri: string): Promise<void>;
  publish?(event: ServerEvent): void;
  publishIn?(tx: SqlExecutor, event: ServerEvent): Promise<void>;
}

export class ProjectsService {
  constructor(
    private readonly db: Database,
    private readonly changes: ProjectChanges,
    /** The org audit log; optional so the service stands alone in tools and scripts. */
    private readonly audit?: AuditRecorder,
    /** Project rows kept in memory (every tool call resolves a project); see ProjectDirectory. */
    private readonly directory?: ProjectDirectory,
    /** Checks run before a project is created (the organization's role and projects limit). */
    private readonly creationGuards: readonly ProjectCreationGuard[] = [],
  ) {}

  async create(ctx: RequestContext, input: CreateProjectInput): Promise<repo.ProjectRow> {
    for (const guard of this.creationGuards) await guard(ctx, this.db);
    const defaults = await repo.readOrgDefaults(this.db);
    const created = await this.db.transaction(async (tx) => {
      const row = await repo.insertProject(tx, {
        id: input.id,
        name: input.name,
        reporting_currency: input.reporting_currency ?? defaults.reporting_currency,
        timezone: input.timezone ?? defaults.timezone,
        created_by: ctx.actor.subject,
        now: ctx.clock.now(),
      });
      if (!row) throw new ConflictError('project_exists', `Project ${input.id} already exists.`);
      await this.audit?.record(
        ctx,
        { action: 'project.create', target: row.id, projectId: row.id, details: { name: row.name } },
        tx,
      );
      // Whoever sees every project sees one more: its Skills, and a project_id argument on prompts
      // that had one project to choose from. Heard at commit, never for a rollback.
      await this.changes.publishIn?.(tx, { kind: 'prompts_list_changed' });
      return row;
    });
    this.directory?.invalidate();
    // The project:// resource list grew: tells clients, and other replicas' directories.
    this.changes.publish?.({ kind: 'resources_list_changed' });
    return created;
  }

  async get(ctx: RequestContext, id: string): Promise<repo.ProjectRow> {
    return (await this.resolve(ctx, id, 'context.read')).project;
  }

  async update(ctx: RequestContext, id: string, patch: UpdateProjectInput): Promise<repo.ProjectRow> {
    this.assertGrant(ctx, id, 'admin');
    const row = await this.db.transaction(async (tx) => {
      const before = patch.agent_writes === undefined ? undefined : await repo.findProject(tx, id);
      const updated = await repo.updateProject(tx, id, patch, ctx.clock.now());
      if (!updated) throw new NotFoundError('project_not_found', `Project ${id} does not exist.`);
      if (before && before.agent_writes !== updated.agent_writes) {
        // Its own entry: who changed how agents' writes land is what a governance review looks for.
        await this.audit?.record(
          ctx,
          {
            action: 'project.agent_writes',
            target: id,
            projectId: id,
            details: { from: before.agent_writes, to: updated.agent_writes },
          },
          tx,
        );
      }
      await this.audit?.record(
        ctx,
        { action: 'project.update', target: id, projectId: id, details: { changed: patch } },
        tx,
      );
      return updated;
    });
    this.directory?.invalidate();
    await this.changes.resourceUpdated(projectResourceUri(id));
    return row;
  }

  async list(ctx: RequestContext, page: PageQuery): Promise<{ items: repo.ProjectRow[]; next_cursor: string | null }> {
    const visible = visibleProjects(ctx.actor);
    const after = decodeCursor(page.cursor, PROJECT_CURSOR);
    const options = { after, limit: page.limit + 1, ids: visible === 'all' ? undefined : visible };
    const rows = this.directory ? await this.directory.list(options) : await repo.listProjects(this.db, options);
    return pageOf(rows, page.limit, (row) => row.id);
  }

  /**
   * The ids of the projects the caller may use with `permission`, ordered by id (at most `limit`):
   * what prompts and completions offer a caller, so nothing of another project shows.
   */
  async permittedIds(ctx: RequestContext, permission: Permission, limit = 10_000): Promise<string[]> {
    if (!actorHas(ctx.actor, permission)) return [];
    const visible = visibleProjects(ctx.actor);
    const options = { limit, ids: visible === 'all' ? undefined : visible };
    const rows = this.directory ? await this.directory.list(options) : await repo.listProjects(this.db, options);
    return rows.map((row) => row.id).filter((id) => actorCanOnProject(ctx.actor, id, permission));
  }

  /**
   * Resolves a project reference for a call that needs `permission` on it. Without a grant the
   * answer is project_forbidden whether or not the project exists, so ids cannot be probed.
   */
  async resolve(ctx: RequestContext, ref: string | undefined, permission: Permission): Promise<ResolvedProject> {
    if (ref === undefined || ref === 'default') return this.resolveDefault(ctx, permission);
    this.assertGrant(ctx, ref, permission);
    const project = this.directory ? await this.directory.find(ref) : await repo.findProject(this.db, ref);
    if (!project) {
      throw new NotFoundError('project_not_found', `Project ${ref} does not exist.`, {
        hint: 'Call list_projects (or GET /api/projects) for the ids you can use.',
      });
    }
    return { project, resolvedFrom: 'explicit' };
  }

  /**
   * A project's row as the store has it now, with no grant check: for jobs and seeders, which act
   * as the operator and may run inside a transaction (`db`).
   */
  async findRow(id: string, db: SqlExecutor = this.db): Promise<repo.ProjectRow | undefined> {
    return repo.findProject(db, id);
  }

  /** How many projects the store holds (none on a first embedded start). */
  async count(): Promise<number> {
    return repo.countProjects(this.db);
  }

  /** Every project's id and time zone, ordered by id, read from the store (the scheduler's ticks). */
  async zones(): Promise<{ id: string; timezone: string }[]> {
    return repo.listProjectZones(this.db);
  }

  assertGrant(ctx: RequestContext, projectId: string, permission: Permission): void {
    if (actorCanOnProject(ctx.actor, projectId, permission)) return;
    if (projectRole(ctx.actor, projectId) === undefined) {
      throw new ForbiddenError('project_forbidden', `You have no grant for project ${projectId}.`, {
        hint: 'Use a project id from list_projects, or ask an admin for a grant.',
      });
    }
    throw new ForbiddenError('role_forbidden', `Your role on project ${projectId} does not allow ${permission}.`, {
      hint: 'Ask an admin for a role that allows it.',
    });
  }

  private async resolveDefault(ctx: RequestContext, permission: Permission): Promise<ResolvedProject> {
    const visible = visibleProjects(ctx.actor);
    const options = { limit: 51, ids: visible === 'all' ? undefined : visible };
    const rows = this.directory ? await this.directory.list(options) : await repo.listProjects(this.db, options);
    if (rows.length === 1) {
      const project = rows[0]!;
      this.assertGrant(ctx, project.id, permission);
      return { project, resolvedFrom: 'default' };
    }
    const ids = rows.slice(0, 50).map((r) => r.id);
    throw new ValidationError(
      [
        {
          path: 'project_id',
          message: ids.length === 0 ? 'no project is visible to you' : `choose one of: ${ids.join(', ')}`,
        },
      ],
      ids.length === 0
        ? 'project_id "default" cannot resolve: you can see no project.'
        : `project_id "default" is ambiguous: you can see ${rows.length > 50 ? 'more than 50' : ids.length} projects. Pass one of: ${ids.join(', ')}.`,
      'project_required',
      ids.length === 0
        ? 'Create a project (POST /api/projects) or ask for a grant.'
        : `Call again with project_id set, e.g. "${ids[0]}".`,
    );
  }
}
