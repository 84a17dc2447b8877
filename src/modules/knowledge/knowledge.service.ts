import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { unifiedDiff } from '../../platform/line-diff.js';
import { readInPages } from '../../platform/batches.js';
import type { Pacer } from '../../platform/pacer.js';
import type { PageQuery } from '../../platform/pagination.js';
import {
  authorColumns,
  authorOf,
  presentAuthor,
  type PendingReview,
  type VersionAuthor,
  type WriteGate,
  fieldChanges,
  KNOWLEDGE_DOCUMENT,
  VersionedDocuments,
  versionAuthorship,
  type ApprovedWrite,
  type ReviewedDocuments,
  type VersionDiffQuery,
} from '../documents/index.js';
import type { ProjectLimits } from '../org/index.js';
import type { ProjectRow, ProjectsService, ResolvedProject } from '../projects/index.js';
import { writeSheetsIn } from './knowledge.batch.js';
import * as repo from './knowledge.repo.js';
import {
  slugify,
  type AddKnowledgeInput,
  type KnowledgeDiffOutput,
  type KnowledgeOutput,
  type SheetFields,
  type UpdateKnowledgeInput,
} from './knowledge.schemas.js';

export type { SheetFields } from './knowledge.schemas.js';

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

/** What a write became: a published version, or a proposal waiting for review. */
export type KnowledgeWrite = { resolved: ResolvedProject } & (
  | { knowledge: KnowledgeOutput; pending?: undefined }
  | { knowledge?: undefined; pending: PendingReview }
);

export interface KnowledgeSnapshot {
  current_version: number;
  version: KnowledgeOutput | undefined;
}

export interface KnowledgeDeps {
  db: Database;
  projects: ProjectsService;
  /** The project write policy (the proposals gate); without one every write publishes. */
  gate?: WriteGate | undefined;
  /** Entitlement limits; absent in unit wiring that does not enforce them. */
  limits?: ProjectLimits | undefined;
}

export class KnowledgeService implements ReviewedDocuments {
  readonly kind = KNOWLEDGE_DOCUMENT;
  private readonly db: Database;
  private readonly projects: ProjectsService;
  private readonly sheets: VersionedDocuments<repo.KnowledgeHeadRow, repo.KnowledgeVersionRow>;

  constructor(deps: KnowledgeDeps) {
    this.db = deps.db;
    this.projects = deps.projects;
    this.sheets = new VersionedDocuments(
      {
        kind: KNOWLEDGE_DOCUMENT,
        tables: repo.KNOWLEDGE_TABLES,
        title: 'Knowledge',
        currentVersion: (head) => head.version_number,
        restoreLabel: (topicId) => topicId,
        notFound,
      },
      deps,
    );
  }

  /** A live Knowledge sheet by id or topic id, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<repo.KnowledgeHeadRow | undefined> {
    return this.sheets.findLive(projectId, ref);
  }

  /** add_knowledge / POST: a new sheet, or the next version of an existing topic_id; or a proposal. */
  async add(ctx: RequestContext, input: AddKnowledgeInput): Promise<KnowledgeWrite> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    const topicId = input.topic_id ?? slugify(input.title);
    if (!topicId) {
      throw new ValidationError([
        { path: 'topic_id', message: 'cannot be derived from this title (no letters or digits); give one' },
      ]);
    }
    await this.sheets.assertCanAdd(resolved.project.id, topicId);
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
    const head = await this.sheets.liveHead(resolved.project.id, topicId);
    const current = (await this.sheets.version(this.db, head, head.version_number))!;
    return this.land(ctx, resolved, {
      topic_id: topicId,
      title: patch.title ?? current.title,
      body_md: patch.body_md ?? current.body_md,
      owner: patch.owner === undefined ? current.owner : patch.owner,
    });
  }

  /** Publishes, or submits a proposal when the project's write policy says so. */
  private async land(ctx: RequestContext, resolved: ResolvedProject, fields: SheetFields): Promise<KnowledgeWrite> {
    const project: ProjectRow = resolved.project;
    const { topic_id: _topic, ...proposed } = fields;
    const landed = await this.sheets.land(ctx, project, fields.topic_id, proposed, (tx) =>
      this.writeIn(tx, ctx, project.id, fields, authorOf(ctx)),
    );
    return landed.pending ? { resolved, pending: landed.pending } : { resolved, knowledge: landed.published };
  }

  /** The live head's version and a version's fields, with no grant check (proposals: staleness and diffs). */
  async snapshot(projectId: string, topicId: string, version?: number): Promise<KnowledgeSnapshot | undefined> {
    return this.sheets.snapshot(projectId, topicId, version, present);
  }

  /** Publishes an approved proposal; `within` (the decision) runs in the same transaction. */
  async publishProposal(ctx: RequestContext, write: ApprovedWrite): Promise<KnowledgeOutput> {
    const sheet = { topic_id: write.key, ...(write.fields as Omit<SheetFields, 'topic_id'>) };
    return this.sheets.publishApproved(
      write.projectId,
      write.key,
      (tx) => this.writeIn(tx, ctx, write.projectId, sheet, write.author),
      (written) => written.version_number,
      write.within,
    );
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
    return present((await this.sheets.head(tx, projectId, input.topic_id))!, row);
  }

  /** One version (default current). A deleted sheet's versions stay readable to admins only. */
  async get(
    ctx: RequestContext,
    projectRef: string,
    topicId: string,
    version?: number,
  ): Promise<{ resolved: ResolvedProject; knowledge: KnowledgeOutput }> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.sheets.readableHead(ctx, resolved.project.id, topicId);
    const row = await this.sheets.readVersion(head, topicId, version);
    return { resolved, knowledge: present(head, row) };
  }

  async versions(ctx: RequestContext, projectRef: string, topicId: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.sheets.readableHead(ctx, project.id, topicId);
    const { items, next_cursor } = await this.sheets.versionPage(
      head,
      page,
      repo.listVersions,
      (r) => r.version_number,
    );
    return {
      topic_id: topicId,
      deleted: head.deleted_at !== null,
      versions: items.map((r) => ({
        version_number: r.version_number,
        title: r.title,
        owner: r.owner,
        ...versionAuthorship(r),
      })),
      next_cursor,
    };
  }

  async remove(ctx: RequestContext, projectRef: string, topicId: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    await this.sheets.remove(ctx, project.id, topicId);
  }

  async list(ctx: RequestContext, projectRef: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const { items, next_cursor } = await this.sheets.listLive(project.id, page);
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
    const head = await this.sheets.readableHead(ctx, project.id, topicId);
    const { from, to, older, newer } = await this.sheets.diffRows(head, topicId, query);
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
    const row = await this.sheets.restorable(resolved.project.id, topicId, version);
    return this.land(ctx, resolved, { topic_id: topicId, title: row.title, body_md: row.body_md, owner: row.owner });
  }

  /** The live sheets of `topicIds` at their current versions, with no grant check (the caller resolved the project). */
  async currentSheets(projectId: string, topicIds: string[]) {
    return topicIds.length === 0 ? [] : repo.currentByTopic(this.db, projectId, topicIds);
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
    await this.sheets.deleteManyIn(tx, ids, now);
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
