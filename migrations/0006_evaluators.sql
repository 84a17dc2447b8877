-- Evaluators: anomaly surveillance, daily insights, data quality ledger, facts, scheduler firings.

-- Per-project anomaly settings; NULL/absent keys fall back to the defaults in code.
CREATE TABLE anomaly_settings (
  project_id text PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);

-- One row per (project, date, metric, channel) evaluated; channel '_total' is the project total.
-- Double precision: the window pass runs on float8 (numeric window aggregates are much slower).
CREATE TABLE anomalies_daily (
  project_id text NOT NULL,
  date date NOT NULL,
  metric text NOT NULL,
  channel text NOT NULL,
  value double precision NOT NULL,
  baseline_mean double precision,
  baseline_stddev double precision,
  training_size integer NOT NULL,
  window_from date NOT NULL,
  window_to date NOT NULL,
  seasonality text NOT NULL,
  z double precision,
  relative_change double precision,
  threshold double precision NOT NULL,
  min_relative_change double precision NOT NULL,
  watch text NOT NULL,
  direction text,
  fired boolean NOT NULL,
  -- The window pass's output order (series, then day): inserts append to the index. Deleting a
  -- project's dates scans that project's entries (date is checked in the index); no second index
  -- to maintain on every write.
  PRIMARY KEY (project_id, channel, metric, date)
);
CREATE INDEX anomalies_daily_fired ON anomalies_daily (project_id, date) WHERE fired;

-- Which run's dates have been evaluated downstream (a transactional outbox written by the
-- anomalies model inside the ingestion transaction; the after-run job settles it once).
CREATE TABLE evaluator_outbox (
  run_id text PRIMARY KEY,
  project_id text NOT NULL,
  datastream_id text NOT NULL,
  date_from date NOT NULL,
  date_to date NOT NULL,
  anomalies_fired integer NOT NULL,
  created_at timestamptz NOT NULL,
  processed_at timestamptz
);
CREATE INDEX evaluator_outbox_pending ON evaluator_outbox (created_at) WHERE processed_at IS NULL;

CREATE TABLE insights_daily (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  date date NOT NULL,
  version integer NOT NULL,
  inputs_hash text NOT NULL,
  record jsonb NOT NULL,
  narrative_md text NOT NULL,
  composed_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, date)
);

CREATE TABLE dq_checks (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  project_id text NOT NULL,
  monitor text NOT NULL,
  datastream_id text,
  dataset text NOT NULL,
  status text NOT NULL CHECK (status IN ('pass', 'warn', 'fail', 'error')),
  observed double precision,
  threshold double precision,
  run_id text,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  message text NOT NULL
);
CREATE INDEX dq_checks_project ON dq_checks (project_id, seq DESC);

-- Every fact an evaluator published (append-only; the README documents the payloads).
CREATE TABLE facts (
  seq bigserial PRIMARY KEY,
  type text NOT NULL,
  project_id text NOT NULL,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX facts_project ON facts (project_id, seq DESC);

-- One row per scheduled occurrence: the primary key is what makes a due slot fire exactly once,
-- however many processes tick at the same moment.
CREATE TABLE schedule_firings (
  target text NOT NULL,
  due_at timestamptz NOT NULL,
  fired_at timestamptz NOT NULL,
  run_id text,
  PRIMARY KEY (target, due_at)
);
