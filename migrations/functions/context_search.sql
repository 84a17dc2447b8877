-- context_search: tiered search over Skills, Knowledge and business keys for one project
-- (src/modules/search/search.repo.ts explains the tiers). Re-runnable: the migration runner applies
-- this file after the numbered migrations whenever its text changes (DEVELOPING.md, "Migrations").
-- First created by migration 0002, replaced by 0007; this file is its current definition. A change
-- of its arguments or result columns needs `DROP FUNCTION IF EXISTS` of the old signature first.
--
-- plpgsql so each connection plans the statements once and reuses them (planning costs more than
-- running them). Bounds keep a very common word cheap: at most p_cap candidates per kind and per
-- way of matching, graph expansion from the best p_seeds keys and objects, at most 25 neighbours
-- per key.
--
-- Matching is AND-first. Every kind and way of matching (s/k/b = Skills, Knowledge, keys; t =
-- title words, d = any text) ranks at most p_cap candidates, those with all the words first; only
-- when fewer than p_cap have them all is the rest filled with objects that have some of them.
-- A capped sample of a common word's matches is arbitrary, so filling it with objects that match
-- every word first makes the ranked set the relevant one; and intersecting posting lists is much
-- cheaper than uniting those of several common words. `capped` says a bound was hit (the total
-- is then a lower bound).
--
-- gin_fuzzy_search_limit: GIN hands back a random sample of about this many rows when every word
-- of a scan is very common, instead of a bitmap of tens of thousands only to rank p_cap. It is on
-- for one-lexeme scans and off for the all-words scans, where sampling each word's list first
-- would leave almost nothing of their intersection. Skills and Knowledge are filled word by word
-- in query order, stopping at p_cap: a single common word is then sampled, while a scan for "any
-- of the words" is only sampled when every word is common, and one rare word made it a bitmap of
-- every row that has any of the others. Keys are few: filled at once.
--
-- p_words: the query words (letters and digits only, never tsquery syntax). p_raw: the text for
-- trigram typo matching on key labels/synonyms and Skill names, '' for queries of several words
-- (see TYPO_MAX_WORDS in the repo). Typos are not matched on Knowledge titles: a common trigram
-- would cost a recheck of every title; the sheets a typo means are still found as graph
-- neighbours of the key it matched.
CREATE OR REPLACE FUNCTION context_search(p_project text, p_words text, p_raw text, p_limit integer, p_cap integer, p_seeds integer)
RETURNS TABLE (kind text, id text, key text, title text, tier integer, score float8,
               total bigint, n_title bigint, n_description bigint, n_graph bigint, capped boolean, text text)
LANGUAGE plpgsql STABLE
-- Every candidate query has a GIN index and must use it: with LIMIT the planner otherwise walks a
-- b-tree or the table and tests each row (word similarity, a detoasted tsvector), because it
-- misjudges how many rows a full-text or trigram condition matches.
SET enable_seqscan = off
SET enable_indexscan = off
SET gin_fuzzy_search_limit = 1000
-- Planning these statements costs several times running them on a small hub, and the plan cache,
-- comparing estimates, kept choosing a fresh custom plan per call.
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  -- The query's lexemes in query order; to_tsvector drops stop words without a NOTICE and merges
  -- words with one stem ("compute computing").
  lexemes text[] := ARRAY(SELECT t.lexeme FROM unnest(to_tsvector('english', p_words)) t ORDER BY t.positions[1]);
  each_word tsquery[] := ARRAY(SELECT quote_literal(l)::tsquery FROM unnest(lexemes) l);
  qall tsquery;
  qany tsquery;
  widen boolean := cardinality(lexemes) > 1;
  c_kind text[];
  c_id text[];
  c_src text[];
  room_st integer;
  room_sd integer;
  room_kt integer;
  room_kd integer;
  is_capped boolean;
