import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import { createPacer, type Pacer } from '../../platform/pacer.js';
import { type TarEntry, writeTarGz } from '../../platform/tar.js';
import { authorOf, type ProposedWrite, type WriteGate } from '../documents/index.js';
import type { KnowledgeService } from '../knowledge/index.js';
import type { AuditRecorder } from '../../platform/audit.js';
import type { ProjectLimits } from '../org/index.js';
import type { ProjectRow, ProjectsService } from '../projects/index.js';
import type { SkillsService } from '../skills/index.js';
import type { TaxonomyService } from '../taxonomy/index.js';
import { byCodePoint, knowledgePath, renderKnowledgeFile, skillPath, TAXONOMY_FILE } from './hub-files.format.js';
import type { FileProblem } from './hub-files.problems.js';
import { type ImportFolder, importInvalid, readArchive, readFolder } from './hub-files.folder.js';
import { type HubState, type Plan, planImport } from './hub-files.plan.js';
import type { Counts, ImportOptions, ImportResultOutput, PlannedChange } from './hub-files.schemas.js';
import { renderTaxonomy } from './hub-files.taxonomy.js';

export interface HubFilesDeps {
  db: Database;
  projects: ProjectsService;
  skills: SkillsService;
  knowledge: KnowledgeService;
  taxonomy: TaxonomyService;
  audit: AuditRecorder;
  limits?: ProjectLimits;
  /**
   * The project write policy (the proposals gate): with `propose`, or when the policy sends this
   * caller's writes to review, new and changed Skills and Knowledge become proposals.
   */
  gate?: WriteGate;
}

/** The hub of a project as a folder of files, out (export) and back in (import). See hub-files.format. */
export class HubFilesService {
  private readonly gate: WriteGate | undefined;

  constructor(private readonly deps: HubFilesDeps) {
    this.gate = deps.gate;
  }

  async exportFiles(ctx: RequestContext, projectRef: string): Promise<{ projectId: string; files: TarEntry[] }> {
    const { project } = await this.deps.projects.resolve(ctx, projectRef, 'context.read');
    const state = await this.state(ctx, project.id, createPacer());
    const files = [
      ...[...state.skills].map(([name, s]) => ({ path: skillPath(name), text: s.text })),
      ...[...state.knowledge].map(([id, k]) => ({ path: knowledgePath(id), text: renderKnowledgeFile(k) })),
      { path: TAXONOMY_FILE, text: renderTaxonomy([...state.keys.values()], state.links) },
    ].sort((a, b) => byCodePoint(a.path, b.path));
    return { projectId: project.id, files: files.map((f) => ({ path: f.path, data: Buffer.from(f.text, 'utf8') })) };
  }

  async exportArchive(ctx: RequestContext, projectRef: string): Promise<{ projectId: string; archive: Buffer }> {
    const { projectId, files } = await this.exportFiles(ctx, projectRef);
    return { projectId, archive: await writeTarGz(files) };
  }

  async importArchive(
    ctx: RequestContext,
    projectRef: string,
    archive: Buffer,
    options: ImportOptions,
  ): Promise<ImportResultOutput> {
    return this.importFiles(ctx, projectRef, await readArchive(archive), options);
  }

