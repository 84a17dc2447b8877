import type { RequestContext } from '../../app/context.js';
import type { Database } from '../../platform/db/database.js';
import type { ProjectsService, ResolvedProject } from '../projects/projects.service.js';
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
  const all = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length <= MAX_WORD_CHARS))];
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
  return lead + body.slice(0, room - 1).join('') + '…';
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
  if (row.kind === 'knowledge') return { tool: 'get_knowledge', arguments: { topic_id: row.key, project_id: projectId } };
  return { tool: 'get_business_key', arguments: { key: row.key, project_id: projectId } };
}

export interface SearchResult extends SearchOutput {
  resolved: ResolvedProject;
  ignored_words: number;
}

export class SearchService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
  ) {}

  async search(ctx: RequestContext, input: { query: string; project_id: string; limit: number }): Promise<SearchResult> {
    const resolved = await this.projects.resolve(ctx, input.project_id, 'context.read');
    const { words, dropped } = queryWords(input.query);
    const base = { resolved, query: input.query, ignored_words: dropped };
    if (words.length === 0) {
      return { ...base, hits: [], total: 0, total_is_lower_bound: false, truncated: false, tiers: { title: 0, description: 0, 'graph-neighbor': 0 } };
    }
    const rows = await searchHub(this.db, resolved.project.id, words, input.limit);
    const first = rows[0];
    const hits: Hit[] = rows.map((row) => ({
      kind: row.kind,
      id: row.id,
      key: row.key,
      title: row.title,
      tier: TIERS[row.tier - 1]!,
      score: Math.round(Number(row.score) * 10000) / 10000,
      snippet: snippetOf(row.text ?? '', words),
      next: nextCall(row, resolved.project.id),
    }));
    const total = first ? Number(first.total) : 0;
    return {
      ...base,
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
