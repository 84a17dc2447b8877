-- Context hub: Skills and Knowledge (a head row per object plus immutable versions), the business
-- taxonomy and business links. Head rows carry the current version's searchable text so search is
-- one indexed query over three tables; versions are never updated or deleted.
-- GIN indexes are built with fastupdate = off: with the pending list on, every search scans the
-- not-yet-merged entries linearly until a vacuum merges them (PGlite has no autovacuum), which
-- made searches after a bulk load 20–50× slower. Reads far outnumber writes here.

CREATE TABLE skills (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(name) <= 64),
  version integer NOT NULL,
  description text NOT NULL,
  body_md text NOT NULL,
  mdm_references text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  -- What the title tier matches: the name with its hyphens as spaces.
  title_text text GENERATED ALWAYS AS (replace(name, '-', ' ')) STORED,
  doc_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, replace(name, '-', ' ')), 'A') ||
    setweight(to_tsvector('english'::regconfig, description), 'B') ||
    setweight(to_tsvector('english'::regconfig, left(body_md, 200000)), 'D')
  ) STORED,
  UNIQUE (project_id, name)
);
CREATE INDEX skills_doc_tsv ON skills USING gin (doc_tsv) WITH (fastupdate = off);
CREATE INDEX skills_title_trgm ON skills USING gin (title_text gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX skills_refs ON skills USING gin (mdm_references) WITH (fastupdate = off);

CREATE TABLE skill_versions (
  skill_id text NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
  version integer NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  body_md text NOT NULL,
  steps jsonb NOT NULL,
  mdm_references text[] NOT NULL,
  acceptance jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Other top-level SKILL.md front-matter keys (license, allowed-tools …), kept as given.
  frontmatter_extra jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The front matter exactly as imported, so an imported file exports byte for byte.
  frontmatter_raw text,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  PRIMARY KEY (skill_id, version)
);

CREATE TABLE knowledge (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  topic_id text NOT NULL CHECK (topic_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(topic_id) <= 96),
  version_number integer NOT NULL,
  title text NOT NULL,
  body_md text NOT NULL,
  owner text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  doc_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, left(body_md, 200000)), 'C')
  ) STORED,
  UNIQUE (project_id, topic_id)
);
CREATE INDEX knowledge_doc_tsv ON knowledge USING gin (doc_tsv) WITH (fastupdate = off);

CREATE TABLE knowledge_versions (
  knowledge_id text NOT NULL REFERENCES knowledge(id) ON DELETE CASCADE,
  version_number integer NOT NULL,
  topic_id text NOT NULL,
  title text NOT NULL,
  body_md text NOT NULL,
  owner text,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  PRIMARY KEY (knowledge_id, version_number)
);

