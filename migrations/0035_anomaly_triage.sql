-- Issue 30, item 5: what people said about a fired anomaly. Keyed by the anomaly's stable id
-- (anomaly_episodes.id), in a table of its own: a re-evaluation rebuilds the episodes, and the
-- triage must outlive that (the same days give the same id, so the row finds its anomaly again).
-- No foreign key for the same reason: an episode is deleted and re-inserted by each evaluation.
CREATE TABLE anomaly_triage (
  anomaly_id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('open', 'acknowledged', 'resolved', 'expected', 'false_positive')),
  note text,
  assignee text,
  context_event_id text,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
-- GET /api/anomalies?status= and the baseline seam (expected / false_positive days of a project).
CREATE INDEX anomaly_triage_project_status ON anomaly_triage (project_id, status);
