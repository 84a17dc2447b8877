-- The relevance index of search_context and what keeps it true (tables: migration 0050; the ranking:
-- context_search.sql; the formula: docs/api.md, "How a search is ranked"). Re-runnable: the
-- migration runner applies this file after the numbered migrations whenever its text changes.
--
-- Two steps per write, so that concurrent writers never wait on each other's statistics rows:
-- 1. search_index_sync, a statement trigger with transition tables, rewrites the postings of the
--    documents the statement changed (rows of their own: only writers of the same document meet)
--    and notes the change in document frequencies and field lengths in temporary tables that live
--    for the transaction (ON COMMIT DELETE ROWS);
-- 2. search_stats_fold adds those deltas to search_terms and search_fields once per project and
--    transaction, at commit: the first statement that leaves deltas for a project notes it in the
--    temporary table search_pending_projects, whose deferred constraint trigger is the fold (one
--    event per project, where a trigger per written row had queued one per row: 5,000 for an
--    import of 5,000 sheets). Deferred events fire in the order they were queued, and the
--    statement's own rows queued context_version_bump's events before the statement trigger
--    noted the project, so the project's version row lock is taken first: folds of one project
--    run one at a time, hold their rows for an instant at commit and never while waiting for
--    another lock, so they cannot deadlock.
-- search_index_rebuild recomputes a project's index from its live rows (`context-hub
-- search-reindex`, docs/operations.md).

-- BM25F's saturated term frequency of one stem in one document: each field's frequency divided by
-- its length normalisation, weighted, summed, then saturated once. k1 1.2, b 0.75 on every field.
-- Field weights, every kind: 2.0 the title-like field (Skill name, Knowledge title, key label with
-- key segments and synonyms), 1.5 the second (description, headings), 1.0 the body (and steps).
-- a1..a3 are the project's average field lengths (every kind together: context_search.sql).
CREATE OR REPLACE FUNCTION search_bm25f(tf1 float8, tf2 float8, tf3 float8, len1 float8, len2 float8, len3 float8,
                                        a1 float8, a2 float8, a3 float8)
RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- One expression (x written twice) so that the planner inlines it: a body with FROM would run as
  -- a query of its own per posting.
  SELECT (2.0 * tf1 / (0.25 + 0.75 * len1 / greatest(a1, 1e-9)) + 1.5 * tf2 / (0.25 + 0.75 * len2 / greatest(a2, 1e-9))
     + 1.0 * tf3 / (0.25 + 0.75 * len3 / greatest(a3, 1e-9))) * 2.2
       / ((2.0 * tf1 / (0.25 + 0.75 * len1 / greatest(a1, 1e-9)) + 1.5 * tf2 / (0.25 + 0.75 * len2 / greatest(a2, 1e-9))
     + 1.0 * tf3 / (0.25 + 0.75 * len3 / greatest(a3, 1e-9))) + 1.2)
$$;

-- The order of a stem's postings for candidate generation: search_bm25f with fixed reference
-- lengths (8, 20, 100) instead of the kind's averages, so that it depends on the document alone,
-- never on what else was written before it: every store and every write history orders alike.
CREATE OR REPLACE FUNCTION search_impact(tf1 float8, tf2 float8, tf3 float8, len1 float8, len2 float8, len3 float8)
RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT search_bm25f(tf1, tf2, tf3, len1, len2, len3, 8, 20, 100)::real
$$;

-- Lucene's inverse document frequency (never negative).
CREATE OR REPLACE FUNCTION search_idf(n float8, df float8)
RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ln(1 + (n - df + 0.5) / (df + 0.5))
$$;

-- A business key's own identifier is part of its label field: `kpi.roas` as one token, as
-- documents that cite it hold it (its segments are in title_text already).
CREATE OR REPLACE FUNCTION search_key_tsv(k text, tsv tsvector)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT tsv || setweight(to_tsvector('english'::regconfig, k), 'A')
$$;

DROP TYPE IF EXISTS search_doc CASCADE;
-- doc_key: the key a user sees (Skill name, topic_id, business key), which breaks ties wherever
-- the candidates are cut (context_search.sql): the same on every store a hub is imported into.
CREATE TYPE search_doc AS (project_id text, doc_id text, doc_key text, tsv tsvector);

-- The session's transaction-local tables (their rows go at commit, after the deferred triggers ran).
CREATE OR REPLACE FUNCTION search_pending_tables() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('pg_temp.search_pending_projects') IS NULL THEN
    CREATE TEMP TABLE IF NOT EXISTS search_pending_terms (project_id text, term text, delta integer) ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE IF NOT EXISTS search_pending_fields (project_id text, kind "char", docs integer, len1 bigint, len2 bigint, len3 bigint)
      ON COMMIT DELETE ROWS;
    CREATE TEMP TABLE search_pending_projects (project_id text PRIMARY KEY) ON COMMIT DELETE ROWS;
    CREATE CONSTRAINT TRIGGER search_pending_fold AFTER INSERT ON pg_temp.search_pending_projects
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_stats_fold();
  END IF;
END
$$;

-- Removes the postings of `removed`, adds those of `added` (one kind), records the deltas.
CREATE OR REPLACE FUNCTION search_index_apply(p_kind "char", removed search_doc[], added search_doc[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(removed) = 0 AND cardinality(added) = 0 THEN
    RETURN;
  END IF;
  PERFORM search_pending_tables();
  IF cardinality(removed) > 0 THEN
    -- What was actually there is what leaves (RETURNING), so the deltas match the postings.
    WITH gone AS (
      DELETE FROM search_postings sp
       USING (SELECT r.project_id, r.doc_id, t.term FROM unnest(removed) r CROSS JOIN LATERAL unnest(tsvector_to_array(r.tsv)) t(term)) x
       WHERE sp.project_id = x.project_id AND sp.term = x.term AND sp.kind = p_kind AND sp.doc_id = x.doc_id
      RETURNING sp.project_id, sp.term, sp.doc_id, sp.len1, sp.len2, sp.len3
    ),
    terms AS (INSERT INTO search_pending_terms SELECT g.project_id, g.term, -count(*) FROM gone g GROUP BY 1, 2)
    INSERT INTO search_pending_fields
    SELECT d.project_id, p_kind, -count(*), -sum(d.len1), -sum(d.len2), -sum(d.len3)
      FROM (SELECT DISTINCT g.project_id, g.doc_id, g.len1, g.len2, g.len3 FROM gone g) d GROUP BY d.project_id;
  END IF;
  IF cardinality(added) > 0 THEN
    -- The deltas come from the rows written, not from the insert's RETURNING (which materialised
    -- every posting a second time: ~5 % of the trigger on the embedded store); each document's
    -- lengths are a window over its place in `added` (an integer, not two text keys, to sort).
    WITH lex AS (
      SELECT a.project_id, a.doc_id, a.doc_key, a.ord, u.lexeme AS term,
             coalesce(cardinality(array_positions(u.weights, 'A')), 0) AS tf1,
             coalesce(cardinality(array_positions(u.weights, 'B')), 0) AS tf2,
             cardinality(u.weights) - coalesce(cardinality(array_positions(u.weights, 'A')), 0) - coalesce(cardinality(array_positions(u.weights, 'B')), 0) AS tf3
        FROM unnest(added) WITH ORDINALITY a(project_id, doc_id, doc_key, tsv, ord) CROSS JOIN LATERAL unnest(a.tsv) u
    ),
    doc AS MATERIALIZED (
      SELECT l.*, sum(l.tf1) OVER w AS len1, sum(l.tf2) OVER w AS len2, sum(l.tf3) OVER w AS len3
        FROM lex l WINDOW w AS (PARTITION BY l.ord)
    ),
    ins AS (
      INSERT INTO search_postings (project_id, term, kind, doc_id, doc_key, tf1, tf2, tf3, len1, len2, len3, impact)
      SELECT d.project_id, d.term, p_kind, d.doc_id, d.doc_key, d.tf1, d.tf2, d.tf3, d.len1, d.len2, d.len3,
             search_impact(d.tf1, d.tf2, d.tf3, d.len1, d.len2, d.len3)
        FROM doc d
    ),
    terms AS (INSERT INTO search_pending_terms SELECT d.project_id, d.term, count(*) FROM doc d GROUP BY 1, 2)
    INSERT INTO search_pending_fields
    SELECT d.project_id, p_kind, count(*), sum(d.len1), sum(d.len2), sum(d.len3)
      FROM (SELECT DISTINCT d.project_id, d.doc_id, d.len1, d.len2, d.len3 FROM doc d) d GROUP BY d.project_id;
  END IF;
  -- Projects with deltas waiting for the fold: a row the first time in a transaction queues it.
  INSERT INTO search_pending_projects
  SELECT DISTINCT x.project_id FROM (SELECT r.project_id FROM unnest(removed) r UNION ALL SELECT a.project_id FROM unnest(added) a) x
  ON CONFLICT DO NOTHING;
END
$$;

CREATE OR REPLACE FUNCTION search_index_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k "char" := CASE TG_TABLE_NAME WHEN 'skills' THEN 's' WHEN 'knowledge' THEN 'k' ELSE 'b' END;
  removed search_doc[] := '{}';
  added search_doc[] := '{}';
BEGIN
  -- Only rows whose searchable text or liveness changed move (an update of updated_at alone costs nothing).
  IF k = 'b' THEN
    IF TG_OP = 'INSERT' THEN
      added := ARRAY(SELECT ROW(n.project_id, n.key, n.key, search_key_tsv(n.key, n.doc_tsv))::search_doc FROM new_rows n);
    ELSIF TG_OP = 'DELETE' THEN
      removed := ARRAY(SELECT ROW(o.project_id, o.key, o.key, search_key_tsv(o.key, o.doc_tsv))::search_doc FROM old_rows o);
    ELSE
      removed := ARRAY(SELECT ROW(o.project_id, o.key, o.key, search_key_tsv(o.key, o.doc_tsv))::search_doc FROM old_rows o WHERE NOT EXISTS (
        SELECT 1 FROM new_rows n WHERE n.project_id = o.project_id AND n.key = o.key AND n.doc_tsv = o.doc_tsv));
      added := ARRAY(SELECT ROW(n.project_id, n.key, n.key, search_key_tsv(n.key, n.doc_tsv))::search_doc FROM new_rows n WHERE NOT EXISTS (
        SELECT 1 FROM old_rows o WHERE n.project_id = o.project_id AND n.key = o.key AND n.doc_tsv = o.doc_tsv));
    END IF;
  -- A query names only its own table's columns (PL/pgSQL plans it per table): the key is the
  -- Skill's name, the sheet's topic_id.
  ELSIF k = 's' THEN
    IF TG_OP = 'INSERT' THEN
      added := ARRAY(SELECT ROW(n.project_id, n.id, n.name, n.doc_tsv)::search_doc FROM new_rows n WHERE n.deleted_at IS NULL);
    ELSIF TG_OP = 'DELETE' THEN
      removed := ARRAY(SELECT ROW(o.project_id, o.id, o.name, o.doc_tsv)::search_doc FROM old_rows o WHERE o.deleted_at IS NULL);
    ELSE
      removed := ARRAY(SELECT ROW(o.project_id, o.id, o.name, o.doc_tsv)::search_doc FROM old_rows o WHERE o.deleted_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.deleted_at IS NULL AND n.doc_tsv = o.doc_tsv));
      added := ARRAY(SELECT ROW(n.project_id, n.id, n.name, n.doc_tsv)::search_doc FROM new_rows n WHERE n.deleted_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM old_rows o WHERE n.id = o.id AND o.deleted_at IS NULL AND n.doc_tsv = o.doc_tsv));
    END IF;
  ELSE
    IF TG_OP = 'INSERT' THEN
      added := ARRAY(SELECT ROW(n.project_id, n.id, n.topic_id, n.doc_tsv)::search_doc FROM new_rows n WHERE n.deleted_at IS NULL);
    ELSIF TG_OP = 'DELETE' THEN
      removed := ARRAY(SELECT ROW(o.project_id, o.id, o.topic_id, o.doc_tsv)::search_doc FROM old_rows o WHERE o.deleted_at IS NULL);
    ELSE
      removed := ARRAY(SELECT ROW(o.project_id, o.id, o.topic_id, o.doc_tsv)::search_doc FROM old_rows o WHERE o.deleted_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.deleted_at IS NULL AND n.doc_tsv = o.doc_tsv));
      added := ARRAY(SELECT ROW(n.project_id, n.id, n.topic_id, n.doc_tsv)::search_doc FROM new_rows n WHERE n.deleted_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM old_rows o WHERE n.id = o.id AND o.deleted_at IS NULL AND n.doc_tsv = o.doc_tsv));
    END IF;
  END IF;
  PERFORM search_index_apply(k, removed, added);
  RETURN NULL;
END
$$;

-- At commit, once per project noted in search_pending_projects: adds the transaction's deltas.
CREATE OR REPLACE FUNCTION search_stats_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_stats_fold_project(NEW.project_id);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION search_stats_fold_project(p text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  gone text[];
BEGIN
  WITH d AS (
    SELECT t.term, sum(t.delta)::integer AS delta FROM search_pending_terms t WHERE t.project_id = p
     GROUP BY t.term HAVING sum(t.delta) <> 0 ORDER BY t.term
  ),
  up AS (
    INSERT INTO search_terms AS s (project_id, term, df) SELECT p, d.term, d.delta FROM d ORDER BY d.term
    ON CONFLICT (project_id, term) DO UPDATE SET df = s.df + excluded.df
    RETURNING s.term, s.df
  )
  SELECT array_agg(up.term) INTO gone FROM up WHERE up.df <= 0;
  -- A statement of its own: a data-modifying CTE's rows are invisible to the rest of its statement.
  IF gone IS NOT NULL THEN
    DELETE FROM search_terms s WHERE s.project_id = p AND s.term = ANY(gone) AND s.df <= 0;
  END IF;
  INSERT INTO search_fields AS s (project_id, kind, docs, len1, len2, len3)
  SELECT p, f.kind, sum(f.docs), sum(f.len1), sum(f.len2), sum(f.len3) FROM search_pending_fields f
   WHERE f.project_id = p GROUP BY f.kind ORDER BY f.kind
  ON CONFLICT (project_id, kind) DO UPDATE
    SET docs = s.docs + excluded.docs, len1 = s.len1 + excluded.len1, len2 = s.len2 + excluded.len2, len3 = s.len3 + excluded.len3;
  DELETE FROM search_pending_terms WHERE project_id = p;
  DELETE FROM search_pending_fields WHERE project_id = p;
END
$$;

-- The whole index of one project again from its live rows: postings with impacts from the final
-- averages, exact statistics. Takes the project's version row lock first (as a commit's fold
-- does), which also retires every cached search answer of the project.
CREATE OR REPLACE FUNCTION search_index_rebuild(p text) RETURNS TABLE (documents bigint, postings bigint, terms bigint)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO context_versions AS v (project_id, version) VALUES (p, 1)
  ON CONFLICT (project_id) DO UPDATE SET version = v.version + 1;
  DELETE FROM search_postings WHERE project_id = p;
  DELETE FROM search_terms WHERE project_id = p;
  DELETE FROM search_fields WHERE project_id = p;
  CREATE TEMP TABLE search_rebuild_lex ON COMMIT DROP AS
  SELECT x.kind, x.doc_id, x.doc_key, u.lexeme AS term,
         coalesce(cardinality(array_positions(u.weights, 'A')), 0) AS tf1,
         coalesce(cardinality(array_positions(u.weights, 'B')), 0) AS tf2,
         coalesce(cardinality(array_positions(u.weights, 'C')), 0) + coalesce(cardinality(array_positions(u.weights, 'D')), 0) AS tf3
    FROM (SELECT 's'::"char" AS kind, s.id AS doc_id, s.name AS doc_key, s.doc_tsv FROM skills s WHERE s.project_id = p AND s.deleted_at IS NULL
          UNION ALL SELECT 'k', k.id, k.topic_id, k.doc_tsv FROM knowledge k WHERE k.project_id = p AND k.deleted_at IS NULL
          UNION ALL SELECT 'b', b.key, b.key, search_key_tsv(b.key, b.doc_tsv) FROM business_keys b WHERE b.project_id = p) x
    CROSS JOIN LATERAL unnest(x.doc_tsv) u;
  CREATE TEMP TABLE search_rebuild_docs ON COMMIT DROP AS
  SELECT l.kind, l.doc_id, sum(l.tf1) AS len1, sum(l.tf2) AS len2, sum(l.tf3) AS len3 FROM search_rebuild_lex l GROUP BY 1, 2;
  INSERT INTO search_fields (project_id, kind, docs, len1, len2, len3)
  SELECT p, d.kind, count(*), sum(d.len1), sum(d.len2), sum(d.len3) FROM search_rebuild_docs d GROUP BY d.kind;
  INSERT INTO search_postings (project_id, term, kind, doc_id, doc_key, tf1, tf2, tf3, len1, len2, len3, impact)
  SELECT p, l.term, l.kind, l.doc_id, l.doc_key, l.tf1, l.tf2, l.tf3, d.len1, d.len2, d.len3,
         search_impact(l.tf1, l.tf2, l.tf3, d.len1, d.len2, d.len3)
    FROM search_rebuild_lex l
    JOIN search_rebuild_docs d ON d.kind = l.kind AND d.doc_id = l.doc_id;
  INSERT INTO search_terms (project_id, term, df) SELECT p, l.term, count(*) FROM search_rebuild_lex l GROUP BY l.term;
  RETURN QUERY SELECT (SELECT count(*) FROM search_rebuild_docs), (SELECT count(*) FROM search_rebuild_lex),
                      (SELECT count(*) FROM search_terms t WHERE t.project_id = p);
  DROP TABLE search_rebuild_lex;
  DROP TABLE search_rebuild_docs;
END
$$;

DROP TRIGGER IF EXISTS skills_search_insert ON skills;
CREATE TRIGGER skills_search_insert AFTER INSERT ON skills REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS skills_search_update ON skills;
CREATE TRIGGER skills_search_update AFTER UPDATE ON skills REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS skills_search_delete ON skills;
CREATE TRIGGER skills_search_delete AFTER DELETE ON skills REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS skills_search_stats ON skills;

DROP TRIGGER IF EXISTS knowledge_search_insert ON knowledge;
CREATE TRIGGER knowledge_search_insert AFTER INSERT ON knowledge REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS knowledge_search_update ON knowledge;
CREATE TRIGGER knowledge_search_update AFTER UPDATE ON knowledge REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS knowledge_search_delete ON knowledge;
CREATE TRIGGER knowledge_search_delete AFTER DELETE ON knowledge REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS knowledge_search_stats ON knowledge;

DROP TRIGGER IF EXISTS business_keys_search_insert ON business_keys;
CREATE TRIGGER business_keys_search_insert AFTER INSERT ON business_keys REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS business_keys_search_update ON business_keys;
CREATE TRIGGER business_keys_search_update AFTER UPDATE ON business_keys REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS business_keys_search_delete ON business_keys;
CREATE TRIGGER business_keys_search_delete AFTER DELETE ON business_keys REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_index_sync();
DROP TRIGGER IF EXISTS business_keys_search_stats ON business_keys;

-- Hubs that predate the index (or a project the index has never seen) get theirs now.
SELECT search_index_rebuild(p.id) FROM projects p
 WHERE NOT EXISTS (SELECT 1 FROM search_fields f WHERE f.project_id = p.id)
   AND (EXISTS (SELECT 1 FROM knowledge k WHERE k.project_id = p.id) OR EXISTS (SELECT 1 FROM skills s WHERE s.project_id = p.id)
        OR EXISTS (SELECT 1 FROM business_keys b WHERE b.project_id = p.id));