CREATE TABLE business_keys (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$' AND length(key) <= 128),
  label text NOT NULL,
  description text,
  parent_key text,
  synonyms text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Label, the key's segments and the synonyms: what the title tier (and typo matching) sees.
  title_text text NOT NULL,
  doc_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title_text), 'A') ||
    setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B')
  ) STORED,
  PRIMARY KEY (project_id, key),
  FOREIGN KEY (project_id, parent_key) REFERENCES business_keys(project_id, key)
);
CREATE INDEX business_keys_doc_tsv ON business_keys USING gin (doc_tsv) WITH (fastupdate = off);
CREATE INDEX business_keys_title_trgm ON business_keys USING gin (title_text gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX business_keys_parent ON business_keys (project_id, parent_key);

CREATE TABLE business_links (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  relation_type text NOT NULL CHECK (relation_type IN ('explains', 'uses', 'related_to')),
  source_type text NOT NULL CHECK (source_type IN ('knowledge', 'skill')),
  source_id text NOT NULL,
  business_key text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  FOREIGN KEY (project_id, business_key) REFERENCES business_keys(project_id, key) ON DELETE CASCADE,
  UNIQUE (project_id, source_type, source_id, business_key, relation_type)
);
CREATE INDEX business_links_key ON business_links (project_id, business_key, source_type);
CREATE INDEX business_links_source ON business_links (source_id);

-- Tiered search (src/modules/search/search.repo.ts explains the tiers). A plpgsql function so
-- each connection plans the statement once and reuses it: planning this query costs more than
-- running it on a warm index. Bounds keep a very common word cheap: at most p_cap candidates per
-- kind and per way of matching, graph expansion from the best p_seeds keys and objects, at most
-- 25 neighbours per key; `capped` says a bound was hit (the total is then a lower bound).
-- p_raw (trigram typo matching) is '' when the caller turns it off (queries of several words,
-- see TYPO_MAX_WORDS): their words find matches by full text, and a longer string's trigrams
-- hit most names only to fail the similarity recheck row by row.
-- Typos are matched on key labels/synonyms and Skill names, not on Knowledge titles: on 100,000
-- titles a common trigram ('market') costs a recheck of every row; the sheets a typo means are
-- still found as graph neighbours of the key it matched.
CREATE FUNCTION context_search(p_project text, p_words text, p_raw text, p_title_words text, p_limit integer, p_cap integer, p_seeds integer)
RETURNS TABLE (kind text, id text, key text, title text, tier integer, score float8,
               total bigint, n_title bigint, n_description bigint, n_graph bigint, capped boolean, text text)
LANGUAGE plpgsql STABLE
-- Every candidate query has a GIN index and must use it: with LIMIT the planner otherwise walks a
-- b-tree or the table and tests each row (word similarity, a detoasted tsvector), because it
-- misjudges how many rows a weighted or trigram condition matches (50–300 ms instead of ~1 ms).
SET enable_seqscan = off
SET enable_indexscan = off
-- A word in most of 100,000 sheets would build a bitmap of all of them (40–60 ms) only to rank
-- p_cap; GIN returns a bounded sample of such huge sets instead (rare words are unaffected).
SET gin_fuzzy_search_limit = 1000
AS $fn$
#variable_conflict use_column
DECLARE
  q tsquery := to_tsquery('english', p_words);
  qa tsquery := to_tsquery('english', p_title_words);
BEGIN
  RETURN QUERY
  WITH cand AS (
    (SELECT 'skill'::text AS kind, s.id, 1 AS tier, 'a' AS src FROM skills s
      WHERE s.project_id = p_project AND s.deleted_at IS NULL AND s.doc_tsv @@ qa LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'skill', s.id, 1, 't' FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL AND p_raw <> '' AND p_raw <% s.title_text LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'skill', s.id, 2, 'd' FROM skills s WHERE s.project_id = p_project AND s.deleted_at IS NULL AND s.doc_tsv @@ q LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'knowledge', k.id, 1, 'a' FROM knowledge k WHERE k.project_id = p_project AND k.deleted_at IS NULL AND k.doc_tsv @@ qa LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'knowledge', k.id, 2, 'd' FROM knowledge k WHERE k.project_id = p_project AND k.deleted_at IS NULL AND k.doc_tsv @@ q LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'business_key', b.key, 1, 'a' FROM business_keys b WHERE b.project_id = p_project AND b.doc_tsv @@ qa LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'business_key', b.key, 1, 't' FROM business_keys b WHERE b.project_id = p_project AND p_raw <> '' AND p_raw <% b.title_text LIMIT p_cap + 1)
    UNION ALL
    (SELECT 'business_key', b.key, 2, 'd' FROM business_keys b WHERE b.project_id = p_project AND b.doc_tsv @@ q LIMIT p_cap + 1)
  ),
  bounded AS (SELECT coalesce(bool_or(x.n > p_cap), false) AS capped FROM (SELECT count(*) AS n FROM cand c GROUP BY c.kind, c.src) x),
  -- An object found both by full text and by trigram keeps the full-text match ('a' < 't').
  first_tier AS (SELECT DISTINCT ON (c.kind, c.id) c.kind, c.id, c.tier, c.src FROM cand c ORDER BY c.kind, c.id, c.tier, c.src),
  direct AS (
    SELECT c.kind, c.id, s.name AS key, s.name AS title, c.tier,
           (ts_rank(s.doc_tsv, q) + CASE WHEN c.src = 't' THEN word_similarity(p_raw, s.title_text) ELSE 0 END)::float8 AS score
      FROM first_tier c JOIN skills s ON c.kind = 'skill' AND s.id = c.id
    UNION ALL
    SELECT c.kind, c.id, k.topic_id, k.title, c.tier,
           ts_rank(k.doc_tsv, q)::float8
      FROM first_tier c JOIN knowledge k ON c.kind = 'knowledge' AND k.id = c.id
    UNION ALL
    SELECT c.kind, c.id, b.key, b.label, c.tier,
           (ts_rank(b.doc_tsv, q) + CASE WHEN c.src = 't' THEN word_similarity(p_raw, b.title_text) ELSE 0 END)::float8
      FROM first_tier c JOIN business_keys b ON c.kind = 'business_key' AND b.project_id = p_project AND b.key = c.id
  ),
  hit_keys AS (SELECT d.key, d.score FROM direct d WHERE d.kind = 'business_key' ORDER BY d.tier, d.score DESC LIMIT p_seeds),
  hit_objs AS (SELECT d.kind, d.id, d.score FROM direct d WHERE d.kind <> 'business_key' ORDER BY d.tier, d.score DESC LIMIT p_seeds),
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
  SELECT r.kind, r.id, r.key, r.title, r.tier, r.score, r.total, r.n_title, r.n_description, r.n_graph,
         (SELECT capped FROM bounded),
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
