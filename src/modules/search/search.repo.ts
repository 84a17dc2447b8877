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
}

/** How many of the best direct matches the graph expansion starts from (bounds the work per query). */
export const GRAPH_SEEDS = 100;
/** Snippets are cut from the start of the body; more than this is never needed. */
const SNIPPET_SOURCE_CHARS = 4000;

/**
 * The whole tiered search as one set-based statement:
 * - direct matches: full-text (weighted tsvector, GIN) over name/title/label/synonyms/description/
 *   body, or trigram word similarity (GIN, `<%`) on the title text so a typo still hits;
 *   tier 1 when the title text matches, else tier 2;
 * - graph neighbours (tier 3): objects linked (business links, a Skill's mdm_references) to a matched
 *   key, and keys linked from or referenced by a matched object, from the best direct matches;
 * - each object once, in its best tier; counts per tier over all of them; the first `limit` rows.
 */
const SEARCH_SQL = `
WITH q AS (SELECT to_tsquery('english', $2) AS tsq, $3::text AS raw),
direct AS (
  SELECT 'skill'::text AS kind, s.id, s.name AS key, s.name AS title,
         CASE WHEN s.title_tsv @@ q.tsq OR q.raw <% s.title_text THEN 1 ELSE 2 END AS tier,
         (ts_rank(s.doc_tsv, q.tsq) + word_similarity(q.raw, s.title_text))::float8 AS score
    FROM skills s, q
   WHERE s.project_id = $1 AND s.deleted_at IS NULL AND (s.doc_tsv @@ q.tsq OR q.raw <% s.title_text)
  UNION ALL
  SELECT 'knowledge', k.id, k.topic_id, k.title,
         CASE WHEN k.title_tsv @@ q.tsq OR q.raw <% k.title THEN 1 ELSE 2 END,
         (ts_rank(k.doc_tsv, q.tsq) + word_similarity(q.raw, k.title))::float8
    FROM knowledge k, q
   WHERE k.project_id = $1 AND k.deleted_at IS NULL AND (k.doc_tsv @@ q.tsq OR q.raw <% k.title)
  UNION ALL
  SELECT 'business_key', b.key, b.key, b.label,
         CASE WHEN b.title_tsv @@ q.tsq OR q.raw <% b.title_text THEN 1 ELSE 2 END,
         (ts_rank(b.doc_tsv, q.tsq) + word_similarity(q.raw, b.title_text))::float8
    FROM business_keys b, q
   WHERE b.project_id = $1 AND (b.doc_tsv @@ q.tsq OR q.raw <% b.title_text)
),
hit_keys AS (SELECT key, score FROM direct WHERE kind = 'business_key' ORDER BY tier, score DESC LIMIT ${GRAPH_SEEDS}),
hit_objs AS (SELECT kind, id, score FROM direct WHERE kind <> 'business_key' ORDER BY tier, score DESC LIMIT ${GRAPH_SEEDS}),
neighbors AS (
  SELECT 'knowledge'::text AS kind, k.id, k.topic_id AS key, k.title, 3 AS tier, hk.score * 0.5 AS score
    FROM hit_keys hk
    JOIN business_links l ON l.project_id = $1 AND l.business_key = hk.key AND l.source_type = 'knowledge'
    JOIN knowledge k ON k.id = l.source_id AND k.deleted_at IS NULL
  UNION ALL
  SELECT 'skill', s.id, s.name, s.name, 3, hk.score * 0.5
    FROM hit_keys hk
    JOIN business_links l ON l.project_id = $1 AND l.business_key = hk.key AND l.source_type = 'skill'
    JOIN skills s ON s.id = l.source_id AND s.deleted_at IS NULL
  UNION ALL
  SELECT 'skill', s.id, s.name, s.name, 3, hk.score * 0.5
    FROM hit_keys hk
    JOIN skills s ON s.project_id = $1 AND s.deleted_at IS NULL AND s.mdm_references @> ARRAY[hk.key]
  UNION ALL
  SELECT 'business_key', bk.key, bk.key, bk.label, 3, ho.score * 0.5
    FROM hit_objs ho
    JOIN business_links l ON l.source_id = ho.id AND l.project_id = $1
    JOIN business_keys bk ON bk.project_id = $1 AND bk.key = l.business_key
  UNION ALL
  SELECT 'business_key', bk.key, bk.key, bk.label, 3, ho.score * 0.5
    FROM hit_objs ho
    JOIN skills s ON ho.kind = 'skill' AND s.id = ho.id
    CROSS JOIN LATERAL unnest(s.mdm_references) AS r(key)
    JOIN business_keys bk ON bk.project_id = $1 AND bk.key = r.key
),
best AS (
  SELECT DISTINCT ON (kind, id) kind, id, key, title, tier, score
    FROM (SELECT * FROM direct UNION ALL SELECT * FROM neighbors) c
   ORDER BY kind, id, tier, score DESC
),
ranked AS (
  SELECT best.*, count(*) OVER () AS total,
         count(*) FILTER (WHERE tier = 1) OVER () AS n_title,
         count(*) FILTER (WHERE tier = 2) OVER () AS n_description,
         count(*) FILTER (WHERE tier = 3) OVER () AS n_graph
    FROM best
   ORDER BY tier, score DESC, key
   LIMIT $4
)
SELECT r.*,
       CASE r.kind WHEN 'skill' THEN s.description || E'\\n' || left(s.body_md, ${SNIPPET_SOURCE_CHARS})
                   WHEN 'knowledge' THEN left(k.body_md, ${SNIPPET_SOURCE_CHARS})
                   ELSE coalesce(bk.description, '') || ' ' || array_to_string(bk.synonyms, ', ') END AS text
  FROM ranked r
  LEFT JOIN skills s ON r.kind = 'skill' AND s.id = r.id
  LEFT JOIN knowledge k ON r.kind = 'knowledge' AND k.id = r.id
  LEFT JOIN business_keys bk ON r.kind = 'business_key' AND bk.project_id = $1 AND bk.key = r.id
 ORDER BY r.tier, r.score DESC, r.key`;

export async function searchHub(db: SqlExecutor, projectId: string, tsquery: string, raw: string, limit: number): Promise<SearchRow[]> {
  return db.query<SearchRow>(SEARCH_SQL, [projectId, tsquery, raw, limit]);
}
