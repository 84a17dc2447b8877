import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
import { VersionedCache } from '../../platform/cache/versioned-cache.js';
import { ContextVersionReader } from './search.versions.js';
import { searchHub, type SearchRow } from './search.repo.js';
import { SNIPPET_MAX, TIERS, type Hit, type SearchOutput } from './search.schemas.js';

/** More words than this add noise, not recall; the rest of a long query is ignored (and said so). */
const MAX_WORDS = 12;
const MAX_WORD_CHARS = 64;

/**
 * The words of a query: letters and digits only. Everything else (quotes, &, |, !, :*, \) is a
 * separator, so no user text ever reaches to_tsquery as syntax.
 */
export function queryWords(query: string): { words: string[]; dropped: number } {
  const all = [
    ...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length <= MAX_WORD_CHARS)),
  ];
  return { words: all.slice(0, MAX_WORDS), dropped: Math.max(0, all.length - MAX_WORDS) };
}

function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** ≤ 160 code points around the first query word found, never splitting a surrogate pair. */
export function snippetOf(text: string, words: string[]): string {
  const plain = plainText(text);
  // Code points ≤ UTF-16 units: a short text needs no splitting into code points.
  if (plain.length <= SNIPPET_MAX) return plain;
  const points = Array.from(plain);
  if (points.length <= SNIPPET_MAX) return plain;
  const at = firstWordAt(plain, points, words);
  const start = at <= 40 ? 0 : at - 40;
  const lead = start > 0 ? '…' : '';
  const room = SNIPPET_MAX - (start > 0 ? 1 : 0);
  const body = points.slice(start, start + room);
  if (start + room >= points.length) return lead + body.join('');
  return `${lead + body.slice(0, room - 1).join('')}…`;
}

/** Code point index of the first of `words` (in their order) that occurs in the text, or -1. */
function firstWordAt(plain: string, points: string[], words: string[]): number {
  const lower = plain.toLowerCase();
  if (lower.length === plain.length) {
    // Same length, so a UTF-16 index into `lower` is one into `plain` (one string search per
    // word instead of comparing every code point; this runs for every hit of every call).
    for (const word of words) {
      const unit = lower.indexOf(word);
      if (unit !== -1) return Array.from(plain.slice(0, unit)).length;
    }
    return -1;
  }
  // Lowercasing changed the length (e.g. "İ"): compare code point by code point.
  const lowerPoints = points.map((p) => p.toLowerCase());
  for (const word of words) {
    const wp = Array.from(word);
    for (let i = 0; i + wp.length <= lowerPoints.length; i += 1) {
      if (wp.every((c, j) => lowerPoints[i + j] === c)) return i;
    }
  }
  return -1;
}

function nextCall(row: SearchRow, projectId: string): Hit['next'] {
  if (row.kind === 'skill') return { tool: 'get_procedure', arguments: { name: row.key, project_id: projectId } };
  if (row.kind === 'knowledge')
    return { tool: 'get_knowledge', arguments: { topic_id: row.key, project_id: projectId } };
  return { tool: 'get_business_key', arguments: { key: row.key, project_id: projectId } };
}

export interface SearchResult extends Omit<SearchOutput, 'summary'> {
  resolved: ResolvedProject;
  ignored_words: number;
}

/** What a search found, independent of how the query was spelled (cached per query words). */
type Found = Pick<SearchOutput, 'hits' | 'total' | 'total_is_lower_bound' | 'truncated' | 'tiers'>;

export class SearchService {
  private readonly cache: VersionedCache<Found>;
  private readonly versions: ContextVersionReader;

  /** `cacheEntries` 0 turns the result cache off (SEARCH_CACHE_ENTRIES). */
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    cacheEntries = 0,
  ) {
    this.cache = new VersionedCache<Found>(cacheEntries);
    this.versions = new ContextVersionReader(db);
  }

  /** Hits and misses of the result cache since start (tests, operations). */
  cacheStats(): { entries: number; capacity: number; hits: number; misses: number } {
    return {
      entries: this.cache.size,
      capacity: this.cache.capacity,
      hits: this.cache.hits,
      misses: this.cache.misses,
    };
  }

  /**
   * What a search_context answer depends on besides its arguments: the project it resolves to (and
   * how), and the project's content version read after this call arrived. Undefined when the cache
   * is off. Resolving checks the caller's access, as the search itself does.
   */
  async answerToken(ctx: RequestContext, input: { project_id: string }): Promise<string | undefined> {
    if (!this.cache.enabled) return undefined;
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.read');
    const version = await this.versions.read(resolved.project.id);
    return `${resolved.project.id}\n${resolved.resolvedFrom}\n${version}`;
  }

  async search(
    ctx: RequestContext,
    input: { query: string; project_id: string; limit: number },
  ): Promise<SearchResult> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.read');
    const { words, dropped } = queryWords(input.query);
    const base = { resolved, query: input.query, ignored_words: dropped };
    if (words.length === 0) {
      return {
        ...base,
        hits: [],
        total: 0,
        total_is_lower_bound: false,
        truncated: false,
        tiers: { title: 0, description: 0, 'graph-neighbor': 0 },
      };
    }
    const projectId = resolved.project.id;
    if (!this.cache.enabled) return { ...base, ...(await this.find(projectId, words, input.limit)) };
    // The version is read before the search runs: if a write lands in between, the entry is
    // tagged older than the data it holds and simply never matches again.
    const key = `${projectId}\n${input.limit}\n${words.join(' ')}`;
    const version = await this.versions.read(projectId);
    const cached = this.cache.get(key, version);
    if (cached) return { ...base, ...cached };
    const found = await this.find(projectId, words, input.limit);
    this.cache.set(key, version, found);
    return { ...base, ...found };
  }

  private async find(projectId: string, words: string[], limit: number): Promise<Found> {
    const rows = await searchHub(this.db, projectId, words, limit);
    const first = rows[0];
    const hits: Hit[] = rows.map((row) => ({
      kind: row.kind,
      id: row.id,
      key: row.key,
      title: row.title,
      tier: TIERS[row.tier - 1]!,
      score: Math.round(Number(row.score) * 10000) / 10000,
      snippet: snippetOf(row.text ?? '', words),
      next: nextCall(row, projectId),
    }));
    const total = first ? Number(first.total) : 0;
    return {
      hits,
      total,
      total_is_lower_bound: first?.capped === true,
      truncated: total > hits.length,
      tiers: {
        title: first ? Number(first.n_title) : 0,
        description: first ? Number(first.n_description) : 0,
        'graph-neighbor': first ? Number(first.n_graph) : 0,
      },
    };
  }
}
