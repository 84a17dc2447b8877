import type { ProjectLimits } from '../org/project-limits.js';
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../platform/context/request-context.js';
import { actorCanOnProject } from '../../platform/auth/actor.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { z } from 'zod';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
import { mergeReferences, parseAcceptance, parseReferences, parseSteps } from './skills.parse.js';
import { presentSkill } from './skills.presenter.js';
import * as repo from './skills.repo.js';
import type {
  AddSkillInput,
  ParsedSkillOutput,
  ParseSkillInput,
  SkillOutput,
  UpdateSkillInput,
} from './skills.schemas.js';
import { parseSkillFile, renderSkillFile } from './skills.skillmd.js';

interface FrontmatterExtras {
  frontmatterRaw: string | null;
  extra: Record<string, unknown>;
}

export class SkillsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    /** Entitlement limits (issue 4); absent in unit wiring that does not enforce them. */
    private readonly limits?: ProjectLimits,
  ) {}

  /** A live Skill by id or name, with no grant check (the taxonomy links to it in a resolved project). */
  async findLive(projectId: string, ref: string): Promise<repo.SkillHeadRow | undefined> {
    return repo.findLiveByIdOrName(this.db, projectId, ref);
  }

  /** add_skill / POST /api/skills: a new skill at version 1, or the next version of an existing name. */
  async add(
    ctx: RequestContext,
    input: AddSkillInput,
    file?: FrontmatterExtras,
  ): Promise<{ resolved: ResolvedProject; skill: SkillOutput }> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.write');
    await this.limits?.assertCanAddContextObject(resolved.project.id, 'skill', input.name);
    const skill = await this.write(ctx, resolved.project.id, input, file ?? { frontmatterRaw: null, extra: {} });
    return { resolved, skill };
  }

  /** POST /api/skills/import: a SKILL.md file becomes the next version of the skill it names. */
  async importFile(
    ctx: RequestContext,
    projectRef: string,
    text: string,
  ): Promise<{ resolved: ResolvedProject; skill: SkillOutput }> {
    const file = parseSkillFile(text);
    if (Buffer.byteLength(file.body, 'utf8') > 1024 * 1024) {
      throw new ValidationError([{ path: 'body', message: 'the Markdown body must be at most 1 MiB' }]);
    }
    return this.add(
      ctx,
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

  async update(ctx: RequestContext, projectRef: string, name: string, patch: UpdateSkillInput): Promise<SkillOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    const head = await repo.findHead(this.db, project.id, name);
    if (!head || head.deleted_at) throw notFound(name, project.id);
    const current = (await repo.findVersion(this.db, head.id, head.version))!;
    const bodyChanged = patch.body_md !== undefined;
    return this.write(
      ctx,
      project.id,
      {
        project_id: project.id,
        name,
        description: patch.description ?? current.description,
        body_md: patch.body_md ?? current.body_md,
        // Explicit lists carry over only while the body they supplemented stays the same.
        mdm_references: patch.mdm_references ?? (bodyChanged ? undefined : current.mdm_references),
        acceptance: patch.acceptance ?? (bodyChanged ? undefined : current.acceptance),
        metadata: patch.metadata ?? current.metadata,
      },
      { frontmatterRaw: null, extra: current.frontmatter_extra },
    );
  }

  private async write(
    ctx: RequestContext,
    projectId: string,
    input: AddSkillInput,
    file: FrontmatterExtras,
  ): Promise<SkillOutput> {
    const steps = parseSteps(input.body_md);
    const references = mergeReferences(parseReferences(input.body_md), input.mdm_references);
    const acceptance = input.acceptance ?? parseAcceptance(input.body_md);
    const now = ctx.clock.now();
    const { head, version } = await this.db.transaction(async (tx) => {
      const bumped = await repo.bumpHead(tx, {
        id: `sk_${randomBytes(8).toString('hex')}`,
        project_id: projectId,
        name: input.name,
        description: input.description,
        body_md: input.body_md,
        mdm_references: references,
        now,
      });
      const row: repo.SkillVersionRow = {
        skill_id: bumped.id,
        version: bumped.version,
        name: input.name,
        description: input.description,
        body_md: input.body_md,
        steps,
        mdm_references: references,
        acceptance,
        metadata: input.metadata ?? {},
        frontmatter_extra: file.extra,
        frontmatter_raw: file.frontmatterRaw,
        created_at: now,
        created_by: ctx.actor.subject,
      };
      await repo.insertVersion(tx, row);
      return { head: (await repo.findHead(tx, projectId, input.name))!, version: row };
    });
    return presentSkill(head, version, await repo.existingKeys(this.db, projectId, references));
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
      versions: items.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      next_cursor,
    };
  }

  async remove(ctx: RequestContext, projectRef: string, name: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    const head = await repo.findHead(this.db, project.id, name);
    if (!head || head.deleted_at) throw notFound(name, project.id);
    await repo.markDeleted(this.db, head.id, ctx.clock.now());
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
