-- Context hub: Skills and Knowledge (a head row per object plus immutable versions), the business
-- taxonomy and business links. Head rows carry the current version's searchable text so search is
-- one indexed query over three tables; versions are never updated or deleted.

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
  title_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, replace(name, '-', ' '))) STORED,
  doc_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, replace(name, '-', ' ')), 'A') ||
    setweight(to_tsvector('english'::regconfig, description), 'B') ||
    setweight(to_tsvector('english'::regconfig, left(body_md, 200000)), 'D')
  ) STORED,
  UNIQUE (project_id, name)
);
CREATE INDEX skills_doc_tsv ON skills USING gin (doc_tsv);
CREATE INDEX skills_title_trgm ON skills USING gin (title_text gin_trgm_ops);
CREATE INDEX skills_refs ON skills USING gin (mdm_references);

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
  title_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title)) STORED,
  doc_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title), 'A') ||
    setweight(to_tsvector('english'::regconfig, left(body_md, 200000)), 'C')
  ) STORED,
  UNIQUE (project_id, topic_id)
);
CREATE INDEX knowledge_doc_tsv ON knowledge USING gin (doc_tsv);
CREATE INDEX knowledge_title_trgm ON knowledge USING gin (title gin_trgm_ops);

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
  title_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title_text)) STORED,
  doc_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, title_text), 'A') ||
    setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B')
  ) STORED,
  PRIMARY KEY (project_id, key),
  FOREIGN KEY (project_id, parent_key) REFERENCES business_keys(project_id, key)
);
CREATE INDEX business_keys_doc_tsv ON business_keys USING gin (doc_tsv);
CREATE INDEX business_keys_title_trgm ON business_keys USING gin (title_text gin_trgm_ops);
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
CREATE INDEX business_links_key ON business_links (project_id, business_key);
CREATE INDEX business_links_source ON business_links (source_id);
