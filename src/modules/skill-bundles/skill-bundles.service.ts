import type { Resource } from '@modelcontextprotocol/server';
import {
  DIRECTORY_MIME_TYPE,
  type Skill,
  SkillCatalogError,
  skillEntry,
} from '@modelcontextprotocol/server/ext/skills';
import { z } from 'zod';
import type { SkillBundleCatalog } from '../../mcp/kit/skill-catalog.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import { VersionedCache } from '../../platform/cache/versioned-cache.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { decodeCursor, encodeCursor } from '../../platform/pagination.js';
import type { ProjectsService } from '../projects/index.js';
import type { ContextVersionReader } from '../search/index.js';
import { type KnowledgeService, renderKnowledgeFile } from '../knowledge/index.js';
import type { CurrentSkillFile, SkillsService } from '../skills/index.js';
import type { TaxonomyService } from '../taxonomy/index.js';
import {
  MAX_REFERENCES,
  parseSkillDirUri,
  parseSkillUri,
  REFERENCES_DIR,
  referenceFile,
  SKILL_FILE,
  skillPath,
  skillUri,
} from './skill-bundles.files.js';

/** Entries per skills/list page. */
export const SKILL_PAGE_SIZE = 50;
/** Entries kept built, per exact SKILL.md bytes (the oldest go first beyond this). */
const BUILT_ENTRIES = 10_000;
/** skills/list pages kept, per granted project set and cursor (least recently used go first). */
const PAGE_ENTRIES = 512;

type Page = { skills: Skill[]; nextCursor?: string };
/** A Skill's files by path relative to its folder. */
type SkillFiles = Record<string, string>;

const Cursor = z.tuple([z.string().max(100), z.string().max(100)]);

/**
 * Every live Skill the caller may read, as an Agent Skills folder served over the MCP Skills
 * extension. Its one file is SKILL.md, byte for byte what the export and the console's SKILL.md
 * export give (one renderer), with its size and SHA-256 digest. Entries always describe the current
 * version (a listing page is reused only while its projects' content versions are unchanged), so a
 * revision, restore, delete or approved proposal shows at once on any replica; a host holding an
 * older entry sees the digest differ, which is its cue to refresh.
 */
export class SkillBundlesService implements SkillBundleCatalog {
  constructor(
    private readonly projects: ProjectsService,
    private readonly skills: SkillsService,
    private readonly knowledge: KnowledgeService,
    private readonly taxonomy: TaxonomyService,
    private readonly versions: ContextVersionReader,
    private readonly log: Logger,
  ) {}

  /**
   * Finished skills/list pages by (granted project set, cursor), tagged with those projects'
   * content versions. The versions are read after the call arrived, on whichever replica wrote, and
   * every write to a Skill (revision, restore, delete, an approved proposal) or to what a Skill's
   * files are made from bumps its project's version at commit: a tag that still matches proves the
   * page exact, and nothing has to be told to forget anything.
   */
  private readonly pages = new VersionedCache<Page, string>(PAGE_ENTRIES);

  /**
   * Built entries by Skill path, each with the exact text it was built from: a hit needs the same
   * bytes, so it can never serve an older digest (the text is rendered fresh on every call).
   */
  private readonly built = new Map<string, { fingerprint: string; entry: Skill | undefined }>();

  /** Hits and misses of the listing page cache since start (tests, operations). */
  pageCacheStats(): { entries: number; hits: number; misses: number } {
    return { entries: this.pages.size, hits: this.pages.hits, misses: this.pages.misses };
  }

  async list(ctx: RequestContext, cursor: string | undefined): Promise<Page> {
    const after = decodeCursor(cursor, Cursor);
    const projectIds = await this.projects.permittedIds(ctx, 'context.read');
    if (projectIds.length === 0) return { skills: [] };
    // Read before the page is built: a write landing in between leaves the page tagged older than
    // what it holds, so it simply never matches again.
    const versions = await Promise.all(projectIds.map((id) => this.versions.read(id)));
    const key = `${projectIds.join('\n')}\n\n${cursor ?? ''}`;
    const tag = versions.join(',');
    const cached = this.pages.get(key, tag);
    if (cached) return cached;
    const page = await this.build(projectIds, after);
    this.pages.set(key, tag, page);
    return page;
  }

  /** One page of entries across `projectIds`, after the (project, name) the cursor names. */
  private async build(projectIds: string[], after: [string, string] | undefined): Promise<Page> {
    const rows = await this.skills.currentFilesAcross(
      projectIds,
      after && { project_id: after[0], name: after[1] },
      SKILL_PAGE_SIZE + 1,
    );
    const page = rows.slice(0, SKILL_PAGE_SIZE);
    const skills: Skill[] = [];
    for (const row of page) {
      const entry = await this.entry(row.project_id, row.name, await this.filesOf(row));
      if (entry) skills.push(entry);
    }
    const last = page[page.length - 1];
    return rows.length > SKILL_PAGE_SIZE && last
      ? { skills, nextCursor: encodeCursor([last.project_id, last.name]) }
      : { skills };
  }

