-- Organization governance (issue 4): members and their per-project grants, the audit log of every
-- write. Entitlement limits live in org_settings.limits (0001); absent keys mean the defaults.

CREATE TABLE org_members (
  subject text PRIMARY KEY CHECK (length(subject) BETWEEN 1 AND 255),
  email text,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin', 'owner')),
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- A grant names a project that may not exist yet (a token's projects claim can, too); grants are
-- removed with the member.
CREATE TABLE org_member_grants (
  subject text NOT NULL REFERENCES org_members(subject) ON DELETE CASCADE,
  project_id text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (subject, project_id)
);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  actor_subject text NOT NULL,
  actor_kind text NOT NULL,
  request_id text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  project_id text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_action ON audit_log (action, id DESC);
CREATE INDEX audit_log_actor ON audit_log (actor_subject, id DESC);
