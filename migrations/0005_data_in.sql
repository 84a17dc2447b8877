-- Data in: jobs-platform heartbeats, connections (encrypted secrets), datastreams, report
-- definitions, runs, raw landing and the transformation models' datasets.

-- Which processes work which queues (the jobs platform's heartbeat), so a run nobody can pick up
-- says so instead of waiting silently.
CREATE TABLE job_workers (
  process_id text PRIMARY KEY,
  queues text[] NOT NULL,
  started_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);

CREATE TABLE connections (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  connection_ref_id text NOT NULL CHECK (connection_ref_id ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$'),
  provider text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'error', 'expired', 'revoked')),
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- AES-256-GCM: iv (12) || tag (16) || ciphertext, of the JSON secrets object.
  secrets_ciphertext bytea,
  secrets_rotated_at timestamptz,
  last_verified_at timestamptz,
  last_verification jsonb,
  last_error text,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, connection_ref_id)
);

CREATE TABLE datastreams (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  connection_ref_id text NOT NULL,
  provider text NOT NULL,
  cadence text,
  lookback_days integer NOT NULL,
  start_date date,
  timezone text NOT NULL,
  next_run_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (project_id, name),
  FOREIGN KEY (project_id, connection_ref_id) REFERENCES connections(project_id, connection_ref_id)
);

CREATE TABLE report_definitions (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  definition jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (project_id, name)
);

CREATE TABLE datastream_runs (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  datastream_id text NOT NULL REFERENCES datastreams(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  trigger text NOT NULL,
  window_from date NOT NULL,
  window_to date NOT NULL,
  rows_read bigint NOT NULL DEFAULT 0,
  rows_written bigint NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  retries_exhausted boolean NOT NULL DEFAULT false,
  waiting_reason text,
  error text,
  queued_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX datastream_runs_project ON datastream_runs (project_id, queued_at DESC, id DESC);
-- Two runs of one datastream never overlap: at most one is running.
CREATE UNIQUE INDEX datastream_runs_one_running ON datastream_runs (datastream_id) WHERE status = 'running';

-- Raw landing: the canonical records of a datastream's latest run, as the provider mapped them.
CREATE UNLOGGED TABLE raw_ad_records (
  run_id text NOT NULL,
  datastream_id text NOT NULL,
  date date NOT NULL,
  campaign_id text NOT NULL,
  campaign_name text NOT NULL,
  channel text NOT NULL,
  currency char(3) NOT NULL,
  spend numeric NOT NULL,
  impressions bigint NOT NULL,
  clicks bigint NOT NULL,
  conversions numeric NOT NULL,
  revenue numeric NOT NULL
);
CREATE INDEX raw_ad_records_run ON raw_ad_records (run_id);

CREATE TABLE ad_performance_daily (
  project_id text NOT NULL,
  datastream_id text NOT NULL,
  date date NOT NULL,
  campaign_id text NOT NULL,
  campaign_name text NOT NULL,
  channel text NOT NULL,
  source_currency char(3) NOT NULL,
  currency char(3) NOT NULL,
  spend_source numeric NOT NULL,
  revenue_source numeric NOT NULL,
  spend numeric NOT NULL,
  revenue numeric NOT NULL,
  impressions bigint NOT NULL,
  clicks bigint NOT NULL,
  conversions numeric NOT NULL,
  PRIMARY KEY (project_id, datastream_id, date, campaign_id)
);
CREATE INDEX ad_performance_daily_project_date ON ad_performance_daily (project_id, date);

CREATE TABLE kpis_daily (
  project_id text NOT NULL,
  date date NOT NULL,
  channel text NOT NULL,
  currency char(3) NOT NULL,
  spend numeric NOT NULL,
  revenue numeric NOT NULL,
  conversions numeric NOT NULL,
  clicks bigint NOT NULL,
  impressions bigint NOT NULL,
  roas numeric,
  cpa numeric,
  ctr numeric,
  cvr numeric,
  PRIMARY KEY (project_id, date, channel)
);
