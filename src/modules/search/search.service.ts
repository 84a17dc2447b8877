import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import type { ProjectsService, ResolvedProject } from '../projects/index.js';
import { VersionedCache } from '../../platform/cache/versioned-cache.js';
import { openCall } from '../documents/index.js';
import { ContextVersionReader } from './search.versions.js';
import { countStems, searchHub, type SearchRow } from './search.repo.js';
import { SNIPPET_MAX, TIERS, type Hit, type SearchOutput } from './search.schemas.js';

/** Characters of a question that are read (the rest is ignored and said so). */
export const MAX_READ_CHARS = 10_000;

function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Words of a text with their code point offsets (letters, digits and the . _ - inside identifiers). */
function wordsAt(points: string[]): { at: number; word: string }[] {
  const out: { at: number; word: string }[] = [];
  let cur = '';
  let at = 0;
  for (let i = 0; i <= points.length; i += 1) {
    const c = points[i];
    if (c !== undefined && /[\p{L}\p{N}]/u.test(c)) {
      if (cur === '') at = i;
      cur += c;
    } else if (cur !== '') {
      out.push({ at, word: cur.toLowerCase() });
      cur = '';
    }
  }
  return out;
}

/**
 * ≤ 160 code points around the best-matching passage: the window holding the most distinct stems
 * of the question (a word matches a stem it starts with: "roas" for roa, "computing" for comput),
 * then the most matches, then the earliest. Never splits a surrogate pair.
 */
export function snippetOf(text: string, stems: string[]): string {
  const plain = plainText(text);
  if (plain.length <= SNIPPET_MAX) return plain;
  const points = Array.from(plain);
  if (points.length <= SNIPPET_MAX) return plain;
  const at = bestPassageAt(points, stems);
  let start = Math.max(0, Math.min(at - 20, points.length - SNIPPET_MAX));
  // Begin at a word: skip the rest of one cut in two (never past the passage itself).
  while (start > 0 && start < at && !/\s/u.test(points[start - 1]!)) start += 1;
  const lead = start > 0 ? '…' : '';
  const room = SNIPPET_MAX - lead.length;
  if (start + room >= points.length) return lead + points.slice(start).join('');
  return `${lead}${points.slice(start, start + room - 1).join('')}…`;
}

function bestPassageAt(points: string[], stems: string[]): number {
  const wanted = stems.map((s) => s.toLowerCase()).filter((s) => s.length > 0);
  if (wanted.length === 0) return 0;
  const matches: { at: number; stem: number }[] = [];
  for (const w of wordsAt(points)) {
    const stem = wanted.findIndex((s) => w.word.startsWith(s) || s.startsWith(`${w.word}.`));
    if (stem !== -1) matches.push({ at: w.at, stem });
  }
  let best = { at: 0, distinct: 0, count: 0 };
  for (let i = 0; i < matches.length; i += 1) {
    const seen = new Set<number>();
    let count = 0;
    for (let j = i; j < matches.length && matches[j]!.at < matches[i]!.at + SNIPPET_MAX - 40; j += 1) {
      seen.add(matches[j]!.stem);
      count += 1;
    }
    if (seen.size > best.distinct || (seen.size === best.distinct && count > best.count))
      best = { at: matches[i]!.at, distinct: seen.size, count };
  }
  return best.at;
}

function nextCall(row: SearchRow, projectId: string): Hit['next'] {
  if (row.kind !== 'business_key') return openCall(row.kind, row.key, projectId);
  return { tool: 'get_business_key', arguments: { key: row.key, project_id: projectId } };
}

export interface SearchResult extends Omit<SearchOutput, 'summary'> {
  resolved: ResolvedProject;
  /** Code points beyond MAX_READ_CHARS, not read. */
  ignored_chars: number;
}

/** What a search found (cached per question text, limit and explain). */
type Found = Pick<
  SearchOutput,
  'hits' | 'total' | 'total_is_lower_bound' | 'truncated' | 'tiers' | 'ignored_words' | 'empty_reason'
>;

export class SearchService {
  private readonly cache: VersionedCache<Found>;
  private readonly versions: ContextVersionReader;

