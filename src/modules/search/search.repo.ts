import type { SqlExecutor } from '../../platform/db/database.js';

/** Content versions of the given projects (a project with no row has version 0, the caller's default). */
export function readContextVersions(
  db: SqlExecutor,
  projectIds: string[],
): Promise<{ project_id: string; version: number }[]> {
  // Answers the driver's promise itself: ContextVersionReader counts store rounds around this call.
  return db.query<{ project_id: string; version: number }>(
    'SELECT project_id, version FROM context_versions WHERE project_id = ANY($1::text[])',
    [projectIds],
  );
}

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

/** Candidates per kind and way of matching that are ranked (see migrations/functions/context_search.sql). */
export const TIER_CANDIDATES = 50;
/**
 * Typo (trigram) matching runs for one-word queries: a longer string's trigrams hit thousands of
 * names that then fail the similarity recheck one by one (BENCHMARKS.md, search notes), and the
 * words of a longer query find their matches by full text.
 */
export const TYPO_MAX_WORDS = 1;
/** How many of the best matched keys and objects the graph expansion starts from. */
export const GRAPH_SEEDS = 20;

/**
 * The whole tiered search is one call of the SQL function context_search (migration 0007):
 * - matching is AND-first: per kind and way of matching (title words; any text) up to
 *   TIER_CANDIDATES objects that have all the query's words, filled with objects that have some
 *   of them only when fewer have them all ("checkout conversion" where no sheet says both);
 * - title tier: a query word in the title text (name, title, key label, key segments, synonyms;
 *   a title-only GIN index), or trigram word similarity on it so a typo such as "roaz" still hits
 *   (key labels/synonyms and Skill names); description tier: the words anywhere else;
 * - graph neighbours: objects linked (business links, a Skill's mdm_references) to a matched key,
 *   and keys linked from or referenced by a matched object, from the best direct matches;
 * - each object once, in its best tier; counts per tier; the first `limit` rows with the text
 *   snippets are cut from. Ranking is ts_rank over the weighted tsvector (so an object with more
 *   of the words, or with them in its title, ranks higher); a typo-only match scores its
 *   similarity to the title.
 * `words` are letters and digits only (the caller's queryWords), so none is tsquery syntax; the
 * function drops stop words and merges words with one stem.
 */
export async function searchHub(
  db: SqlExecutor,
  projectId: string,
  words: string[],
  limit: number,
): Promise<SearchRow[]> {
  return db.query<SearchRow>('SELECT * FROM context_search($1, $2, $3, $4, $5, $6)', [
    projectId,
    words.join(' '),
    words.length <= TYPO_MAX_WORDS ? words.join(' ') : '',
    limit,
    TIER_CANDIDATES,
    GRAPH_SEEDS,
  ]);
}