  /**
   * Applies a folder: everything is read and checked first, and any problem refuses the whole
   * import with every problem listed (file and line); otherwise the changes land in one transaction.
   * Long work gives the event loop a turn every few milliseconds (createPacer), so an import of
   * thousands of files never stops the process from answering.
   */
  async importFiles(
    ctx: RequestContext,
    projectRef: string,
    source: ImportFolder,
    options: ImportOptions,
  ): Promise<ImportResultOutput> {
    const { project } = await this.deps.projects.resolve(ctx, projectRef, 'context.write');
    // Versions an import writes are recorded as such, unless the console sent the folder.
    const importCtx: RequestContext = { ...ctx, via: ctx.via === 'console' ? 'console' : 'import' };
    const propose = options.propose || this.gate?.decide(importCtx, project) === 'propose';
    if (propose && !this.gate) {
      throw new ConflictError(
        'proposals_unavailable',
        'No review of writes is attached to this service, so the import cannot make proposals.',
        { hint: 'Import without propose: new and changed objects then become new versions.' },
      );
    }
    if (propose && options.prune) {
      const why = options.propose ? 'propose' : "the project's review policy, which makes your writes proposals";
      throw new ValidationError([
        { path: 'query.prune', message: `cannot be combined with ${why}: deletions are not proposals` },
      ]);
    }
    if (options.prune && source.files.length === 0 && source.problems.length === 0) {
      throw new ValidationError(
        [
          {
            path: 'body',
            message:
              'holds no file of the layout (skills/<name>/SKILL.md, knowledge/<topic_id>.md, taxonomy.yaml): ' +
              'with prune it would delete every Skill and Knowledge sheet',
          },
        ],
        'The folder holds no file of the hub layout, so prune is refused; nothing was changed.',
        'import_invalid',
      );
    }
    const pace = createPacer();
    const problems: FileProblem[] = [...source.problems];
    const folder = await readFolder(source.files, problems, pace);
    const state = await this.state(ctx, project.id, pace);
    await pace();
    const plan = planImport(state, folder, { prune: options.prune, sourcesMustExist: propose }, problems);
    await pace();
    if (problems.length > 0) throw importInvalid(problems);
    const result: ImportResultOutput = {
      project_id: project.id,
      dry_run: options.dry_run,
      prune: options.prune,
      applied: false,
      changes: changesOf(plan),
      unchanged: {
        skills: plan.skills.unchanged,
        knowledge: plan.knowledge.unchanged,
        business_keys: plan.keys.unchanged,
        business_links: plan.links.unchanged,
      },
      kept: keptOf(plan),
      ignored: source.ignored.examples,
      ignored_count: source.ignored.count,
      proposals: [],
    };
    if (options.dry_run || result.changes.length === 0) return result;
    const creates = plan.skills.create.length + plan.knowledge.create.length + plan.keys.create.length;
    await this.deps.limits?.assertCanAddContextObjects(project.id, propose ? plan.keys.create.length : creates);
    if (propose) return this.propose(importCtx, project, state, plan, result, pace);
    const versions = await this.apply(importCtx, project.id, state, plan, result, pace);
    for (const change of result.changes) change.version = versions.get(`${change.kind}:${change.name}`) ?? null;
    return { ...result, applied: true };
  }

  private async apply(
    ctx: RequestContext,
    projectId: string,
    state: HubState,
    plan: Plan,
    result: ImportResultOutput,
    pace: Pacer,
  ): Promise<Map<string, number>> {
    const { skills, knowledge, taxonomy } = this.deps;
    const versions = new Map<string, number>();
    await this.deps.db.transaction(async (tx) => {
      const skillIds = new Map([...state.skills].map(([name, s]) => [name, s.id]));
      const sheetIds = new Map([...state.knowledge].map(([id, k]) => [id, k.id]));
      const author = authorOf(ctx);
      const writtenSkills = await skills.writeManyIn(
        tx,
        ctx,
        projectId,
        [...plan.skills.create, ...plan.skills.update].map((s) => s.parsed),
        author,
        pace,
      );
      for (const [name, written] of writtenSkills) {
        skillIds.set(name, written.id);
        versions.set(`skill:${name}`, written.version);
      }
      const writtenSheets = await knowledge.writeManyIn(
        tx,
        ctx,
        projectId,
        [...plan.knowledge.create, ...plan.knowledge.update],
        author,
        pace,
      );
      for (const [topicId, written] of writtenSheets) {
        sheetIds.set(topicId, written.id);
        versions.set(`knowledge:${topicId}`, written.version);
      }
      const now = ctx.clock.now();
      await skills.deleteManyIn(
        tx,
        plan.skills.remove.map((name) => skillIds.get(name)!),
        now,
      );
      await knowledge.deleteManyIn(
        tx,
        plan.knowledge.remove.map((id) => sheetIds.get(id)!),
        now,
      );
      const keyRow = (k: {
        key: string;
        label: string;
        description: string | null;
        parent: string | null;
        synonyms: string[];
      }) => ({
        key: k.key,
        label: k.label,
        description: k.description,
        parent_key: k.parent,
        synonyms: k.synonyms,
      });
      await taxonomy.applyIn(
        tx,
        ctx,
        projectId,
        {
          createKeys: plan.keys.create.map(keyRow),
          updateKeys: plan.keys.update.map(keyRow),
          removeLinks: plan.links.remove.map((l) => l.id),
          addLinks: plan.links.add.map((l) => ({
            relation_type: l.relation_type,
            source_type: l.source_type,
            source_id: (l.source_type === 'skill' ? skillIds : sheetIds).get(l.source)!,
            business_key: l.key,
          })),
          deleteKeys: plan.keys.remove,
        },
        pace,
      );
      await this.deps.audit.record(
        ctx,
        { action: 'context.import', target: projectId, projectId, details: summary(result) },
        tx,
      );
    });
    return versions;
  }

