import type { ProjectLimits } from '../org/project-limits.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import { actorCanOnProject } from '../../platform/auth/actor.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { unifiedDiff } from '../../platform/line-diff.js';
import { readInPages } from '../../platform/batches.js';
import type { Pacer } from '../../platform/pacer.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import {
  authorColumns,
  authorOf,
  presentAuthor,
  type PendingReview,
  type VersionAuthor,
  type WriteGate,
} from '../context-hub/context-hub.authorship.js';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
import { fieldChanges } from '../skills/skills.diff.js';
import type { VersionDiffQuery } from '../skills/skills.schemas.js';
import { writeSheetsIn } from './knowledge.batch.js';
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
    author: presentAuthor(row),
    deleted: head.deleted_at !== null,
  };
}

/** What a write became: a published version, or a proposal waiting for review (issue 24). */
export type KnowledgeWrite = { resolved: ResolvedProject } & (
  | { knowledge: KnowledgeOutput; pending?: undefined }
  | { knowledge?: undefined; pending: PendingReview }
);

export interface SheetFields {
  topic_id: string;
  title: string;
  body_md: string;
  owner: string | null;
}

export interface KnowledgeSnapshot {
  current_version: number;
  version: KnowledgeOutput | undefined;
}

export class KnowledgeService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    /** Entitlement limits (issue 4); absent in unit wiring that does not enforce them. */
    private readonly limits?: ProjectLimits,
  ) {}

  private gate: WriteGate | undefined;

  /** A live Knowledge sheet by id or topic id, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<repo.KnowledgeHeadRow | undefined> {
    return repo.findLiveByIdOrTopic(this.db, projectId, ref);
  }

  /** add_knowledge / POST: a new sheet, or the next version of an existing topic_id; or a proposal (issue 24). */
  async add(ctx: RequestContext, input: AddKnowledgeInput): Promise<KnowledgeWrite> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    const topicId = input.topic_id ?? slugify(input.title);
    if (!topicId) {
      throw new ValidationError([
        { path: 'topic_id', message: 'cannot be derived from this title (no letters or digits); give one' },
      ]);
    }
    await this.limits?.assertCanAddContextObject(resolved.project.id, 'knowledge', topicId);
    const fields = { topic_id: topicId, title: input.title, body_md: input.body_md, owner: input.owner ?? null };
    return this.land(ctx, resolved, fields);
  }

  async update(
    ctx: RequestContext,
    projectRef: string,
    topicId: string,
    patch: UpdateKnowledgeInput,
  ): Promise<KnowledgeWrite> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.write');
    const { project } = resolved;
    const head = await repo.findHead(this.db, project.id, topicId);
    if (!head || head.deleted_at) throw notFound(topicId, project.id);
    const current = (await repo.findVersion(this.db, head.id, head.version_number))!;
    return this.land(ctx, resolved, {
      topic_id: topicId,
      title: patch.title ?? current.title,
      body_md: patch.body_md ?? current.body_md,
      owner: patch.owner === undefined ? current.owner : patch.owner,
    });
  }

  /** Attaches the project write policy (the proposals module); without one every write publishes. */
  governWith(gate: WriteGate): void {
    this.gate = gate;
  }

  /** Publishes, or submits a proposal when the project's write policy says so. */
  private async land(ctx: RequestContext, resolved: ResolvedProject, fields: SheetFields): Promise<KnowledgeWrite> {
    const { project } = resolved;
    if (this.gate && this.gate.decide(ctx, project) === 'propose') {
      const head = await repo.findHead(this.db, project.id, fields.topic_id);
      const { topic_id: _topic, ...proposed } = fields;
      const pending = await this.gate.propose(ctx, project, {
        kind: 'knowledge',
        key: fields.topic_id,
        base_version: head && !head.deleted_at ? head.version_number : null,
        fields: proposed,
      });
      return { resolved, pending };
    }
    const knowledge = await this.db.transaction((tx) => this.writeIn(tx, ctx, project.id, fields, authorOf(ctx)));
    return { resolved, knowledge };
  }

  /** The live head's version and a version's fields, with no grant check (proposals: staleness and diffs). */
  async snapshot(projectId: string, topicId: string, version?: number): Promise<KnowledgeSnapshot | undefined> {
    const head = await repo.findHead(this.db, projectId, topicId);
    if (!head || head.deleted_at) return undefined;
    const row = await repo.findVersion(this.db, head.id, version ?? head.version_number);
    return { current_version: head.version_number, version: row ? present(head, row) : undefined };
  }

  /** Publishes an approved proposal; `within` (the decision) runs in the same transaction. */
  async publishApproved(
    ctx: RequestContext,
    projectId: string,
    fields: SheetFields,
    author: VersionAuthor,
    within: (tx: SqlExecutor, version: number) => Promise<void>,
  ): Promise<KnowledgeOutput> {
    await this.limits?.assertCanAddContextObject(projectId, 'knowledge', fields.topic_id);
    return this.db.transaction(async (tx) => {
      const sheet = await this.writeIn(tx, ctx, projectId, fields, author);
      await within(tx, sheet.version_number);
      return sheet;
    });
  }

  /** The write itself, in the caller's transaction (its own, an approval's or an import's); no grant check. */
  async writeIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    input: SheetFields,
    author: VersionAuthor,
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
      ...authorColumns(author, now),
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
      versions: items.map((r) => ({
        version_number: r.version_number,
        title: r.title,
        owner: r.owner,
        created_at: r.created_at.toISOString(),
        created_by: r.created_by,
        author: presentAuthor(r),
      })),
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

  /**
   * POST …/restore: an earlier version's content written as the next version (history stays as it
   * is). A write like any other: under the project's review policy it becomes a proposal.
   */
  async restore(ctx: RequestContext, projectRef: string, topicId: string, version: number): Promise<KnowledgeWrite> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.write');
    const { project } = resolved;
    const head = await repo.findHead(this.db, project.id, topicId);
    if (!head || head.deleted_at) throw notFound(topicId, project.id);
    if (version === head.version_number) {
      throw new ConflictError('version_is_current', `Version ${version} of ${topicId} is its current version.`, {
        hint: `Restore a version from 1 to ${head.version_number - 1}; GET …/versions lists them.`,
      });
    }
    const row = await this.versionRow(head, version);
    return this.land(ctx, resolved, { topic_id: topicId, title: row.title, body_md: row.body_md, owner: row.owner });
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
  async currentRows(projectId: string, pace: Pacer) {
    return readInPages(
      (after, limit) => repo.allCurrent(this.db, projectId, { after, limit }),
      (r) => r.topic_id,
      pace,
    );
  }

  /**
   * Many sheets, each as the next version (or a new sheet), in the caller's transaction (an import);
   * no grant check. Answers each topic_id's id and version.
   */
  async writeManyIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    sheets: SheetFields[],
    author: VersionAuthor,
    pace: Pacer,
  ): Promise<Map<string, { id: string; version: number }>> {
    return writeSheetsIn(tx, ctx.clock.now(), projectId, sheets, author, pace);
  }

  /** Deletes sheets in the caller's transaction (an import with prune); no grant check. */
  async deleteManyIn(tx: SqlExecutor, ids: string[], now: Date): Promise<void> {
    if (ids.length > 0) await repo.markManyDeleted(tx, ids, now);
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
