-- context_version_bump and its triggers: a content version per project for what search_context
-- reads (Skills, Knowledge, business keys, business links), so the search caches
-- (src/modules/search/search.versions.ts reads it, src/platform/cache/versioned-cache.ts keeps the
-- entries) can prove an entry still exact. Re-runnable: the migration runner applies this file
-- after the numbered migrations whenever its text changes (DEVELOPING.md, "Migrations"). First
-- created by migration 0009 (which also made the context_versions table); this file is the current
-- definition. A table that context_search reads gets its trigger here.
--
-- The bump is a deferred constraint trigger: it runs at commit, once per project and transaction
-- (later rows see the transaction-local marker and skip). Taking the version row's lock at commit,
-- not at the first write, means it is held for an instant and never while the transaction waits
-- for another lock, so it cannot join a deadlock. Every writer is covered, whatever its path (the
-- services, a demo seed, an import, plain SQL by an operator).

CREATE OR REPLACE FUNCTION context_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p text := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
  marker text := coalesce(current_setting('context_hub.versions_bumped', true), '');
BEGIN
  -- The marker is a list of '|'-delimited project ids (ids never contain '|').
  IF position('|' || p || '|' IN marker) > 0 THEN
    RETURN NULL;
  END IF;
  INSERT INTO context_versions AS v (project_id, version) VALUES (p, 1)
  ON CONFLICT (project_id) DO UPDATE SET version = v.version + 1;
  PERFORM set_config('context_hub.versions_bumped', CASE WHEN marker = '' THEN '|' ELSE marker END || p || '|', true);
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS skills_context_version ON skills;
CREATE CONSTRAINT TRIGGER skills_context_version AFTER INSERT OR UPDATE OR DELETE ON skills
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION context_version_bump();

DROP TRIGGER IF EXISTS knowledge_context_version ON knowledge;
CREATE CONSTRAINT TRIGGER knowledge_context_version AFTER INSERT OR UPDATE OR DELETE ON knowledge
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION context_version_bump();

DROP TRIGGER IF EXISTS business_keys_context_version ON business_keys;
CREATE CONSTRAINT TRIGGER business_keys_context_version AFTER INSERT OR UPDATE OR DELETE ON business_keys
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION context_version_bump();

DROP TRIGGER IF EXISTS business_links_context_version ON business_links;
CREATE CONSTRAINT TRIGGER business_links_context_version AFTER INSERT OR UPDATE OR DELETE ON business_links
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION context_version_bump();
