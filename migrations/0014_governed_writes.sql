-- Issue 24: governed writes. A project decides how agents' writes land (agent_writes), writes that
-- need review wait as proposals, and every Skill and Knowledge version records who wrote it and how.

ALTER TABLE projects ADD COLUMN agent_writes text NOT NULL DEFAULT 'publish'
  CHECK (agent_writes IN ('publish', 'review', 'off'));

-- Authorship. Versions written before this migration keep via NULL: how they were written is unknown.
ALTER TABLE skill_versions ADD COLUMN via text CHECK (via IN ('mcp', 'rest', 'console', 'import'));
ALTER TABLE skill_versions ADD COLUMN client_name text;
ALTER TABLE skill_versions ADD COLUMN client_version text;
ALTER TABLE skill_versions ADD COLUMN request_id text;
ALTER TABLE skill_versions ADD COLUMN proposal_id text;
ALTER TABLE knowledge_versions ADD COLUMN via text CHECK (via IN ('mcp', 'rest', 'console', 'import'));
ALTER TABLE knowledge_versions ADD COLUMN client_name text;
ALTER TABLE knowledge_versions ADD COLUMN client_version text;
ALTER TABLE knowledge_versions ADD COLUMN request_id text;
ALTER TABLE knowledge_versions ADD COLUMN proposal_id text;

CREATE TABLE proposals (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('skill', 'knowledge')),
  -- The Skill's name or the Knowledge sheet's topic_id.
  object_key text NOT NULL,
  -- The version the author saw; NULL when the object did not exist (or was deleted).
  base_version integer,
  fields jsonb NOT NULL,
  author_subject text NOT NULL,
  author_via text NOT NULL CHECK (author_via IN ('mcp', 'rest', 'console', 'import')),
  author_client_name text,
  author_client_version text,
  request_id text,
  created_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'rejected', 'superseded', 'withdrawn')),
  decided_by text,
  decided_at timestamptz,
  comment text,
  published_version integer,
  superseded_by text
);
CREATE INDEX proposals_by_project ON proposals (project_id, created_at DESC, id DESC);
-- One pending proposal per author and object: a newer one supersedes it.
CREATE UNIQUE INDEX proposals_one_pending ON proposals (project_id, kind, object_key, author_subject)
  WHERE status = 'pending';
