-- context_search: relevance-ranked search over Skills, Knowledge and business keys of one project
-- (docs/api.md, "How a search is ranked", is the formula; src/modules/search/search.repo.ts the
-- caller). Re-runnable: the migration runner applies this file after the numbered migrations
-- whenever its text changes (DEVELOPING.md, "Migrations"). It reads the index of
-- search_index.sql (tables: migration 0050).
--
-- 1. The question's stems: to_tsvector of the text as given (so identifiers such as kpi.roas stay
--    one token, as they do in documents) and of the text with . _ - as spaces (their parts), in
--    order of appearance, the first p_max_terms distinct. to_tsvector never reads syntax: quotes,
--    & | ! :* are plain separators.
-- 2. A stem no document holds (a typo) is replaced by the vocabulary's most similar stem (trigram
--    similarity ≥ 0.3, then document frequency, then the stem itself), its score scaled by that
--    similarity. Stems of digits keep no substitute (a SKU or a code is exact).
-- 3. Candidates: every posting of a stem held by at most max(its share of p_depth, p_whole ÷
--    stems) documents, and per stem held by more its share of p_depth postings of highest impact,
--    so what enters depends only on scores, never on the order of the words;
--    their partial BM25F sum ranks them, and the best p_rescore are scored exactly (the stems
--    a candidate holds beyond a stem's top postings are looked up by primary key).
--    Both cuts, like every later one, break equal scores as the final order does (5.), by kind and
--    doc_key: a question gets the same answer at every limit and on every store.
-- 4. Graph expansion from the best p_seeds keys and objects: what a matched key explains or a Skill
--    references, and the keys a matched object is linked to, that the question's words did not
--    match themselves, score p_graph × the best seed score that reaches them × the weakest direct
--    score ÷ the best one: below every document the words matched (a boost never pushes down a
--    better BM25 match), in the order of the seeds that brought them (a direct match keeps its own
--    score: the link is not counted twice).
-- 5. One total order: score rounded to 6 decimals (the partial sums of 3. too) (both stores compute the same IEEE sums, but
--    ln() of two libms may differ in the last bit), then kind, then the key a user sees (Skill
--    name, topic_id, business key; the same on every store a hub is imported into, where internal
--    ids are random), in byte order (COLLATE "C": no database's collation decides a tie).
DROP FUNCTION IF EXISTS context_search(text, text, text, integer, integer, integer);
DROP FUNCTION IF EXISTS context_search(text, text, integer, boolean, integer, integer, integer, integer, float8);
CREATE OR REPLACE FUNCTION context_search(p_project text, p_query text, p_limit integer, p_explain boolean,
                                          p_max_terms integer, p_depth integer, p_rescore integer, p_seeds integer, p_graph float8,
                                          p_whole integer)
RETURNS TABLE (kind text, id text, key text, title text, tier integer, score float8,
               total bigint, n_title bigint, n_description bigint, n_graph bigint, capped boolean, text text,
               fields text[], words text[], explain jsonb, terms_used integer, terms_dropped integer)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  all_terms text[];
  q_terms text[];
  n_docs float8;
  a1 float8;
  a2 float8;
  a3 float8;
  q_depth integer;
  q_whole integer;
  is_capped boolean;
  c_kind "char"[];
  q_term text[];
  q_asked text[];
  q_factor float8[];
  q_df integer[];
  q_idf float8[];
  c_doc text[];
  c_key text[];
BEGIN
  all_terms := ARRAY(
    SELECT t.lexeme FROM unnest(to_tsvector('english', p_query) || to_tsvector('english', regexp_replace(p_query, '[._-]+', ' ', 'g'))) t
     GROUP BY t.lexeme ORDER BY min(t.positions[1]), t.lexeme);
  q_terms := all_terms[1:p_max_terms];
  IF cardinality(q_terms) = 0 THEN
    RETURN;
  END IF;
  -- Average field lengths over every document of the project, whatever its kind (a long Skill is
  -- long beside the sheets it competes with, not only beside other Skills).
  SELECT coalesce(sum(f.docs), 0), coalesce(sum(f.len1)::float8 / nullif(sum(f.docs), 0), 0),
         coalesce(sum(f.len2)::float8 / nullif(sum(f.docs), 0), 0), coalesce(sum(f.len3)::float8 / nullif(sum(f.docs), 0), 0)
    INTO n_docs, a1, a2, a3 FROM search_fields f WHERE f.project_id = p_project;
  q_depth := greatest(p_depth / 4, p_depth / greatest(cardinality(q_terms), 1));
  -- A stem held by at most q_whole documents enters whole (p_whole postings split among the stems):
  -- only the common stems are cut by impact.
  q_whole := greatest(q_depth, p_whole / greatest(cardinality(q_terms), 1));

  -- Known stems score as themselves; an unknown one by its nearest neighbour in the vocabulary.
  SELECT coalesce(array_agg(s.term ORDER BY q.ord), '{}'), coalesce(array_agg(q.term ORDER BY q.ord), '{}'),
         coalesce(array_agg(1.0::float8 ORDER BY q.ord), '{}'), coalesce(array_agg(s.df ORDER BY q.ord), '{}')
    INTO q_term, q_asked, q_factor, q_df
    FROM unnest(q_terms) WITH ORDINALITY q(term, ord) JOIN search_terms s ON s.project_id = p_project AND s.term = q.term;
  SELECT q_term || coalesce(array_agg(t.term ORDER BY t.term), '{}'), q_asked || coalesce(array_agg(t.asked ORDER BY t.term), '{}'),
         q_factor || coalesce(array_agg(t.sim ORDER BY t.term), '{}'), q_df || coalesce(array_agg(t.df ORDER BY t.term), '{}')
    INTO q_term, q_asked, q_factor, q_df
    FROM (
      SELECT DISTINCT ON (m.term) m.term, q.term AS asked, m.sim, m.df
        FROM unnest(q_terms) q(term)
        CROSS JOIN LATERAL (
          SELECT s.term, s.df, similarity(s.term, q.term)::float8 AS sim FROM search_terms s
           WHERE s.term % q.term AND s.project_id = p_project
           ORDER BY similarity(s.term, q.term) DESC, s.df DESC, s.term COLLATE "C" LIMIT 1) m
       WHERE length(q.term) >= 4 AND q.term !~ '[0-9]' AND q.term <> ALL(q_asked) AND m.term <> ALL(q_term)
       ORDER BY m.term, m.sim DESC, q.term
    ) t;
  q_idf := ARRAY(SELECT search_idf(n_docs, d) FROM unnest(q_df) WITH ORDINALITY u(d, o) ORDER BY o);

  SELECT coalesce(bool_or(d > q_whole), false) INTO is_capped FROM unnest(q_df) d;

  -- Candidates by impact, ranked by their partial score; the best p_rescore go on. Equal impacts
  -- and equal partial scores are cut by kind and key (doc_key), never by the random internal id.
  SELECT array_agg(c.kind ORDER BY c.ord), array_agg(c.doc_id ORDER BY c.ord), array_agg(c.doc_key ORDER BY c.ord)
    INTO c_kind, c_doc, c_key
    FROM (
      SELECT p.kind, p.doc_id, p.doc_key,
             row_number() OVER (ORDER BY round(sum(q.idf * q.factor * search_bm25f(p.tf1, p.tf2, p.tf3, p.len1, p.len2, p.len3,
                                   a1, a2, a3))::numeric, 6) DESC,
                                   p.kind, p.doc_key COLLATE "C") AS ord
        FROM unnest(q_term, q_idf, q_factor, q_df) q(term, idf, factor, df)
        CROSS JOIN LATERAL (SELECT sp.kind, sp.doc_id, sp.doc_key, sp.tf1, sp.tf2, sp.tf3, sp.len1, sp.len2, sp.len3 FROM search_postings sp
                             WHERE sp.project_id = p_project AND lower(sp.term) = q.term
                             ORDER BY lower(sp.term), sp.impact DESC, sp.kind, sp.doc_key COLLATE "C"
                             LIMIT CASE WHEN q.df <= q_whole THEN NULL ELSE q_depth END) p
       GROUP BY p.kind, p.doc_id, p.doc_key
       ORDER BY ord
       LIMIT p_rescore
    ) c;

  RETURN QUERY
  WITH
  cand AS (SELECT * FROM unnest(c_kind, c_doc, c_key) WITH ORDINALITY AS c(kind, doc_id, doc_key, ord)),
  parts AS (
    SELECT c.kind, c.doc_id, c.doc_key, q.term, q.asked, q.factor, q.idf, sp.tf1, sp.tf2, sp.tf3, sp.len1, sp.len2, sp.len3,
           q.idf * q.factor * search_bm25f(sp.tf1, sp.tf2, sp.tf3, sp.len1, sp.len2, sp.len3,
                                           a1, a2, a3) AS part
      FROM cand c CROSS JOIN unnest(q_term, q_asked, q_idf, q_factor) q(term, asked, idf, factor)
      -- One primary-key probe per candidate and stem (OFFSET 0: never flattened into a scan by kind).
      CROSS JOIN LATERAL (SELECT x.tf1, x.tf2, x.tf3, x.len1, x.len2, x.len3 FROM search_postings x
                           WHERE x.project_id = p_project AND x.term = q.term AND x.kind = c.kind AND x.doc_id = c.doc_id
                           OFFSET 0) sp
  ),
  direct AS (
    SELECT x.kind, x.doc_id, x.doc_key, sum(x.part) AS bm25, bool_or(x.tf1 > 0) AS in_title,
           array_agg(x.term ORDER BY x.term) AS words,
           array_remove(ARRAY[CASE WHEN bool_or(x.tf1 > 0) THEN 1 END, CASE WHEN bool_or(x.tf2 > 0) THEN 2 END,
                              CASE WHEN bool_or(x.tf3 > 0) THEN 3 END], NULL) AS field_nos,
           jsonb_agg(jsonb_build_object('term', x.term, 'asked', x.asked, 'typo_factor', x.factor,
                  'idf', round(x.idf::numeric, 4), 'tf', jsonb_build_array(x.tf1, x.tf2, x.tf3),
                  'len', jsonb_build_array(x.len1, x.len2, x.len3), 'score', round(x.part::numeric, 4)) ORDER BY x.term)
             FILTER (WHERE p_explain) AS parts
      FROM parts x GROUP BY x.kind, x.doc_id, x.doc_key
  ),
  seed_keys AS (SELECT d.doc_id AS key, d.bm25 FROM direct d WHERE d.kind = 'b' ORDER BY d.bm25 DESC, d.doc_id COLLATE "C" LIMIT p_seeds),
  seed_objs AS (SELECT d.kind, d.doc_id, d.bm25 FROM direct d WHERE d.kind <> 'b' ORDER BY d.bm25 DESC, d.kind, d.doc_key COLLATE "C" LIMIT p_seeds),
  reached AS (
    SELECT CASE l.source_type WHEN 'skill' THEN 's' ELSE 'k' END::"char" AS kind, l.source_id AS doc_id, sk.bm25, sk.key AS via
      FROM seed_keys sk
      CROSS JOIN LATERAL (SELECT bl.source_type, bl.source_id FROM business_links bl
                           WHERE bl.project_id = p_project AND bl.business_key = sk.key
                           ORDER BY bl.source_type, bl.source_id LIMIT 25) l
    UNION ALL
    SELECT 's', r.id, sk.bm25, sk.key
      FROM seed_keys sk
      CROSS JOIN LATERAL (SELECT s.id FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL
                            AND s.mdm_references @> ARRAY[sk.key] ORDER BY s.id COLLATE "C" LIMIT 25) r
    UNION ALL
    SELECT 'b', l.business_key, so.bm25, so.doc_id
      FROM seed_objs so JOIN business_links l ON l.source_id = so.doc_id AND l.project_id = p_project
    UNION ALL
    SELECT 'b', r.key, so.bm25, so.doc_id
      FROM seed_objs so JOIN skills s ON so.kind = 's' AND s.id = so.doc_id
      CROSS JOIN LATERAL unnest(s.mdm_references) AS r(key)
  ),
  graph AS (
    SELECT r.kind, r.doc_id, p_graph * max(r.bm25) * s.low / greatest(s.high, 1e-12) AS boost,
           (array_agg(r.via ORDER BY r.bm25 DESC, r.via COLLATE "C"))[1] AS via
      FROM reached r CROSS JOIN (SELECT min(d.bm25) AS low, max(d.bm25) AS high FROM direct d) s
     GROUP BY r.kind, r.doc_id, s.low, s.high
  ),
  scored AS (
    SELECT coalesce(d.kind, g.kind) AS kind, coalesce(d.doc_id, g.doc_id) AS doc_id,
           round(coalesce(d.bm25, g.boost)::numeric, 6)::float8 AS score,
           CASE WHEN d.doc_id IS NULL THEN 3 WHEN d.in_title THEN 1 ELSE 2 END AS tier,
           d.words, d.field_nos, d.parts, d.bm25, g.boost, g.via
      FROM direct d FULL JOIN graph g ON g.kind = d.kind AND g.doc_id = d.doc_id
  ),
  live AS (
    SELECT x.*, coalesce(s.name, k.topic_id, b.key) AS key, coalesce(s.name, k.title, b.label) AS title
      FROM scored x
      LEFT JOIN skills s ON x.kind = 's' AND s.id = x.doc_id AND s.deleted_at IS NULL
      LEFT JOIN knowledge k ON x.kind = 'k' AND k.id = x.doc_id AND k.deleted_at IS NULL
      LEFT JOIN business_keys b ON x.kind = 'b' AND b.project_id = p_project AND b.key = x.doc_id
     WHERE s.id IS NOT NULL OR k.id IS NOT NULL OR b.key IS NOT NULL
  ),
  ranked AS (
    SELECT l.*, count(*) OVER () AS total,
           count(*) FILTER (WHERE l.tier = 1) OVER () AS n_title,
           count(*) FILTER (WHERE l.tier = 2) OVER () AS n_description,
           count(*) FILTER (WHERE l.tier = 3) OVER () AS n_graph
      FROM live l
     ORDER BY l.score DESC, l.kind, l.key COLLATE "C", l.doc_id COLLATE "C"
     LIMIT p_limit
  )
  SELECT CASE r.kind WHEN 's' THEN 'skill' WHEN 'k' THEN 'knowledge' ELSE 'business_key' END,
         r.doc_id, r.key, r.title, r.tier, r.score, r.total, r.n_title, r.n_description, r.n_graph, is_capped,
         -- The snippet's text only for the hits answered (reading bodies is the costly part).
         CASE r.kind WHEN 's' THEN (SELECT s.description || E'\n' || left(s.body_md, 4000) FROM skills s WHERE s.id = r.doc_id)
                     WHEN 'k' THEN (SELECT left(k.body_md, 4000) FROM knowledge k WHERE k.id = r.doc_id)
                     ELSE (SELECT coalesce(b.description, '') || ' ' || array_to_string(b.synonyms, ', ') FROM business_keys b
                            WHERE b.project_id = p_project AND b.key = r.doc_id) END,
         ARRAY(SELECT CASE r.kind WHEN 's' THEN (ARRAY['name', 'description', 'body'])[n]
                                  WHEN 'k' THEN (ARRAY['title', 'headings', 'body'])[n]
                                  ELSE (ARRAY['label', 'description', 'other'])[n] END
                 FROM unnest(coalesce(r.field_nos, '{}')) n),
         coalesce(r.words, '{}'),
         CASE WHEN p_explain THEN jsonb_build_object('bm25f', round(coalesce(r.bm25, 0)::numeric, 6), 'terms', coalesce(r.parts, '[]'::jsonb),
                'graph', CASE WHEN r.boost IS NULL OR r.bm25 IS NOT NULL THEN NULL ELSE jsonb_build_object('boost', round(r.boost::numeric, 6), 'via', r.via) END,
                'documents', n_docs) END,
         cardinality(q_terms), cardinality(all_terms) - cardinality(q_terms)
    FROM ranked r
   ORDER BY r.score DESC, r.kind, r.key COLLATE "C", r.doc_id COLLATE "C";
END
$fn$;
