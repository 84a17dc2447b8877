import type { ProjectLimits } from '../org/index.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { readInPages } from '../../platform/batches.js';
import type { Pacer } from '../../platform/pacer.js';
import type { PageQuery } from '../../platform/pagination.js';
import {
  authorOf,
  type PendingReview,
  type VersionAuthor,
  type WriteGate,
  SKILL_DOCUMENT,
  VersionedDocuments,
  versionAuthorship,
  type ApprovedWrite,
  type ReviewedDocuments,
} from '../documents/index.js';
import type { ProjectRow, ProjectsService, ResolvedProject } from '../projects/index.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import { diffSkillVersions } from './skills.diff.js';
import { presentSkill } from './skills.presenter.js';
import { writeSkillFilesIn } from './skills.batch.js';
import * as repo from './skills.repo.js';
import type {
  AddSkillInput,
  ParsedSkillOutput,
  ParseSkillInput,
  SkillDiffOutput,
  SkillOutput,
  UpdateSkillInput,
  VersionDiffQuery,
} from './skills.schemas.js';
import { parseSkillFile, renderSkillFile, type SkillFile } from './skills.skillmd.js';
import { type FrontmatterExtras, PROMPTS_CHANGED, type SkillChanges, writeSkillIn } from './skills.write.js';

/** What a write became: a published version, or a proposal waiting for review. */
export type SkillWrite = { resolved: ResolvedProject } & (
  | { skill: SkillOutput; pending?: undefined }
  | { skill?: undefined; pending: PendingReview }
);

export interface SkillSnapshot {
  current_version: number;
  version: SkillOutput | undefined;
}

export interface SkillsDeps {
  db: Database;
  projects: ProjectsService;
  /** The project write policy (the proposals gate); without one every write publishes. */
  gate?: WriteGate | undefined;
  /**
   * The change feed: every write tells every replica's MCP sessions and subscriptions that the
   * prompt list changed, from inside the write's transaction, so it is heard once it is readable.
   */
  changes?: SkillChanges | undefined;
  /** Entitlement limits; absent in unit wiring that does not enforce them. */
  limits?: ProjectLimits | undefined;
}

/**
 * Skills over the shared document lifecycle. Every path that changes the Skills a prompt list
 * shows (add, update, restore, an approved proposal, a delete, an import) announces it.
 */
/** A live Skill's SKILL.md with what its other files are found by (its id and business keys). */
export interface CurrentSkillFile {
  project_id: string;
  name: string;
  skill_id: string;
  references: string[];
  text: string;
}

export class SkillsService implements ReviewedDocuments {
  readonly kind = SKILL_DOCUMENT;
  private readonly db: Database;
  private readonly projects: ProjectsService;
  private readonly skills: VersionedDocuments<repo.SkillHeadRow, repo.SkillVersionRow>;
  /** Rendered SKILL.md per `skill_id:version`: a stored version never changes, so neither does its file. */
  private readonly rendered = new Map<string, string>();

  constructor(deps: SkillsDeps) {
    this.db = deps.db;
    this.projects = deps.projects;
    const changes = deps.changes;
    this.skills = new VersionedDocuments(
      {
        kind: SKILL_DOCUMENT,
        tables: repo.SKILL_TABLES,
        title: 'Skill',
        currentVersion: (head) => head.version,
        restoreLabel: (name) => `skill ${name}`,
        notFound,
      },
      { ...deps, changed: changes ? (tx) => changes.publishIn(tx, PROMPTS_CHANGED) : undefined },
    );
  }

