import type { ProjectLimits } from '../org/project-limits.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import { actorCanOnProject } from '../../platform/auth/actor.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { unifiedDiff } from '../../platform/line-diff.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
import { fieldChanges } from '../skills/skills.diff.js';
import type { VersionDiffQuery } from '../skills/skills.schemas.js';
import * as repo from './knowledge.repo.js';
import {
  slugify,
  type AddKnowledgeInput,
  type KnowledgeDiffOutput,
  type KnowledgeOutput,
  type UpdateKnowledgeInput,
} from './knowledge.schemas.js';

function present(head: repo.KnowledgeHeadRow, row: repo.KnowledgeVersionRow): KnowledgeOutput {
  return {
    id: head.id,
    project_id: head.project_id,
    topic_id: row.topic_id,
    title: row.title,
    body_md: row.body_md,
    owner: row.owner,
    version_number: row.version_number,
    current_version: head.version_number,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    deleted: head.deleted_at !== null,
  };
}

export class KnowledgeService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    /** Entitlement limits (issue 4); absent in unit wiring that does not enforce them. */
    private readonly limits?: ProjectLimits,
  ) {}

  /** A live Knowledge sheet by id or topic id, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<repo.KnowledgeHeadRow | undefined> {
    return repo.findLiveByIdOrTopic(this.db, projectId, ref);
  }

  /** add_knowledge / POST: a new sheet, or the next version of an existing topic_id. */
  async add(
    ctx: RequestContext,
    input: AddKnowledgeInput,
  ): Promise<{ resolved: ResolvedProject; knowledge: KnowledgeOutput }> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    const topicId = input.topic_id ?? slugify(input.title);
    if (!topicId) {
      throw new ValidationError([
        { path: 'topic_id', message: 'cannot be derived from this title (no letters or digits); give one' },
      ]);
    }
    await this.limits?.assertCanAddContextObject(resolved.project.id, 'knowledge', topicId);
    const knowledge = await this.write(ctx, resolved.project.id, {
      ...input,
      topic_id: topicId,
      owner: input.owner ?? null,
    });
    return { resolved, knowledge };
  }

  async update(
    ctx: RequestContext,
    projectRef: string,
    topicId: string,
    patch: UpdateKnowledgeInput,
  ): Promise<KnowledgeOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    const head = await repo.findHead(this.db, project.id, topicId);
    if (!head || head.deleted_at) throw notFound(topicId, project.id);
    const current = (await repo.findVersion(this.db, head.id, head.version_number))!;
    return this.write(ctx, project.id, {
      topic_id: topicId,
      title: patch.title ?? current.title,
      body_md: patch.body_md ?? current.body_md,
      owner: patch.owner === undefined ? current.owner : patch.owner,
    });
  }

  private async write(
    ctx: RequestContext,
    projectId: string,
    input: { topic_id: string; title: string; body_md: string; owner: string | null },
  ): Promise<KnowledgeOutput> {
    return this.db.transaction((tx) => this.writeIn(tx, ctx, projectId, input));
  }

  /** The write itself, in the caller's transaction (an import's, or its own); no grant check. */
  async writeIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    input: { topic_id: string; title: string; body_md: string; owner: string | null },
  ): Promise<KnowledgeOutput> {
    const now = ctx.clock.now();
    const bumped = await repo.bumpHead(tx, {
      id: `kn_${randomBytes(8).toString('hex')}`,
      project_id: projectId,
      ...input,
      now,
    });
    const row: repo.KnowledgeVersionRow = {
      knowledge_id: bumped.id,
      version_number: bumped.version_number,
      ...input,
      created_at: now,
      created_by: ctx.actor.subject,
    };
    await repo.insertVersion(tx, row);
    return present((await repo.findHead(tx, projectId, input.topic_id))!, row);
  }

  /** One version (default current). A deleted sheet's versions stay readable to admins only. */
  async get(
    ctx: RequestContext,
    projectRef: string,
    topicId: string,
    version?: number,
  ): Promise<{ resolved: ResolvedProject; knowledge: KnowledgeOutput }> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.readableHead(ctx, resolved.project.id, topicId);
    const row = await repo.findVersion(this.db, head.id, version ?? head.version_number);
    if (!row) {
      throw new NotFoundError(
        'knowledge_version_not_found',
        `Knowledge ${topicId} has no version ${version}; the current one is ${head.version_number}.`,
        {
          hint: `Call again without version, or with a version from 1 to ${head.version_number}.`,
        },
      );
    }
    return { resolved, knowledge: present(head, row) };
  }

  async versions(ctx: RequestContext, projectRef: string, topicId: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.readableHead(ctx, project.id, topicId);
    const after = decodeCursor(page.cursor, z.number().int());
    const rows = await repo.listVersions(this.db, head.id, { after, limit: page.limit + 1 });
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.version_number);
    return {
      topic_id: topicId,
      deleted: head.deleted_at !== null,
      versions: items.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next_cursor,
    };
  }

  async remove(ctx: RequestContext, projectRef: string, topicId: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    const head = await repo.findHead(this.db, project.id, topicId);
    if (!head || head.deleted_at) throw notFound(topicId, project.id);
    await repo.markDeleted(this.db, head.id, ctx.clock.now());
  }

  async list(ctx: RequestContext, projectRef: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const rows = await repo.listLive(this.db, project.id, {
      after: decodeCursor(page.cursor, z.string()),
      limit: page.limit + 1,
    });
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.topic_id);
    return {
      knowledge: items.map((r) => ({
        id: r.id,
        topic_id: r.topic_id,
        title: r.title,
        owner: r.owner,
        version_number: r.version_number,
        updated_at: r.updated_at.toISOString(),
      })),
      next_cursor,
    };
  }

  /** Every live sheet with its body (get_knowledge without topic_id; the hub dump). */
  async all(ctx: RequestContext, projectRef: string) {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const rows = await repo.allCurrent(this.db, resolved.project.id);
    return {
      resolved,
      knowledge: rows.map((r) => ({
        id: r.id,
        topic_id: r.topic_id,
        title: r.title,
        owner: r.owner,
        version_number: r.version_number,
        body_md: r.body_md,
        updated_at: r.updated_at.toISOString(),
      })),
    };
  }

  /** GET …/diff: what changed between two versions (default: the current one and the one before). */
  async diff(
    ctx: RequestContext,
    projectRef: string,
    topicId: string,
    query: VersionDiffQuery,
  ): Promise<KnowledgeDiffOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.readableHead(ctx, project.id, topicId);
    const to = query.to ?? head.version_number;
    const from = query.from ?? Math.max(1, to - 1);
    const [older, newer] = await Promise.all([this.versionRow(head, from), this.versionRow(head, to)]);
    return {
      topic_id: topicId,
      from_version: from,
      to_version: to,
      unified_diff: unifiedDiff(older.body_md, newer.body_md, {
        from: `knowledge/${topicId}.md (v${from})`,
        to: `knowledge/${topicId}.md (v${to})`,
      }),
      fields: fieldChanges([
        ['title', older.title, newer.title],
        ['owner', older.owner, newer.owner],
      ]),
    };
  }

  /** POST …/restore: an earlier version's content written as the next version; history stays as it is. */
  async restore(ctx: RequestContext, projectRef: string, topicId: string, version: number): Promise<KnowledgeOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    const head = await repo.findHead(this.db, project.id, topicId);
    if (!head || head.deleted_at) throw notFound(topicId, project.id);
    if (version === head.version_number) {
      throw new ConflictError('version_is_current', `Version ${version} of ${topicId} is its current version.`, {
        hint: `Restore a version from 1 to ${head.version_number - 1}; GET …/versions lists them.`,
      });
    }
    const row = await this.versionRow(head, version);
    return this.write(ctx, project.id, { topic_id: topicId, title: row.title, body_md: row.body_md, owner: row.owner });
  }

  private async versionRow(head: repo.KnowledgeHeadRow, version: number): Promise<repo.KnowledgeVersionRow> {
    const row = await repo.findVersion(this.db, head.id, version);
    if (!row) {
      throw new NotFoundError(
        'knowledge_version_not_found',
        `Knowledge ${head.topic_id} has no version ${version}; the current one is ${head.version_number}.`,
        { hint: `Use a version from 1 to ${head.version_number}.` },
      );
    }
    return row;
  }

  /** Every live sheet at its current version, with no grant check (the caller resolved the project). */
  async currentRows(projectId: string) {
    return repo.allCurrent(this.db, projectId);
  }

  /** Deletes a sheet in the caller's transaction (an import with prune); no grant check. */
  async deleteIn(tx: SqlExecutor, id: string, now: Date): Promise<void> {
    await repo.markDeleted(tx, id, now);
  }

  private async readableHead(ctx: RequestContext, projectId: string, topicId: string): Promise<repo.KnowledgeHeadRow> {
    const head = await repo.findHead(this.db, projectId, topicId);
    if (!head || (head.deleted_at && !actorCanOnProject(ctx.actor, projectId, 'admin')))
      throw notFound(topicId, projectId);
    return head;
  }
}

function notFound(topicId: string, projectId: string): NotFoundError {
  return new NotFoundError(
    'knowledge_not_found',
    `No knowledge sheet with topic_id ${topicId} in project ${projectId}.`,
    {
      hint: 'Call search_context to find the topic_id, or get_knowledge without topic_id for the full list.',
    },
  );
}
