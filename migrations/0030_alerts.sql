-- Issue 30: alerts. Destinations (where a message goes, secrets sealed like connection secrets),
-- rules (which facts and items reach which destinations), mutes, and the delivery ledger that
-- makes a (rule, destination, item) alert exactly once.

CREATE TABLE alert_destinations (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('webhook', 'slack', 'teams', 'email', 'pagerduty')),
  config jsonb NOT NULL,
  -- AES-256-GCM of the secrets JSON (SecretBox, the connection-secret mechanism); never returned.
  secrets_ciphertext bytea NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  last_test jsonb,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (project_id, name)
);

CREATE TABLE alert_rules (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  sources text[] NOT NULL,
  filters jsonb NOT NULL,
  quiet_hours jsonb,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL,
  UNIQUE (project_id, name)
);

-- A destination in use cannot be deleted (RESTRICT): the API answers which rules name it.
CREATE TABLE alert_rule_destinations (
  rule_id text NOT NULL REFERENCES alert_rules(id) ON DELETE CASCADE,
  destination_id text NOT NULL REFERENCES alert_destinations(id) ON DELETE RESTRICT,
  PRIMARY KEY (rule_id, destination_id)
);
CREATE INDEX alert_rule_destinations_by_destination ON alert_rule_destinations (destination_id);

-- Silences a metric and/or channel until (and including) a day in the project's time zone.
CREATE TABLE alert_mutes (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  rule_id text REFERENCES alert_rules(id) ON DELETE CASCADE,
  metric text,
  channel text,
  until date NOT NULL,
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  CHECK (metric IS NOT NULL OR channel IS NOT NULL)
);
CREATE INDEX alert_mutes_by_project ON alert_mutes (project_id, until);

-- One row per triggering fact evaluated: its primary key is what makes a fact's evaluation
-- happen once however many jobs (a retried job, the sweep, two replicas) reach it.
CREATE TABLE alert_evaluations (
  fact_seq bigint PRIMARY KEY,
  project_id text NOT NULL,
  evaluated_at timestamptz NOT NULL,
  messages integer NOT NULL,
  muted integer NOT NULL
);

-- One message per (rule, destination) and evaluation; its id is the Standard Webhooks webhook-id,
-- the same on every attempt. Rows outlive their rule and destination (the delivery log).
CREATE TABLE alert_messages (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  rule_id text,
  rule_name text NOT NULL,
  destination_id text NOT NULL,
  destination_name text NOT NULL,
  kind text NOT NULL,
  -- What the message carries: anomaly, data_quality, run_failed, daily_insight, test, resolve.
  source text NOT NULL,
  event_type text NOT NULL,
  fact_seq bigint,
  run_id text,
  payload jsonb NOT NULL,
  item_count integer NOT NULL,
  status text NOT NULL CHECK (status IN ('held', 'pending', 'delivering', 'delivered', 'failed', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  -- When it may go (quiet hours, or the next retry); a lease while one process delivers it.
  deliver_after timestamptz NOT NULL,
  lease_until timestamptz,
  -- When a job was last queued for it (the sweep re-queues a message nobody picked up).
  queued_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz
);
CREATE INDEX alert_messages_by_project ON alert_messages (project_id, created_at DESC, id DESC);
CREATE INDEX alert_messages_open ON alert_messages (deliver_after) WHERE status IN ('held', 'pending', 'delivering');

-- The exactly-once ledger: an item is assigned to one message per rule and destination, ever.
CREATE TABLE alert_message_items (
  rule_id text NOT NULL,
  destination_id text NOT NULL,
  item_key text NOT NULL,
  message_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (rule_id, destination_id, item_key)
);
CREATE INDEX alert_message_items_by_message ON alert_message_items (message_id);

CREATE TABLE alert_attempts (
  message_id text NOT NULL REFERENCES alert_messages(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  -- 'interrupted' until the attempt finishes: a process killed mid-attempt leaves it so.
  outcome text NOT NULL CHECK (outcome IN ('interrupted', 'delivered', 'retry', 'failed', 'dead')),
  http_status integer,
  latency_ms integer,
  error text,
  -- At most 500 bytes of the receiver's answer.
  response_excerpt text,
  retry_at timestamptz,
  PRIMARY KEY (message_id, attempt)
);

-- The alerts sweep finds triggering facts nobody evaluated; the evaluation gathers a run's facts.
CREATE INDEX facts_alert_triggers ON facts (occurred_at)
  WHERE type IN ('dataset.transformed', 'run.failed', 'insight.composed');
CREATE INDEX facts_by_run ON facts (project_id, (payload->>'run_id'))
  WHERE type IN ('anomaly.detected', 'dq.check_failed');
