-- The search index's postings carry the key a user sees (Skill name, topic_id, business key), so
-- that wherever context_search cuts its candidates (a stem's postings by impact, the candidates
-- scored exactly, the graph's seeds) equal scores are cut by kind and key: internal ids are random
-- per store and per import, and a cut by them gave the same hub different answers on two stores.
-- Keys never change once written and are unique per kind within a project.
ALTER TABLE search_postings ADD COLUMN doc_key text COLLATE "C";
UPDATE search_postings sp SET doc_key = s.name FROM skills s WHERE sp.kind = 's' AND s.id = sp.doc_id;
UPDATE search_postings sp SET doc_key = k.topic_id FROM knowledge k WHERE sp.kind = 'k' AND k.id = sp.doc_id;
UPDATE search_postings SET doc_key = doc_id WHERE kind = 'b';
-- A posting whose document is gone was drift already (search-reindex repairs the project).
DELETE FROM search_postings WHERE doc_key IS NULL;
ALTER TABLE search_postings ALTER COLUMN doc_key SET NOT NULL;

-- Byte order for the postings' text columns: an import writes ~50 postings per sheet into two
-- b-trees, and a database collation other than "C" compares every key through the C library's
-- collation (BENCHMARKS.md, search notes). Nothing sorts these for a reader.
ALTER TABLE search_postings
  ALTER COLUMN project_id TYPE text COLLATE "C",
  ALTER COLUMN term TYPE text COLLATE "C",
  ALTER COLUMN doc_id TYPE text COLLATE "C";

-- A stem's postings in the order the candidate query cuts them, so that the cut is an index range.
DROP INDEX search_postings_by_impact;
CREATE INDEX search_postings_by_impact ON search_postings (project_id, lower(term), impact DESC, kind, doc_key);

-- Full-text and trigram indexes of the tiered search that the postings replaced (migrations 0002,
-- 0007, 0050): nothing reads them any more, and they were most of what writing a sheet cost.
DROP INDEX IF EXISTS knowledge_doc_tsv;
DROP INDEX IF EXISTS knowledge_title_tsv;
DROP INDEX IF EXISTS skills_doc_tsv;
DROP INDEX IF EXISTS skills_title_tsv;
DROP INDEX IF EXISTS skills_title_trgm;
DROP INDEX IF EXISTS business_keys_doc_tsv;
DROP INDEX IF EXISTS business_keys_title_tsv;
DROP INDEX IF EXISTS business_keys_title_trgm;