BEGIN
  IF cardinality(lexemes) > 0 THEN
    qall := array_to_string(each_word, ' & ')::tsquery;
    qany := array_to_string(each_word, ' | ')::tsquery;
  ELSIF p_raw = '' THEN
    RETURN;
  END IF;

  IF widen THEN
    PERFORM set_config('gin_fuzzy_search_limit', '0', true);
  END IF;
  WITH
  bt_a AS (SELECT b.key AS id FROM business_keys b WHERE b.project_id = p_project
             AND to_tsvector('english'::regconfig, b.title_text) @@ qall LIMIT p_cap + 1),
  bt_o AS (SELECT b.key AS id FROM business_keys b WHERE widen AND b.project_id = p_project
             AND to_tsvector('english'::regconfig, b.title_text) @@ qany AND NOT to_tsvector('english'::regconfig, b.title_text) @@ qall
           LIMIT (SELECT p_cap + 1 - count(*) FROM bt_a)),
  bd_a AS (SELECT b.key AS id FROM business_keys b WHERE b.project_id = p_project AND b.doc_tsv @@ qall LIMIT p_cap + 1),
  bd_o AS (SELECT b.key AS id FROM business_keys b WHERE widen AND b.project_id = p_project
             AND b.doc_tsv @@ qany AND NOT b.doc_tsv @@ qall LIMIT (SELECT p_cap + 1 - count(*) FROM bd_a))
  SELECT coalesce(array_agg(x.kind), '{}'), coalesce(array_agg(x.id), '{}'), coalesce(array_agg(x.src), '{}')
    INTO c_kind, c_id, c_src
    FROM (
      (SELECT 'skill'::text AS kind, s.id, 'st'::text AS src FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL
         AND to_tsvector('english'::regconfig, s.title_text) @@ qall LIMIT p_cap + 1)
      UNION ALL
      (SELECT 'skill', s.id, 'sd' FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL AND s.doc_tsv @@ qall LIMIT p_cap + 1)
      UNION ALL
      (SELECT 'skill', s.id, 'tt' FROM skills s WHERE p_raw <> '' AND s.project_id = p_project AND s.deleted_at IS NULL
         AND p_raw <% s.title_text LIMIT p_cap + 1)
      UNION ALL
      (SELECT 'knowledge', k.id, 'kt' FROM knowledge k WHERE k.project_id = p_project AND k.deleted_at IS NULL
         AND to_tsvector('english'::regconfig, k.title) @@ qall LIMIT p_cap + 1)
      UNION ALL
      (SELECT 'knowledge', k.id, 'kd' FROM knowledge k WHERE k.project_id = p_project AND k.deleted_at IS NULL AND k.doc_tsv @@ qall LIMIT p_cap + 1)
      UNION ALL
      SELECT 'business_key', b.id, 'bt' FROM (SELECT * FROM bt_a UNION ALL SELECT * FROM bt_o) b
      UNION ALL
      SELECT 'business_key', b.id, 'bd' FROM (SELECT * FROM bd_a UNION ALL SELECT * FROM bd_o) b
      UNION ALL
      (SELECT 'business_key', b.key, 'tt' FROM business_keys b WHERE p_raw <> '' AND b.project_id = p_project AND p_raw <% b.title_text LIMIT p_cap + 1)
    ) x;

  SELECT p_cap + 1 - count(*) FILTER (WHERE s = 'st'), p_cap + 1 - count(*) FILTER (WHERE s = 'sd'),
         p_cap + 1 - count(*) FILTER (WHERE s = 'kt'), p_cap + 1 - count(*) FILTER (WHERE s = 'kd')
    INTO room_st, room_sd, room_kt, room_kd
    FROM unnest(c_src) s;

  IF widen AND (room_st > 0 OR room_sd > 0 OR room_kt > 0 OR room_kd > 0) THEN
    PERFORM set_config('gin_fuzzy_search_limit', '1000', true);
    -- A fill row may repeat an earlier word's (both words in it): the ranking keeps one.
    SELECT c_kind || coalesce(array_agg(x.kind), '{}'), c_id || coalesce(array_agg(x.id), '{}'), c_src || coalesce(array_agg(x.src), '{}')
      INTO c_kind, c_id, c_src
      FROM (
        (SELECT 'skill'::text AS kind, f.id, 'st'::text AS src FROM unnest(each_word) w(q)
           CROSS JOIN LATERAL (SELECT s.id FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL
             AND to_tsvector('english'::regconfig, s.title_text) @@ w.q AND s.id <> ALL(c_id) LIMIT room_st) f LIMIT room_st)
        UNION ALL
        (SELECT 'skill', f.id, 'sd' FROM unnest(each_word) w(q)
           CROSS JOIN LATERAL (SELECT s.id FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL
             AND s.doc_tsv @@ w.q AND s.id <> ALL(c_id) LIMIT room_sd) f LIMIT room_sd)
        UNION ALL
        (SELECT 'knowledge', f.id, 'kt' FROM unnest(each_word) w(q)
           CROSS JOIN LATERAL (SELECT k.id FROM knowledge k WHERE k.project_id = p_project AND k.deleted_at IS NULL
             AND to_tsvector('english'::regconfig, k.title) @@ w.q AND k.id <> ALL(c_id) LIMIT room_kt) f LIMIT room_kt)
        UNION ALL
        (SELECT 'knowledge', f.id, 'kd' FROM unnest(each_word) w(q)
           CROSS JOIN LATERAL (SELECT k.id FROM knowledge k WHERE k.project_id = p_project AND k.deleted_at IS NULL
             AND k.doc_tsv @@ w.q AND k.id <> ALL(c_id) LIMIT room_kd) f LIMIT room_kd)
      ) x;
  END IF;
  SELECT coalesce(bool_or(g.n > p_cap), false) INTO is_capped FROM (SELECT count(*) AS n FROM unnest(c_src) s GROUP BY s) g;
  -- What follows only looks rows up by key (~400 candidates, their links): b-tree index scans.
  PERFORM set_config('enable_indexscan', 'on', true);

  RETURN QUERY
  WITH
  cand AS (SELECT * FROM unnest(c_kind, c_id, c_src) AS c(kind, id, src)),
  -- One row per object. by_title: found by its title words; typo_only: found by a typo alone. Full
  -- text ranks such a row at 0, so it scores the typo's word similarity plus the similarity of the
  -- whole label or name: "roaz" is as close to a word of "roas variant 7" as to "ROAS", not to all
  -- of it.
  first_match AS (
    SELECT c.kind, c.id, bool_or(c.src IN ('st', 'kt', 'bt')) AS by_title, bool_and(c.src = 'tt') AS typo_only, bool_or(c.src = 'tt') AS typo
      FROM cand c GROUP BY c.kind, c.id
  ),
  -- The tier is decided per object (a query word in its title text, or a typo match on it), so an
  -- object found by its text whose title also matches is a title hit even when the title pass was
  -- capped before reaching it.
  direct AS (
    SELECT c.kind, c.id, s.name AS key, s.name AS title,
           CASE WHEN c.by_title OR c.typo OR to_tsvector('english'::regconfig, s.title_text) @@ qany THEN 1 ELSE 2 END AS tier,
           (coalesce(ts_rank(s.doc_tsv, qany), 0) + CASE WHEN c.typo_only THEN word_similarity(p_raw, s.title_text) + similarity(p_raw, s.title_text) ELSE 0 END)::float8 AS score
      FROM first_match c JOIN skills s ON c.kind = 'skill' AND s.id = c.id
    UNION ALL
    SELECT c.kind, c.id, k.topic_id, k.title,
           CASE WHEN c.by_title OR to_tsvector('english'::regconfig, k.title) @@ qany THEN 1 ELSE 2 END,
           ts_rank(k.doc_tsv, qany)::float8
      FROM first_match c JOIN knowledge k ON c.kind = 'knowledge' AND k.id = c.id
    UNION ALL
    SELECT c.kind, c.id, b.key, b.label,
           CASE WHEN c.by_title OR c.typo OR to_tsvector('english'::regconfig, b.title_text) @@ qany THEN 1 ELSE 2 END,
           (coalesce(ts_rank(b.doc_tsv, qany), 0) + CASE WHEN c.typo_only THEN word_similarity(p_raw, b.title_text) + similarity(p_raw, b.label) ELSE 0 END)::float8
      FROM first_match c JOIN business_keys b ON c.kind = 'business_key' AND b.project_id = p_project AND b.key = c.id
  ),
  -- Ties (a typo is as similar to "roas" as to "roas variant 7") go to the shorter, broader key.
  hit_keys AS (SELECT d.key, d.score FROM direct d WHERE d.kind = 'business_key' ORDER BY d.tier, d.score DESC, d.key LIMIT p_seeds),
  hit_objs AS (SELECT d.kind, d.id, d.score FROM direct d WHERE d.kind <> 'business_key' ORDER BY d.tier, d.score DESC, d.key LIMIT p_seeds),
  neighbors AS (
    SELECT l.source_type AS kind, l.source_id AS id, coalesce(s.name, k.topic_id) AS key, coalesce(s.name, k.title) AS title, 3 AS tier, hk.score * 0.5 AS score
      FROM hit_keys hk
      CROSS JOIN LATERAL (SELECT bl.source_type, bl.source_id FROM business_links bl
                           WHERE bl.project_id = p_project AND bl.business_key = hk.key LIMIT 25) l
      LEFT JOIN skills s ON l.source_type = 'skill' AND s.id = l.source_id AND s.deleted_at IS NULL
      LEFT JOIN knowledge k ON l.source_type = 'knowledge' AND k.id = l.source_id AND k.deleted_at IS NULL
     WHERE s.id IS NOT NULL OR k.id IS NOT NULL
    UNION ALL
    SELECT 'skill', r.id, r.name, r.name, 3, hk.score * 0.5
      FROM hit_keys hk
      CROSS JOIN LATERAL (SELECT s.id, s.name FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL
                            AND s.mdm_references @> ARRAY[hk.key] LIMIT 25) r
    UNION ALL
    SELECT 'business_key', bk.key, bk.key, bk.label, 3, ho.score * 0.5
      FROM hit_objs ho
      JOIN business_links l ON l.source_id = ho.id AND l.project_id = p_project
      JOIN business_keys bk ON bk.project_id = p_project AND bk.key = l.business_key
    UNION ALL
    SELECT 'business_key', bk.key, bk.key, bk.label, 3, ho.score * 0.5
      FROM hit_objs ho
      JOIN skills s ON ho.kind = 'skill' AND s.id = ho.id
      CROSS JOIN LATERAL unnest(s.mdm_references) AS r(key)
      JOIN business_keys bk ON bk.project_id = p_project AND bk.key = r.key
  ),
  best AS (
    SELECT DISTINCT ON (a.kind, a.id) a.kind, a.id, a.key, a.title, a.tier, a.score
      FROM (SELECT * FROM direct UNION ALL SELECT * FROM neighbors) a
     ORDER BY a.kind, a.id, a.tier, a.score DESC
  ),
  ranked AS (
    SELECT b.*, count(*) OVER () AS total,
           count(*) FILTER (WHERE b.tier = 1) OVER () AS n_title,
           count(*) FILTER (WHERE b.tier = 2) OVER () AS n_description,
           count(*) FILTER (WHERE b.tier = 3) OVER () AS n_graph
      FROM best b
     ORDER BY b.tier, b.score DESC, b.key
     LIMIT p_limit
  )
  SELECT r.kind, r.id, r.key, r.title, r.tier, r.score, r.total, r.n_title, r.n_description, r.n_graph, is_capped,
         CASE r.kind WHEN 'skill' THEN s.description || E'\n' || left(s.body_md, 4000)
                     WHEN 'knowledge' THEN left(k.body_md, 4000)
                     ELSE coalesce(bk.description, '') || ' ' || array_to_string(bk.synonyms, ', ') END
    FROM ranked r
    LEFT JOIN skills s ON r.kind = 'skill' AND s.id = r.id
    LEFT JOIN knowledge k ON r.kind = 'knowledge' AND k.id = r.id
    LEFT JOIN business_keys bk ON r.kind = 'business_key' AND bk.project_id = p_project AND bk.key = r.id
   ORDER BY r.tier, r.score DESC, r.key;
END
$fn$;
