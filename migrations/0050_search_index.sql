-- The relevance index behind search_context (docs/api.md, "How a search is ranked"): one posting per
-- document and stem with its term frequency per field and the document's field lengths, the
-- document frequency of every stem and the length totals per kind and field. The functions that
-- keep them true under every write are in migrations/functions/search_index.sql; the ranking that
-- reads them is migrations/functions/context_search.sql.
--
-- Knowledge headings become a field of their own (weight B); the body (weight C) keeps the other
-- lines. Rewrites every knowledge row once.
ALTER TABLE knowledge DROP COLUMN doc_tsv;
ALTER TABLE knowledge ADD COLUMN doc_tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, title), 'A') ||
  setweight(to_tsvector('english'::regconfig, regexp_replace(left(body_md, 200000), '^(?!#{1,6}[ \t]).*$', '', 'gn')), 'B') ||
  setweight(to_tsvector('english'::regconfig, regexp_replace(left(body_md, 200000), '^#{1,6}[ \t].*$', '', 'gn')), 'C')
) STORED;
CREATE INDEX knowledge_doc_tsv ON knowledge USING gin (doc_tsv) WITH (fastupdate = off);

-- kind: 's' Skill (fields: name, description, body and steps), 'k' Knowledge (title, headings,
-- body), 'b' business key (label with key segments and synonyms, description, -). doc_id is
-- skills.id, knowledge.id or business_keys.key. impact orders a stem's postings for candidate
-- generation (the field-weighted, saturated term frequency with fixed reference lengths:
-- search_impact); the score itself is computed from tf/len with the current averages.
CREATE TABLE search_postings (
  project_id text NOT NULL,
  term text NOT NULL,
  kind "char" NOT NULL,
  doc_id text NOT NULL,
  tf1 smallint NOT NULL,
  tf2 smallint NOT NULL,
  tf3 smallint NOT NULL,
  len1 integer NOT NULL,
  len2 integer NOT NULL,
  len3 integer NOT NULL,
  impact real NOT NULL,
  PRIMARY KEY (project_id, kind, doc_id, term)
);
-- On lower(term) (stems are lower case already), so that only the candidate query, which asks for
-- lower(term), can use it: without statistics (PGlite is never analyzed) the planner otherwise
-- took it for the primary-key probes of the exact scoring too, scanning a common stem per probe.
CREATE INDEX search_postings_by_impact ON search_postings (project_id, lower(term), impact DESC);

-- Document frequency per stem over every kind of a project (a stem leaves when no document holds it).
CREATE TABLE search_terms (
  project_id text NOT NULL,
  term text NOT NULL,
  df integer NOT NULL,
  PRIMARY KEY (project_id, term)
);
-- Typo tolerance looks unknown words up in the vocabulary.
CREATE INDEX search_terms_trgm ON search_terms USING gin (term gin_trgm_ops) WITH (fastupdate = off);

-- Indexed documents and the sum of their field lengths, per kind.
CREATE TABLE search_fields (
  project_id text NOT NULL,
  kind "char" NOT NULL,
  docs bigint NOT NULL,
  len1 bigint NOT NULL,
  len2 bigint NOT NULL,
  len3 bigint NOT NULL,
  PRIMARY KEY (project_id, kind)
);

-- Graph expansion takes the first 25 objects a key explains in (source_type, source_id) order, so
-- that the same 25 come every time: this index hands them over in that order instead of sorting
-- every link of a key with thousands (it also serves what business_links_key served).
CREATE INDEX business_links_key_source ON business_links (project_id, business_key, source_type, source_id);
DROP INDEX business_links_key;
