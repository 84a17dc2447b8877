-- Foundation: organization defaults, projects, and the MCP session state that lets any replica
-- serve a 2025-era session and lets a client resume its GET stream after a restart.

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE TABLE org_settings (
  id text PRIMARY KEY DEFAULT 'org' CHECK (id = 'org'),
  name text NOT NULL DEFAULT 'My organization',
  default_reporting_currency char(3) NOT NULL DEFAULT 'USD',
  default_timezone text NOT NULL DEFAULT 'UTC',
  limits jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO org_settings (id) VALUES ('org');

CREATE TABLE projects (
  id text PRIMARY KEY CHECK (id ~ '^proj_[a-z0-9][a-z0-9_-]{0,62}$'),
  name text NOT NULL,
  reporting_currency char(3) NOT NULL,
  timezone text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE mcp_sessions (
  id text PRIMARY KEY,
  protocol_version text NOT NULL,
  initialize_params jsonb NOT NULL,
  subject text,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);

CREATE TABLE mcp_session_subscriptions (
  session_id text NOT NULL REFERENCES mcp_sessions(id) ON DELETE CASCADE,
  uri text NOT NULL,
  PRIMARY KEY (session_id, uri)
);

-- Only events of the session's standalone GET stream are kept (DESIGN §6); POST responses are not.
CREATE TABLE mcp_stream_events (
  seq bigserial PRIMARY KEY,
  session_id text NOT NULL REFERENCES mcp_sessions(id) ON DELETE CASCADE,
  stream_id text NOT NULL,
  message jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_stream_events_session ON mcp_stream_events (session_id, seq);