  /**
   * `cacheEntries` 0 turns the result cache off (SEARCH_CACHE_ENTRIES). `versions` is shared with
   * the other caches tagged by content version, so their reads batch together.
   */
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    cacheEntries = 0,
    versions = new ContextVersionReader(db),
  ) {
    this.cache = new VersionedCache<Found>(cacheEntries);
    this.versions = versions;
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
    input: { query: string; project_id: string; limit: number; explain?: boolean },
  ): Promise<SearchResult> {
    const explain = input.explain === true;
    // Score parts show how the hub's documents compare: an editor's view, not a reader's.
    const resolved = await this.projects.resolve(ctx, input.project_id, explain ? 'context.write' : 'context.read');
    const points = Array.from(input.query);
    const read = points.length > MAX_READ_CHARS ? points.slice(0, MAX_READ_CHARS).join('') : input.query;
    const base = { resolved, query: input.query, ignored_chars: Math.max(0, points.length - MAX_READ_CHARS) };
    const projectId = resolved.project.id;
    if (!this.cache.enabled) return { ...base, ...(await this.find(projectId, read, input.limit, explain)) };
    // The version is read before the search runs: if a write lands in between, the entry is
    // tagged older than the data it holds and simply never matches again.
    // Case and the punctuation to_tsvector treats as a separator do not change the stems.
    const spelled = read
      .toLowerCase()
      .replace(/[^\p{L}\p{N}._\-@/:+]+/gu, ' ')
      .trim();
    const key = `${projectId}\n${input.limit}\n${explain}\n${spelled}`;
    const version = await this.versions.read(projectId);
    const cached = this.cache.get(key, version);
    if (cached) return { ...base, ...cached };
    const found = await this.find(projectId, read, input.limit, explain);
    this.cache.set(key, version, found);
    return { ...base, ...found };
  }

  private async find(projectId: string, query: string, limit: number, explain: boolean): Promise<Found> {
    const rows = await searchHub(this.db, projectId, query, limit, explain);
    const first = rows[0];
    if (!first) {
      const stems = /[\p{L}\p{N}]/u.test(query) ? await countStems(this.db, query) : 0;
      return {
        hits: [],
        total: 0,
        total_is_lower_bound: false,
        truncated: false,
        tiers: { title: 0, description: 0, 'graph-neighbor': 0 },
        ignored_words: 0,
        empty_reason: !/[\p{L}\p{N}]/u.test(query) ? 'no_words' : stems === 0 ? 'only_stop_words' : 'no_match',
      };
    }
    const stems = [...new Set(rows.flatMap((r) => r.words))];
    const hits: Hit[] = rows.map((row) => ({
      kind: row.kind,
      id: row.id,
      key: row.key,
      title: row.title,
      tier: TIERS[row.tier - 1]!,
      score: Math.round(Number(row.score) * 10000) / 10000,
      matched: { fields: row.fields, words: row.words },
      snippet: snippetOf(row.text ?? '', row.words.length > 0 ? row.words : stems),
      next: nextCall(row, projectId),
      ...(explain && row.explain ? { explain: presentExplain(row) } : {}),
    }));
    const total = Number(first.total);
    return {
      hits,
      total,
      total_is_lower_bound: first.capped === true,
      truncated: total > hits.length,
      tiers: {
        title: Number(first.n_title),
        description: Number(first.n_description),
        'graph-neighbor': Number(first.n_graph),
      },
      ignored_words: Number(first.terms_dropped),
    };
  }
}

function presentExplain(row: SearchRow): NonNullable<Hit['explain']> {
  const e = row.explain!;
  const fieldNames = FIELD_NAMES[row.kind];
  return {
    score: Math.round(Number(row.score) * 1e6) / 1e6,
    bm25f: Number(e.bm25f),
    documents: Number(e.documents),
    terms: e.terms.map((t) => ({
      term: t.term,
      ...(t.asked !== t.term ? { typo_of: t.asked, similarity: Math.round(Number(t.typo_factor) * 1e4) / 1e4 } : {}),
      idf: Number(t.idf),
      fields: Object.fromEntries(
        fieldNames
          .map((name, i) => [name, { tf: Number(t.tf[i]), length: Number(t.len[i]) }])
          .filter(([, f]) => (f as { tf: number }).tf > 0),
      ),
      score: Number(t.score),
    })),
    boosts: e.graph ? [{ kind: 'graph', via: e.graph.via, score: Number(e.graph.boost) }] : [],
  };
}

const FIELD_NAMES: Record<SearchRow['kind'], string[]> = {
  skill: ['name', 'description', 'body'],
  knowledge: ['title', 'headings', 'body'],
  business_key: ['label', 'description', 'other'],
};