  /** A live Skill by id or name, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<repo.SkillHeadRow | undefined> {
    return this.skills.findLive(projectId, ref);
  }

  /**
   * add_skill / POST /api/skills: a new skill at version 1, or the next version of an existing name;
   * or, when the project's write policy says so, a proposal that waits for review.
   */
  async add(ctx: RequestContext, input: AddSkillInput, file?: FrontmatterExtras): Promise<SkillWrite> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    await this.skills.assertCanAdd(resolved.project.id, input.name);
    return this.land(ctx, resolved, input, file ?? { frontmatterRaw: null, extra: {} });
  }

  /** POST /api/skills/import: a SKILL.md file becomes the next version of the skill it names. */
  async importFile(ctx: RequestContext, projectRef: string, text: string): Promise<SkillWrite> {
    const file = parseSkillFile(text);
    if (Buffer.byteLength(file.body, 'utf8') > 1024 * 1024) {
      throw new ValidationError([{ path: 'body', message: 'the Markdown body must be at most 1 MiB' }]);
    }
    // A file is recorded as an import, unless the console sent it: that is a person's edit.
    const via = ctx.via === 'console' ? 'console' : 'import';
    return this.add(
      { ...ctx, via },
      {
        project_id: projectRef,
        name: file.name,
        description: file.description,
        body_md: file.body,
        metadata: file.metadata,
      },
      { frontmatterRaw: file.frontmatterRaw, extra: file.extra },
    );
  }

  /**
   * What saving `body_md` would store, without storing it: the same parser as a write (the console's
   * live preview; the browser never parses a Skill itself), and which references the taxonomy lacks.
   */
  async parse(ctx: RequestContext, input: ParseSkillInput): Promise<ParsedSkillOutput> {
    const { project } = await this.projects.resolve(ctx, input.project_id, 'context.read');
    const references = mergeReferences(parseReferences(input.body_md), input.mdm_references);
    const known = await repo.existingKeys(this.db, project.id, references);
    return {
      steps: parseSteps(input.body_md),
      acceptance: input.acceptance ?? parseAcceptance(input.body_md),
      mdm_references: references,
      unresolved_references: references.filter((k) => !known.has(k)),
    };
  }

  async update(ctx: RequestContext, projectRef: string, name: string, patch: UpdateSkillInput): Promise<SkillWrite> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.write');
    const { project } = resolved;
    const head = await this.skills.liveHead(project.id, name);
    const current = (await this.skills.version(this.db, head, head.version))!;
    const bodyChanged = patch.body_md !== undefined;
    const input: AddSkillInput = {
      project_id: project.id,
      name,
      description: patch.description ?? current.description,
      body_md: patch.body_md ?? current.body_md,
      // Explicit lists carry over only while the body they supplemented stays the same.
      mdm_references: patch.mdm_references ?? (bodyChanged ? undefined : current.mdm_references),
      acceptance: patch.acceptance ?? (bodyChanged ? undefined : current.acceptance),
      metadata: patch.metadata ?? current.metadata,
    };
    return this.land(ctx, resolved, input, { frontmatterRaw: null, extra: current.frontmatter_extra });
  }

  /** Publishes, or submits a proposal when the project's write policy says so. */
  private async land(
    ctx: RequestContext,
    resolved: ResolvedProject,
    input: AddSkillInput,
    file: FrontmatterExtras,
  ): Promise<SkillWrite> {
    const project: ProjectRow = resolved.project;
    const { project_id: _project, name: _name, ...fields } = input;
    const landed = await this.skills.land(ctx, project, input.name, fields, (tx) =>
      this.writeIn(tx, ctx, project.id, input, file, authorOf(ctx)),
    );
    return landed.pending ? { resolved, pending: landed.pending } : { resolved, skill: landed.published };
  }

  /** Writes the next version in `tx` and announces it. */
  private async writeIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    input: AddSkillInput,
    file: FrontmatterExtras,
    author: VersionAuthor,
  ): Promise<SkillOutput> {
    const skill = await writeSkillIn(tx, ctx.clock.now(), projectId, input, file, author);
    await this.skills.announce(tx);
    return skill;
  }

  /** The live head's version and a version's fields, with no grant check (proposals: staleness and diffs). */
  async snapshot(projectId: string, name: string, version?: number): Promise<SkillSnapshot | undefined> {
    return this.skills.snapshot(projectId, name, version, (head, row) => presentSkill(head, row, new Set()));
  }

  /**
   * Publishes an approved proposal as the next version; the version keeps the proposal's author
   * and the current version's front matter, and `within` (the proposal's decision) runs in the
   * same transaction, so both land or neither does.
   */
  async publishProposal(ctx: RequestContext, write: ApprovedWrite): Promise<SkillOutput> {
    const { projectId, key: name } = write;
    const fields = write.fields as Omit<AddSkillInput, 'project_id' | 'name'>;
    return this.skills.publishApproved(
      projectId,
      name,
      async (tx) => {
        const head = await this.skills.head(tx, projectId, name);
        const current = head ? await this.skills.version(tx, head, head.version) : undefined;
        const file = { frontmatterRaw: null, extra: current?.frontmatter_extra ?? {} };
        return this.writeIn(tx, ctx, projectId, { project_id: projectId, name, ...fields }, file, write.author);
      },
      (skill) => skill.version,
      write.within,
    );
  }

  /** One version (default: current). A deleted skill's versions stay readable to admins only. */
  async get(
    ctx: RequestContext,
    projectRef: string,
    name: string,
    version?: number,
  ): Promise<{ resolved: ResolvedProject; skill: SkillOutput }> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.skills.readableHead(ctx, resolved.project.id, name);
    const row = await this.skills.readVersion(head, name, version);
    return {
      resolved,
      skill: presentSkill(head, row, await repo.existingKeys(this.db, resolved.project.id, row.mdm_references)),
    };
  }

  async exportFile(ctx: RequestContext, projectRef: string, name: string, version?: number): Promise<string> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.skills.readableHead(ctx, project.id, name);
    const row = await this.skills.version(this.db, head, version ?? head.version);
    if (!row) throw new NotFoundError('skill_version_not_found', `Skill ${name} has no version ${version}.`);
    return renderSkillFile(row);
  }

  async versions(ctx: RequestContext, projectRef: string, name: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.skills.readableHead(ctx, project.id, name);
    const { items, next_cursor } = await this.skills.versionPage(head, page, repo.listVersions, (r) => r.version);
    return {
      name,
      deleted: head.deleted_at !== null,
      versions: items.map((r) => ({
        version: r.version,
        description: r.description,
        step_count: r.step_count,
        ...versionAuthorship(r),
      })),
      next_cursor,
    };
  }

  async remove(ctx: RequestContext, projectRef: string, name: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    await this.skills.remove(ctx, project.id, name);
  }

  async list(ctx: RequestContext, projectRef: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const { items, next_cursor } = await this.skills.listLive(project.id, page);
    return {
      skills: items.map((r) => ({
        id: r.id,
        name: r.name,
        version: r.version,
        description: r.description,
        mdm_references: r.mdm_references,
        updated_at: r.updated_at.toISOString(),
      })),
      next_cursor,
    };
  }

  /** Every live skill in full (get_skills; the context hub dump). */
  async all(ctx: RequestContext, projectRef: string): Promise<{ resolved: ResolvedProject; skills: SkillOutput[] }> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const rows = await repo.allCurrent(this.db, resolved.project.id);
    const known = await repo.existingKeys(this.db, resolved.project.id, [
      ...new Set(rows.flatMap((r) => r.mdm_references)),
    ]);
    const skills = rows.map((r) =>
      presentSkill(
        { id: r.id, project_id: resolved.project.id, version: r.version, deleted_at: null, created_at: r.created_at },
        r,
        known,
      ),
    );
    return { resolved, skills };
  }

  /** GET …/diff: what changed between two versions (default: the current one and the one before). */
  async diff(ctx: RequestContext, projectRef: string, name: string, query: VersionDiffQuery): Promise<SkillDiffOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.skills.readableHead(ctx, project.id, name);
    const { older, newer } = await this.skills.diffRows(head, name, query);
    return diffSkillVersions(name, older, newer);
  }

  /**
   * POST …/restore: an earlier version's content written as the next version (history stays as it
   * is). A write like any other: under the project's review policy it becomes a proposal.
   */
  async restore(ctx: RequestContext, projectRef: string, name: string, version: number): Promise<SkillWrite> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.write');
    const row = await this.skills.restorable(resolved.project.id, name, version);
    const input: AddSkillInput = {
      project_id: resolved.project.id,
      name,
      description: row.description,
      body_md: row.body_md,
      mdm_references: row.mdm_references,
      acceptance: row.acceptance,
      metadata: row.metadata,
    };
    return this.land(ctx, resolved, input, { frontmatterRaw: row.frontmatter_raw, extra: row.frontmatter_extra });
  }

  /** Every live skill as its SKILL.md, with no grant check (the caller resolved the project): the hub as files. */
  async currentFiles(
    projectId: string,
    pace: Pacer,
  ): Promise<{ id: string; name: string; version: number; text: string }[]> {
    const rows = await readInPages(
      (after, limit) => repo.allCurrent(this.db, projectId, { after, limit }),
      (r) => r.name,
      pace,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, version: r.version, text: renderSkillFile(r) }));
  }

  /**
   * Live Skills' SKILL.md across `projectIds` in (project, name) order after `after`, at most
   * `limit`, with no grant check (the caller chose the projects): Skills as Agent Skills folders.
   */
  async currentFilesAcross(
    projectIds: string[],
    after: { project_id: string; name: string } | undefined,
    limit: number,
  ): Promise<CurrentSkillFile[]> {
    const rows = await repo.currentAcross(this.db, projectIds, after, limit);
    return rows.map((r) => this.currentOf(r));
  }

  /** One live Skill's SKILL.md, with no grant check; undefined when no live Skill has the name. */
  async currentFile(projectId: string, name: string): Promise<CurrentSkillFile | undefined> {
    const [row] = await repo.currentAcross(this.db, [projectId], { project_id: projectId, name }, 1, true);
    return row ? this.currentOf(row) : undefined;
  }

  private currentOf(row: repo.SkillVersionRow & { project_id: string }): CurrentSkillFile {
    return {
      project_id: row.project_id,
      name: row.name,
      skill_id: row.skill_id,
      references: row.mdm_references,
      text: this.renderedFile(row),
    };
  }

  private renderedFile(row: repo.SkillVersionRow): string {
    const key = `${row.skill_id}:${row.version}`;
    let text = this.rendered.get(key);
    if (text === undefined) {
      text = renderSkillFile(row);
      this.rendered.set(key, text);
      // Bounded: the oldest rendering goes first.
      if (this.rendered.size > 10_000) this.rendered.delete(this.rendered.keys().next().value!);
    }
    return text;
  }

  /**
   * SKILL.md files, each written as the next version in the caller's transaction (an import), in
   * batches; no grant check. Answers each name's id and version.
   */
  async writeManyIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    files: SkillFile[],
    author: VersionAuthor,
    pace: Pacer,
  ): Promise<Map<string, { id: string; version: number }>> {
    const written = await writeSkillFilesIn(tx, ctx.clock.now(), projectId, files, author, pace);
    // One announcement for the whole import: clients re-list their prompts once.
    if (written.size > 0) await this.skills.announce(tx);
    return written;
  }

  /** Deletes skills in the caller's transaction (an import with prune); no grant check. */
  async deleteManyIn(tx: SqlExecutor, ids: string[], now: Date): Promise<void> {
    await this.skills.deleteManyIn(tx, ids, now);
  }
}

function notFound(name: string, projectId: string): NotFoundError {
  return new NotFoundError('skill_not_found', `No skill named ${name} in project ${projectId}.`, {
    hint: 'Call search_context or get_skills to find the skill names that exist.',
  });
}