  /**
   * With proposals: taxonomy changes land (links only to objects that exist); each new or changed
   * Skill and Knowledge sheet goes to review through the project's write gate.
   */
  private async propose(
    ctx: RequestContext,
    project: ProjectRow,
    state: HubState,
    plan: Plan,
    result: ImportResultOutput,
    pace: Pacer,
  ): Promise<ImportResultOutput> {
    const writes: ProposedWrite[] = [
      ...[...plan.skills.create, ...plan.skills.update].map(
        (s): ProposedWrite => ({
          kind: 'skill',
          key: s.name,
          base_version: state.skills.get(s.name)?.version ?? null,
          fields: { description: s.parsed.description, body_md: s.parsed.body, metadata: s.parsed.metadata },
        }),
      ),
      ...[...plan.knowledge.create, ...plan.knowledge.update].map(
        (k): ProposedWrite => ({
          kind: 'knowledge',
          key: k.topic_id,
          base_version: state.knowledge.get(k.topic_id)?.version ?? null,
          fields: { title: k.title, owner: k.owner, body_md: k.body_md },
        }),
      ),
    ];
    const taxonomyOnly: Plan = {
      ...plan,
      skills: { ...plan.skills, create: [], update: [] },
      knowledge: { ...plan.knowledge, create: [], update: [] },
    };
    if (result.changes.some((c) => c.kind === 'business_key' || c.kind === 'business_link'))
      await this.apply(ctx, project.id, state, taxonomyOnly, result, pace);
    const proposals: string[] = [];
    for (const write of writes) {
      proposals.push((await this.gate!.propose(ctx, project, write)).proposal_id);
      await pace();
    }
    return { ...result, applied: true, proposals };
  }

  /** The hub as it is, read page by page (a large hub is read without holding the event loop). */
  private async state(ctx: RequestContext, projectId: string, pace: Pacer): Promise<HubState> {
    const skills = await this.deps.skills.currentFiles(projectId, pace);
    const sheets = await this.deps.knowledge.currentRows(projectId, pace);
    const { keys, links } = await this.deps.taxonomy.all(ctx, projectId, pace);
    return {
      skills: new Map(skills.map((s) => [s.name, s])),
      knowledge: new Map(
        sheets.map((k) => [
          k.topic_id,
          { id: k.id, version: k.version_number, title: k.title, owner: k.owner, body_md: k.body_md },
        ]),
      ),
      keys: new Map(
        keys.map((k) => [
          k.key,
          { key: k.key, label: k.label, description: k.description, parent: k.parent, synonyms: k.synonyms },
        ]),
      ),
      links: links.map((l) => ({
        id: l.id,
        source_type: l.source_type as 'skill' | 'knowledge',
        source: l.source_key,
        relation_type: l.relation_type as 'uses',
        key: l.business_key,
      })),
    };
  }
}

function changesOf(plan: Plan): PlannedChange[] {
  const change = (
    kind: PlannedChange['kind'],
    name: string,
    action: PlannedChange['action'],
    file: string | null,
  ): PlannedChange => ({ kind, name, action, file, version: null });
  return [
    ...plan.keys.create.map((k) => change('business_key', k.key, 'create', TAXONOMY_FILE)),
    ...plan.keys.update.map((k) => change('business_key', k.key, 'update', TAXONOMY_FILE)),
    ...plan.skills.create.map((s) => change('skill', s.name, 'create', s.file)),
    ...plan.skills.update.map((s) => change('skill', s.name, 'update', s.file)),
    ...plan.knowledge.create.map((k) => change('knowledge', k.topic_id, 'create', k.file)),
    ...plan.knowledge.update.map((k) => change('knowledge', k.topic_id, 'update', k.file)),
    ...plan.links.add.map((l) =>
      change('business_link', `${l.source_type}:${l.source} ${l.relation_type} ${l.key}`, 'create', TAXONOMY_FILE),
    ),
    ...plan.links.remove.map((l) =>
      change('business_link', `${l.source_type}:${l.source} ${l.relation_type} ${l.key}`, 'delete', null),
    ),
    ...plan.skills.remove.map((name) => change('skill', name, 'delete', null)),
    ...plan.knowledge.remove.map((id) => change('knowledge', id, 'delete', null)),
    ...plan.keys.remove.map((key) => change('business_key', key, 'delete', null)),
  ];
}

function keptOf(plan: Plan): Counts {
  return {
    skills: plan.skills.kept,
    knowledge: plan.knowledge.kept,
    business_keys: plan.keys.kept,
    business_links: plan.links.kept,
  };
}

function summary(result: ImportResultOutput): Record<string, number> {
  const count = (action: string) => result.changes.filter((c) => c.action === action).length;
  return { created: count('create'), updated: count('update'), deleted: count('delete') };
}