  async get(ctx: RequestContext, uri: string): Promise<Skill | undefined> {
    const found = await this.served(ctx, uri);
    if (!found || found.file !== SKILL_FILE) return undefined;
    return this.entry(found.projectId, found.name, await this.filesOf(found.row));
  }

  async read(ctx: RequestContext, uri: string): Promise<{ text: string; mimeType: string } | undefined> {
    const found = await this.served(ctx, uri);
    if (!found) return undefined;
    const files = await this.filesOf(found.row);
    const text = files[found.file];
    // Only what a valid entry lists is served: a Skill hosts would refuse is not served at all.
    if (text === undefined || !(await this.entry(found.projectId, found.name, files))) return undefined;
    return { text, mimeType: 'text/markdown' };
  }

  async readDirectory(ctx: RequestContext, uri: string): Promise<{ resources: Resource[] } | undefined> {
    const parsed = parseSkillDirUri(uri);
    if (!parsed) return undefined;
    const found = await this.served(ctx, skillUri(parsed.projectId, parsed.name));
    if (!found) return undefined;
    const files = await this.filesOf(found.row);
    const entry = await this.entry(found.projectId, found.name, files);
    if (!entry) return undefined;
    const root = `skill://${skillPath(parsed.projectId, parsed.name)}`;
    const inside = parsed.dir === '' ? '' : `${parsed.dir}/`;
    const resources: Resource[] = [];
    let hasReferences = false;
    for (const file of entry.resources as { uri: string; size?: number; mimeType?: string }[]) {
      const path = file.uri.slice(root.length + 1);
      if (!path.startsWith(inside)) continue;
      const rest = path.slice(inside.length);
      if (rest.includes('/')) {
        hasReferences = true;
        continue;
      }
      resources.push({ uri: file.uri, name: rest, mimeType: file.mimeType ?? 'text/markdown', size: file.size });
    }
    if (parsed.dir === '' && hasReferences)
      resources.push({ uri: `${root}/${REFERENCES_DIR}`, name: REFERENCES_DIR, mimeType: DIRECTORY_MIME_TYPE });
    // The references folder exists only when the Skill bundles a sheet.
    if (parsed.dir !== '' && resources.length === 0) return undefined;
    return { resources };
  }

  /**
   * The Skill a URI names, when the caller may read its project. A project the caller may not read
   * answers as a Skill that does not exist (no probing of names). The URI's authority must be the
   * project's id itself: `default` and console URLs, which resolve accepts, are not folders here.
   */
  private async served(ctx: RequestContext, uri: string) {
    const parsed = parseSkillUri(uri);
    if (!parsed) return undefined;
    try {
      const resolved = await this.projects.resolve(ctx, parsed.projectId, 'context.read');
      if (resolved.project.id !== parsed.projectId) return undefined;
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return undefined;
      throw error;
    }
    const row = await this.skills.currentFile(parsed.projectId, parsed.name);
    return row === undefined ? undefined : { ...parsed, row };
  }

  /**
   * Every file of one Skill: its SKILL.md, and `references/<topic_id>.md` for each live Knowledge
   * sheet linked to the business keys it references (`explains` links first, at most
   * MAX_REFERENCES), each byte for byte the sheet's file in an export.
   */
  private async filesOf(row: CurrentSkillFile): Promise<SkillFiles> {
    const files: SkillFiles = { [SKILL_FILE]: row.text };
    const topics = await this.taxonomy.knowledgeTopicsOf(
      row.project_id,
      { id: row.skill_id, references: row.references },
      MAX_REFERENCES,
    );
    if (topics.length === 0) return files;
    const sheets = new Map(
      (await this.knowledge.currentSheets(row.project_id, topics)).map((sheet) => [sheet.topic_id, sheet]),
    );
    for (const topic of topics) {
      const sheet = sheets.get(topic);
      if (sheet) files[referenceFile(topic)] = renderKnowledgeFile(sheet);
    }
    return files;
  }

  /** The entry for one Skill's files (SDK-built: digests, sizes, the format's rules checked). */
  private async entry(projectId: string, name: string, files: SkillFiles): Promise<Skill | undefined> {
    const path = skillPath(projectId, name);
    // Every file's name and bytes: a kept entry is reused only for exactly the same files.
    const fingerprint = Object.entries(files).flat().join('\0');
    const known = this.built.get(path);
    if (known && known.fingerprint === fingerprint) return known.entry;
    let entry: Skill | undefined;
    try {
      entry = Object.freeze(await skillEntry(path, files));
    } catch (error) {
      if (!SkillCatalogError.isInstance(error)) throw error;
      // A stored SKILL.md hosts would refuse (a non-string metadata value): left out, said once per version.
      this.log.warn(
        { project_id: projectId, skill: name, problems: error.problems },
        'Skill not served: invalid SKILL.md',
      );
    }
    this.built.delete(path);
    this.built.set(path, { fingerprint, entry });
    if (this.built.size > BUILT_ENTRIES) this.built.delete(this.built.keys().next().value!);
    return entry;
  }
}
