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
  fields: string[];
  words: string[];
  explain: SearchExplainRow | null;
  terms_used: number;
  terms_dropped: number;
}

export interface SearchExplainRow {
  bm25f: number;
  documents: number;
  terms: {
    term: string;
    asked: string;
    typo_factor: number;
    idf: number;
    tf: number[];
    len: number[];
    score: number;
  }[];
  graph: { boost: number; via: string } | null;
}

/**
 * The ranking's parameters besides the formula's own (migrations/functions/search_index.sql,
 * search_bm25f): each is an argument so that the figures in BENCHMARKS.md name what they measured.
 * - MAX_TERMS: distinct stems of a question that count (a 64-word question has about 35);
 * - DEPTH: postings per stem that enter the candidates, split among the stems (at least a
 *   quarter of it each), highest impact first;
 * - RESCORE: candidates scored exactly (≥ the largest limit, so every limit cuts one order); the
 *   set is chosen by partial sums, so it is what recall rests on: 300 matched BM25's recall on
 *   the labelled set but cost 1.7× the time of a call (BENCHMARKS.md, search-quality notes);
 * - WHOLE: a stem held by at most WHOLE / stems documents (never fewer than its share of DEPTH)
 *   enters whole, so only common stems are cut by impact: cutting mid-frequency stems at their
 *   share of DEPTH left a document that holds many of them (but tops no list) unscored
 *   (BENCHMARKS.md, search-quality notes); the bound keeps a long question's reads finite;
 * - GRAPH_SEEDS / GRAPH_WEIGHT: graph expansion from the best matched keys and objects, adding
 *   this fraction of the best seed's score (scaled below every direct match) to what it reaches.
 */
export const RANKING = {
  MAX_TERMS: 64,
  DEPTH: 400,
  RESCORE: 100,
  GRAPH_SEEDS: 20,
  GRAPH_WEIGHT: 0.5,
  WHOLE: 4000,
} as const;

/** The SQL text of a search (one call of context_search, migrations/functions/context_search.sql). */
export const SEARCH_SQL = 'SELECT * FROM context_search($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';

export async function searchHub(
  db: SqlExecutor,
  projectId: string,
  query: string,
  limit: number,
  explain: boolean,
): Promise<SearchRow[]> {
  return db.query<SearchRow>(SEARCH_SQL, [
    projectId,
    query,
    limit,
    explain,
    RANKING.MAX_TERMS,
    RANKING.DEPTH,
    RANKING.RESCORE,
    RANKING.GRAPH_SEEDS,
    RANKING.GRAPH_WEIGHT,
    RANKING.WHOLE,
  ]);
}

/** How many stems a question has (to tell "only stop words" from "no match"). */
export async function countStems(db: SqlExecutor, query: string): Promise<number> {
  const rows = await db.query<{ n: number }>("SELECT cardinality(tsvector_to_array(to_tsvector('english', $1))) AS n", [
    query,
  ]);
  return Number(rows[0]?.n ?? 0);
}

/** Rebuilds one project's search index from its live rows (context-hub search-reindex). */
export async function rebuildSearchIndex(
  db: SqlExecutor,
  projectId: string,
): Promise<{ documents: number; postings: number; terms: number }> {
  const rows = await db.query<{ documents: number; postings: number; terms: number }>(
    'SELECT * FROM search_index_rebuild($1)',
    [projectId],
  );
  const r = rows[0]!;
  return { documents: Number(r.documents), postings: Number(r.postings), terms: Number(r.terms) };
}

/** The statistics as stored and as recomputed from the live rows (tests, the reindex --check). */
export const SEARCH_STATS_DRIFT_SQL = `
WITH lex AS (
  SELECT x.kind, x.doc_id, u.lexeme AS term, cardinality(u.weights) AS n FROM (
    SELECT 's'::"char" AS kind, s.id AS doc_id, s.doc_tsv FROM skills s WHERE s.project_id = $1 AND s.deleted_at IS NULL
    UNION ALL SELECT 'k', k.id, k.doc_tsv FROM knowledge k WHERE k.project_id = $1 AND k.deleted_at IS NULL
    UNION ALL SELECT 'b', b.key, search_key_tsv(b.key, b.doc_tsv) FROM business_keys b WHERE b.project_id = $1) x
  CROSS JOIN LATERAL unnest(x.doc_tsv) u
),
want AS (SELECT l.term, count(*)::integer AS df FROM lex l GROUP BY l.term),
have AS (SELECT t.term, t.df FROM search_terms t WHERE t.project_id = $1),
want_docs AS (SELECT l.kind, count(DISTINCT l.doc_id)::integer AS docs, sum(l.n)::bigint AS len FROM lex l GROUP BY l.kind),
have_docs AS (SELECT f.kind, f.docs::integer AS docs, (f.len1 + f.len2 + f.len3)::bigint AS len FROM search_fields f
  WHERE f.project_id = $1 AND f.docs <> 0),
want_postings AS (SELECT count(*)::integer AS n FROM lex),
have_postings AS (SELECT count(*)::integer AS n FROM search_postings p WHERE p.project_id = $1)
SELECT
  (SELECT count(*) FROM want w FULL JOIN have h ON h.term = w.term WHERE w.df IS DISTINCT FROM h.df)::integer AS terms_wrong,
  (SELECT count(*) FROM want_docs w FULL JOIN have_docs h ON h.kind = w.kind WHERE w.docs IS DISTINCT FROM h.docs OR w.len IS DISTINCT FROM h.len)::integer AS kinds_wrong,
  (SELECT n FROM want_postings) AS postings_expected,
  (SELECT n FROM have_postings) AS postings_stored,
  (SELECT count(*) FROM want)::integer AS terms
`;

export async function searchStatsDrift(
  db: SqlExecutor,
  projectId: string,
): Promise<{
  terms_wrong: number;
  kinds_wrong: number;
  postings_expected: number;
  postings_stored: number;
  terms: number;
}> {
  const rows = await db.query<{
    terms_wrong: number;
    kinds_wrong: number;
    postings_expected: number;
    postings_stored: number;
    terms: number;
  }>(SEARCH_STATS_DRIFT_SQL, [projectId]);
  return rows[0]!;
}
