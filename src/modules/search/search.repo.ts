import type { SqlExecutor } from '../../platform/db/database.js';

export type HitKind = 'skill' | 'knowledge' | 'business_key';

export interface SearchRow {
  kind: HitKind;
  id: string;
  key: string;
  title: string;
  tier: number;
  score: number;
  text: string;
  total: number;
  n_title: number;
  n_description: number;
  n_graph: number;
  capped: boolean;
}

/** Candidates per kind and way of matching that are ranked (see context_search in migration 0002). */
export const TIER_CANDIDATES = 50;
/**
 * Typo (trigram) matching runs for one-word queries: a longer string's trigrams hit thousands of
 * names that then fail the similarity recheck one by one (~200 ms on 10,000 Skills), and the words
 * of a longer query find their matches by full text.
 */
export const TYPO_MAX_WORDS = 1;
/** How many of the best matched keys and objects the graph expansion starts from. */
export const GRAPH_SEEDS = 20;

/**
 * The whole tiered search is one call of the SQL function context_search (migration 0002):
 * - title tier: the words in the title weight (A: name, title, key label and synonyms) of the
 *   weighted tsvector (GIN), or trigram word similarity on the title text (GIN, `<%`) so a typo
 *   such as "roaz" still hits; description tier: the words anywhere (description, body);
 * - graph neighbours: objects linked (business links, a Skill's mdm_references) to a matched key,
 *   and keys linked from or referenced by a matched object, from the best direct matches;
 * - each object once, in its best tier; counts per tier; the first `limit` rows with the text
 *   snippets are cut from. Ranking is ts_rank over the weighted tsvector; a typo-only match scores
 *   its word similarity (computing it costs ~25 µs a row, so only those rows pay for it).
 * `words` are letters and digits only (the caller's queryWords), so none is tsquery syntax.
 */
export async function searchHub(db: SqlExecutor, projectId: string, words: string[], limit: number): Promise<SearchRow[]> {
  return db.query<SearchRow>('SELECT * FROM context_search($1, $2, $3, $4, $5, $6, $7)', [
    projectId,
    words.join(' | '),
    words.length <= TYPO_MAX_WORDS ? words.join(' ') : '',
    words.map((w) => `${w}:A`).join(' | '),
    limit,
    TIER_CANDIDATES,
    GRAPH_SEEDS,
  ]);
}
