import type { ProjectLimits } from '../org/project-limits.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import { actorCanOnProject } from '../../platform/auth/actor.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { readInPages } from '../../platform/batches.js';
import type { Pacer } from '../../platform/pacer.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { z } from 'zod';
import {
  authorOf,
  presentAuthor,
  type PendingReview,
  type VersionAuthor,
  type WriteGate,
} from '../context-hub/context-hub.authorship.js';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import { type FrontmatterExtras, type SkillChanges, SkillPublisher } from './skills.publisher.js';
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

/** What a write became: a published version, or a proposal waiting for review (issue 24). */
export type SkillWrite = { resolved: ResolvedProject } & (
  | { skill: SkillOutput; pending?: undefined }
  | { skill?: undefined; pending: PendingReview }
);

export interface SkillSnapshot {
  current_version: number;
  version: SkillOutput | undefined;
}

export class SkillsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    /** Entitlement limits (issue 4); absent in unit wiring that does not enforce them. */
    private readonly limits?: ProjectLimits,
  ) {}

  /** Versions and proposals: every write below ends there. */
  private readonly publisher = new SkillPublisher();

  /** Attaches the change feed: every write announces that the prompt list changed (SkillPublisher). */
  announceWith(changes: SkillChanges): void {
    this.publisher.announceWith(changes);
  }

  /** Attaches the project write policy (the proposals module); without one every write publishes. */
  governWith(gate: WriteGate): void {
    this.publisher.governWith(gate);
  }

  /** A live Skill by id or name, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<repo.SkillHeadRow | undefined> {
    return repo.findLiveByIdOrName(this.db, projectId, ref);
  }

  /**
   * add_skill / POST /api/skills: a new skill at version 1, or the next version of an existing name;
   * or, when the project's write policy says so (issue 24), a proposal that waits for review.
   */
  async add(ctx: RequestContext, input: AddSkillInput, file?: FrontmatterExtras): Promise<SkillWrite> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    await this.limits?.assertCanAddContextObject(resolved.project.id, 'skill', input.name);
    const pending = await this.publisher.proposeIfGoverned(this.db, ctx, resolved.project, input);
    if (pending) return { resolved, pending };
    const written = file ?? { frontmatterRaw: null, extra: {} };
    const skill = await this.db.transaction((tx) =>
      this.publisher.writeIn(tx, ctx, resolved.project.id, input, written, authorOf(ctx)),
    );
    return { resolved, skill };
  }

  /** POST /api/skills/import: a SKILL.md file becomes the next version of the skill it names. */
  async importFile(ctx: RequestContext, projectRef: string, text: string): Promise<SkillWrite> {
    const file = parseSkillFile(text);
    if (Buffer.byteLength(file.body, 'utf8') > 1024 * 1024) {
      throw new ValidationError([{ path: 'body', message: 'the Markdown body must be at most 1 MiB' }]);
    }
    // A file is recorded as an import (issue 24), unless the console sent it: that is a person's edit.
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
    const head = await repo.findHead(this.db, project.id, name);
    if (!head || head.deleted_at) throw notFound(name, project.id);
    const current = (await repo.findVersion(this.db, head.id, head.version))!;
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
    const pending = await this.publisher.proposeIfGoverned(this.db, ctx, project, input);
    if (pending) return { resolved, pending };
    const file = { frontmatterRaw: null, extra: current.frontmatter_extra };
    const skill = await this.db.transaction((tx) =>
      this.publisher.writeIn(tx, ctx, project.id, input, file, authorOf(ctx)),
    );
    return { resolved, skill };
  }

  /** The live head's version and a version's fields, with no grant check (proposals: staleness and diffs). */
  async snapshot(projectId: string, name: string, version?: number): Promise<SkillSnapshot | undefined> {
    const head = await repo.findHead(this.db, projectId, name);
    if (!head || head.deleted_at) return undefined;
    const row = await repo.findVersion(this.db, head.id, version ?? head.version);
    return { current_version: head.version, version: row ? presentSkill(head, row, new Set()) : undefined };
  }

  /**
   * Publishes an approved proposal as the next version; the version keeps the proposal's author, and
   * `within` (the proposal's decision) runs in the same transaction, so both land or neither does.
   */
  async publishApproved(
    ctx: RequestContext,
    projectId: string,
    name: string,
    fields: Omit<AddSkillInput, 'project_id' | 'name'>,
    author: VersionAuthor,
    within: (tx: SqlExecutor, version: number) => Promise<void>,
  ): Promise<SkillOutput> {
    await this.limits?.assertCanAddContextObject(projectId, 'skill', name);
    return this.db.transaction(async (tx) => {
      const head = await repo.findHead(tx, projectId, name);
      const current = head ? await repo.findVersion(tx, head.id, head.version) : undefined;
      const file = { frontmatterRaw: null, extra: current?.frontmatter_extra ?? {} };
      const skill = await this.publisher.writeIn(
        tx,
        ctx,
        projectId,
        { project_id: projectId, name, ...fields },
        file,
        author,
      );
      await within(tx, skill.version);
      return skill;
    });
  }

  /** One version (default: current). A deleted skill's versions stay readable to admins only. */
  async get(
    ctx: RequestContext,
    projectRef: string,
    name: string,
    version?: number,
  ): Promise<{ resolved: ResolvedProject; skill: SkillOutput }> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.readableHead(ctx, resolved.project.id, name);
    const row = await repo.findVersion(this.db, head.id, version ?? head.version);
    if (!row) {
      throw new NotFoundError(
        'skill_version_not_found',
        `Skill ${name} has no version ${version}; the current one is ${head.version}.`,
        {
          hint: `Call again without version, or with a version from 1 to ${head.version}.`,
        },
      );
    }
    return {
      resolved,
      skill: presentSkill(head, row, await repo.existingKeys(this.db, resolved.project.id, row.mdm_references)),
    };
  }

  async exportFile(ctx: RequestContext, projectRef: string, name: string, version?: number): Promise<string> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.readableHead(ctx, project.id, name);
    const row = await repo.findVersion(this.db, head.id, version ?? head.version);
    if (!row) throw new NotFoundError('skill_version_not_found', `Skill ${name} has no version ${version}.`);
    return renderSkillFile(row);
  }

  async versions(ctx: RequestContext, projectRef: string, name: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const head = await this.readableHead(ctx, project.id, name);
    const after = decodeCursor(page.cursor, z.number().int());
    const rows = await repo.listVersions(this.db, head.id, { after, limit: page.limit + 1 });
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.version);
    return {
      name,
      deleted: head.deleted_at !== null,
      versions: items.map((r) => ({
        version: r.version,
        description: r.description,
        step_count: r.step_count,
        created_at: r.created_at.toISOString(),
        created_by: r.created_by,
        author: presentAuthor(r),
      })),
      next_cursor,
    };
  }

  async remove(ctx: RequestContext, projectRef: string, name: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    const head = await repo.findHead(this.db, project.id, name);
    if (!head || head.deleted_at) throw notFound(name, project.id);
    await this.db.transaction(async (tx) => {
      await repo.markDeleted(tx, head.id, ctx.clock.now());
      await this.publisher.announce(tx);
    });
  }

  async list(ctx: RequestContext, projectRef: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const after = decodeCursor(page.cursor, z.string());
    const rows = await repo.listLive(this.db, project.id, { after, limit: page.limit + 1 });
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.name);
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
    const head = await this.readableHead(ctx, project.id, name);
    const to = query.to ?? head.version;
    const from = query.from ?? Math.max(1, to - 1);
    const [older, newer] = await Promise.all([this.versionRow(head, name, from), this.versionRow(head, name, to)]);
    return diffSkillVersions(name, older, newer);
  }

  /**
   * POST …/restore: an earlier version's content written as the next version (history stays as it
   * is). A write like any other: under the project's review policy it becomes a proposal.
   */
  async restore(ctx: RequestContext, projectRef: string, name: string, version: number): Promise<SkillWrite> {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.write');
    const { project } = resolved;
    const head = await repo.findHead(this.db, project.id, name);
    if (!head || head.deleted_at) throw notFound(name, project.id);
    if (version === head.version) {
      throw new ConflictError('version_is_current', `Version ${version} of skill ${name} is its current version.`, {
        hint: `Restore a version from 1 to ${head.version - 1}; GET …/versions lists them.`,
      });
    }
    const row = await this.versionRow(head, name, version);
    const input: AddSkillInput = {
      project_id: project.id,
      name,
      description: row.description,
      body_md: row.body_md,
      mdm_references: row.mdm_references,
      acceptance: row.acceptance,
      metadata: row.metadata,
    };
    const pending = await this.publisher.proposeIfGoverned(this.db, ctx, project, input);
    if (pending) return { resolved, pending };
    const file = { frontmatterRaw: row.frontmatter_raw, extra: row.frontmatter_extra };
    const skill = await this.db.transaction((tx) =>
      this.publisher.writeIn(tx, ctx, project.id, input, file, authorOf(ctx)),
    );
    return { resolved, skill };
  }

  private async versionRow(head: repo.SkillHeadRow, name: string, version: number): Promise<repo.SkillVersionRow> {
    const row = await repo.findVersion(this.db, head.id, version);
    if (!row) {
      throw new NotFoundError(
        'skill_version_not_found',
        `Skill ${name} has no version ${version}; the current one is ${head.version}.`,
        { hint: `Use a version from 1 to ${head.version}.` },
      );
    }
    return row;
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
   * SKILL.md files, each written as the next version in the caller's transaction (an import), in
   * batches; no grant check. Answers each name's id and version.
   */
  async writeFilesIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    files: SkillFile[],
    author: VersionAuthor,
    pace: Pacer,
  ): Promise<Map<string, { id: string; version: number }>> {
    const written = await writeSkillFilesIn(tx, ctx.clock.now(), projectId, files, author, pace);
    // One announcement for the whole import: clients re-list their prompts once.
    if (written.size > 0) await this.publisher.announce(tx);
    return written;
  }

  /** Deletes skills in the caller's transaction (an import with prune); no grant check. */
  async deleteManyIn(tx: SqlExecutor, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await repo.markManyDeleted(tx, ids, now);
    await this.publisher.announce(tx);
  }

  private async readableHead(ctx: RequestContext, projectId: string, name: string): Promise<repo.SkillHeadRow> {
    const head = await repo.findHead(this.db, projectId, name);
    if (!head || (head.deleted_at && !actorCanOnProject(ctx.actor, projectId, 'admin')))
      throw notFound(name, projectId);
    return head;
  }
}

function notFound(name: string, projectId: string): NotFoundError {
  return new NotFoundError('skill_not_found', `No skill named ${name} in project ${projectId}.`, {
    hint: 'Call search_context or get_skills to find the skill names that exist.',
  });
}
