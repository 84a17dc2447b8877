import type { ProjectLimits } from '../org/index.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database, SqlExecutor } from '../../platform/db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { decodeCursor, pageOf, type PageQuery } from '../../platform/pagination.js';
import { readInPages } from '../../platform/batches.js';
import type { Pacer } from '../../platform/pacer.js';
import type { ProjectsService } from '../projects/index.js';
import * as repo from './taxonomy.repo.js';
import type {
  BusinessKeyOutput,
  CreateKeyInput,
  CreateLinkInput,
  LinkOutput,
  TreeNode,
  UpdateKeyInput,
} from './taxonomy.schemas.js';

export function presentKey(row: repo.KeyRow): BusinessKeyOutput {
  return {
    key: row.key,
    label: row.label,
    description: row.description,
    parent: row.parent_key,
    synonyms: row.synonyms,
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentLink(row: repo.LinkRow): LinkOutput {
  return {
    id: row.id,
    relation_type: row.relation_type,
    source_type: row.source_type,
    source_id: row.source_id,
    source_key: row.source_key,
    business_key: row.business_key,
    created_at: row.created_at.toISOString(),
  };
}

/** What an import changes in the taxonomy, in the order it is applied (TaxonomyService.applyIn). */
export interface TaxonomyChanges {
  createKeys: Omit<repo.KeyRow, 'updated_at'>[];
  updateKeys: Omit<repo.KeyRow, 'updated_at'>[];
  removeLinks: string[];
  addLinks: { relation_type: string; source_type: string; source_id: string; business_key: string }[];
  deleteKeys: string[];
}

export interface SkillContext {
  keys: { key: string; label: string | null }[];
  knowledge: { topic_id: string; title: string; business_key: string; relation_type: string }[];
  more: number;
}

export interface LinkedObject {
  kind: 'skill' | 'knowledge';
  id: string;
  key: string;
  title: string;
  relation_type: string;
  link_id: string | null;
}

/** The reads a link's creation needs of the Skills and Knowledge services (a row, or undefined). */
export interface LinkSources {
  skills: { findLive(projectId: string, ref: string): Promise<{ id: string } | undefined> };
  knowledge: { findLive(projectId: string, ref: string): Promise<{ id: string } | undefined> };
}

export class TaxonomyService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    /** Where links' sources live: a live Skill (by id or name) or Knowledge sheet (by id or topic id). */
    private readonly sources: LinkSources,
    /** Entitlement limits (how many context objects a project may hold); absent in unit wiring. */
    private readonly limits?: ProjectLimits,
  ) {}

  async createKey(ctx: RequestContext, input: CreateKeyInput): Promise<BusinessKeyOutput> {
    const { project } = await this.projects.resolve(ctx, input.project_id, 'context.write');
    await this.limits?.assertCanAddContextObject(project.id, 'business_key', input.key);
    const parent = input.parent ?? null;
    if (parent !== null) await this.requireParent(project.id, parent);
    const row = await repo.insertKey(
      this.db,
      project.id,
      {
        key: input.key,
        label: input.label,
        description: input.description ?? null,
        parent_key: parent,
        synonyms: input.synonyms ?? [],
      },
      ctx.clock.now(),
    );
    if (!row)
      throw new ConflictError(
        'business_key_exists',
        `Business key ${input.key} already exists in project ${project.id}.`,
        { hint: 'Use PUT to change it.' },
      );
    return presentKey(row);
  }

  async updateKey(
    ctx: RequestContext,
    projectRef: string,
    key: string,
    patch: UpdateKeyInput,
  ): Promise<BusinessKeyOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    return this.db.transaction(async (tx) => {
      const current = await repo.findKey(tx, project.id, key);
      if (!current) throw keyNotFound(key, project.id);
      const parent = patch.parent === undefined ? current.parent_key : patch.parent;
      if (parent !== null && parent !== current.parent_key) {
        await this.requireParent(project.id, parent, tx);
        const chain = await repo.ancestors(tx, project.id, parent);
        if (chain.includes(key)) {
          const cycle = [key, ...chain.slice(0, chain.indexOf(key) + 1)].join(' → ');
          throw new ValidationError(
            [{ path: 'body.parent', message: `would make a cycle: ${cycle}` }],
            undefined,
            'business_key_cycle',
          );
        }
      }
      const row = await repo.updateKey(
        tx,
        project.id,
        {
          key,
          label: patch.label ?? current.label,
          description: patch.description === undefined ? current.description : patch.description,
          parent_key: parent,
          synonyms: patch.synonyms ?? current.synonyms,
        },
        ctx.clock.now(),
      );
      return presentKey(row);
    });
  }

  async deleteKey(ctx: RequestContext, projectRef: string, key: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    if (!(await repo.findKey(this.db, project.id, key))) throw keyNotFound(key, project.id);
    const kids = await repo.children(this.db, project.id, key);
    if (kids.length > 0) {
      throw new ConflictError(
        'business_key_has_children',
        `Business key ${key} has child keys (${kids
          .slice(0, 5)
          .map((k) => k.key)
          .join(', ')}).`,
        {
          hint: 'Move or delete the child keys first.',
        },
      );
    }
    await repo.deleteKey(this.db, project.id, key);
  }

  async getKey(ctx: RequestContext, projectRef: string, key: string): Promise<BusinessKeyOutput> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const row = await repo.findKey(this.db, project.id, key);
    if (!row) throw keyNotFound(key, project.id);
    return presentKey(row);
  }

  async listKeys(ctx: RequestContext, projectRef: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const rows = await repo.listKeys(this.db, project.id, {
      after: decodeCursor(page.cursor, z.string()),
      limit: page.limit + 1,
    });
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.key);
    return { keys: items.map(presentKey), next_cursor };
  }

  async tree(
    ctx: RequestContext,
    projectRef: string,
  ): Promise<{ project_id: string; roots: TreeNode[]; key_count: number }> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const rows = await repo.listKeys(this.db, project.id, {});
    const nodes = new Map(rows.map((r) => [r.key, { key: r.key, label: r.label, children: [] as TreeNode[] }]));
    const roots: TreeNode[] = [];
    for (const row of rows) {
      const node = nodes.get(row.key)!;
      const parent = row.parent_key ? nodes.get(row.parent_key) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return { project_id: project.id, roots, key_count: rows.length };
  }

  /** get_business_key: the key, its parent and children, and every live object linked to it. */
  async describeKey(ctx: RequestContext, projectRef: string, key: string) {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const projectId = resolved.project.id;
    const row = await repo.findKey(this.db, projectId, key);
    if (!row) throw keyNotFound(key, projectId);
    const [parent, kids, links, referencing] = await Promise.all([
      row.parent_key ? repo.findKey(this.db, projectId, row.parent_key) : Promise.resolve(undefined),
      repo.children(this.db, projectId, key),
      repo.listLinks(this.db, projectId, { businessKey: key, limit: 500 }),
      repo.skillsReferencing(this.db, projectId, key),
    ]);
    const linked: LinkedObject[] = links.map((l) => ({
      kind: l.source_type,
      id: l.source_id,
      key: l.source_key,
      title: l.source_title,
      relation_type: l.relation_type,
      link_id: l.id,
    }));
    for (const s of referencing) {
      linked.push({
        kind: 'skill',
        id: s.id,
        key: s.name,
        title: s.description,
        relation_type: 'referenced_by_skill',
        link_id: null,
      });
    }
    return {
      resolved,
      key: presentKey(row),
      parent: parent ? { key: parent.key, label: parent.label } : null,
      children: kids,
      linked,
    };
  }

  async createLink(ctx: RequestContext, input: CreateLinkInput): Promise<LinkOutput> {
    const { project } = await this.projects.resolve(ctx, input.project_id, 'context.write');
    const [key, source] = await Promise.all([
      repo.findKey(this.db, project.id, input.business_key),
      input.source_type === 'skill'
        ? this.sources.skills.findLive(project.id, input.source_id)
        : this.sources.knowledge.findLive(project.id, input.source_id),
    ]);
    const errors = [];
    if (!key)
      errors.push({
        path: 'body.business_key',
        message: `business key ${input.business_key} does not exist in project ${project.id}`,
      });
    if (!source)
      errors.push({
        path: 'body.source_id',
        message: `no live ${input.source_type} ${input.source_id} in project ${project.id}`,
      });
    if (errors.length > 0) throw new ValidationError(errors, undefined, 'reference_not_found');
    const id = `bl_${randomBytes(8).toString('hex')}`;
    const created = await repo.insertLink(this.db, {
      id,
      project_id: project.id,
      relation_type: input.relation_type,
      source_type: input.source_type,
      source_id: source!.id,
      business_key: input.business_key,
      created_by: ctx.actor.subject,
      now: ctx.clock.now(),
    });
    if (!created) {
      throw new ConflictError(
        'business_link_exists',
        `${input.source_type} ${input.source_id} already ${input.relation_type} ${input.business_key}.`,
      );
    }
    return presentLink((await repo.listLinks(this.db, project.id, { id }))[0]!);
  }

  async listLinks(ctx: RequestContext, projectRef: string, page: PageQuery) {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.read');
    const rows = await repo.listLinks(this.db, project.id, {
      after: decodeCursor(page.cursor, z.string()),
      limit: page.limit + 1,
    });
    const { items, next_cursor } = pageOf(rows, page.limit, (r) => r.id);
    return { links: items.map(presentLink), next_cursor };
  }

  async deleteLink(ctx: RequestContext, projectRef: string, id: string): Promise<void> {
    const { project } = await this.projects.resolve(ctx, projectRef, 'context.write');
    if (!(await repo.deleteLink(this.db, project.id, id))) {
      throw new NotFoundError('business_link_not_found', `No business link ${id} in project ${project.id}.`);
    }
  }

  /** Every key and live link (the hub dump). */
  async all(ctx: RequestContext, projectRef: string, pace?: Pacer) {
    const resolved = await this.projects.resolve(ctx, projectRef, 'context.read');
    const id = resolved.project.id;
    // With a pacer, page by page with turns of the event loop between (an import of a large hub).
    const [keys, links] = pace
      ? [
          await readInPages(
            (after, limit) => repo.listKeys(this.db, id, { after, limit }),
            (k) => k.key,
            pace,
          ),
          await readInPages(
            (after, limit) => repo.listLinks(this.db, id, { after, limit }),
            (l) => l.id,
            pace,
          ),
        ]
      : await Promise.all([repo.listKeys(this.db, id, {}), repo.listLinks(this.db, id, {})]);
    return { keys: keys.map(presentKey), links: links.map(presentLink) };
  }

  /**
   * The topic ids of the live Knowledge sheets linked to the keys a Skill references or links to,
   * `explains` first, then by topic id, at most `limit`. No grant check (the caller read the Skill).
   */
  async knowledgeTopicsOf(projectId: string, skill: { id: string; references: string[] }, limit: number) {
    const rows = await repo.knowledgeForSkill(this.db, projectId, skill.id, skill.references, limit);
    return rows.map((r) => r.topic_id);
  }

  /**
   * What a Skill's prompt names beside its steps: the keys it references or links to,
   * with their labels (null: not in the taxonomy), and the live Knowledge sheets linked to those
   * keys, `explains` first, at most `limit` (`more` counts the rest). No grant check: the caller
   * read the Skill through its grant (SkillPromptsService).
   */
  async skillContext(
    projectId: string,
    skill: { id: string; references: string[] },
    limit: number,
  ): Promise<SkillContext> {
    const [keys, knowledge] = await Promise.all([
      repo.skillKeys(this.db, projectId, skill.id, skill.references),
      repo.knowledgeForSkill(this.db, projectId, skill.id, skill.references, limit),
    ]);
    const total = knowledge[0]?.total ?? 0;
    return {
      keys,
      knowledge: knowledge.map(({ total: _total, ...k }) => k),
      more: Math.max(0, total - knowledge.length),
    };
  }

  /**
   * A folder's taxonomy changes in the caller's transaction (an import, which validated them and
   * resolved the project): keys created (parents before children) and changed, links added and
   * removed, keys deleted (children first; their links go with them). No grant check.
   */
  async applyIn(
    tx: SqlExecutor,
    ctx: RequestContext,
    projectId: string,
    changes: TaxonomyChanges,
    // Between rows the event loop may take a turn (an import of thousands of keys).
    pace: Pacer = async () => undefined,
  ): Promise<void> {
    const now = ctx.clock.now();
    for (const key of changes.createKeys) {
      if (!(await repo.insertKey(tx, projectId, key, now)))
        throw new ConflictError('business_key_exists', `Business key ${key.key} was created meanwhile.`, {
          hint: 'Run the import again: it plans against the hub as it is now.',
        });
      await pace();
    }
    for (const key of changes.updateKeys) {
      await repo.updateKey(tx, projectId, key, now);
      await pace();
    }
    for (const id of changes.removeLinks) {
      await repo.deleteLink(tx, projectId, id);
      await pace();
    }
    for (const link of changes.addLinks) {
      await repo.insertLink(tx, {
        id: `bl_${randomBytes(8).toString('hex')}`,
        project_id: projectId,
        ...link,
        created_by: ctx.actor.subject,
        now,
      });
      await pace();
    }
    for (const key of changes.deleteKeys) {
      await repo.deleteKey(tx, projectId, key);
      await pace();
    }
  }

  private async requireParent(projectId: string, parent: string, db: SqlExecutor = this.db): Promise<void> {
    if (!(await repo.findKey(db, projectId, parent))) {
      throw new ValidationError(
        [{ path: 'body.parent', message: `business key ${parent} does not exist in project ${projectId}` }],
        undefined,
        'reference_not_found',
      );
    }
  }
}

function keyNotFound(key: string, projectId: string): NotFoundError {
  return new NotFoundError('business_key_not_found', `No business key ${key} in project ${projectId}.`, {
    hint: 'Call search_context with the term, or GET /api/taxonomy for the tree.',
  });
}
