-- Issue 29, PGlite's share of a full re-evaluation. The store without COPY (embedded PGlite)
-- inserts evaluated rows as one array of this composite type per batch, sent in binary
-- (src/modules/anomalies/anomalies.write.ts): one parameter and one unnest instead of one array per
-- column, which cost a third more of the write. The fields are the columns the writer fills, in
-- the order of its COPY on PostgreSQL, so both paths encode a row the same way; a column added to
-- anomalies_daily later takes its default here unless this type gains it too.
CREATE TYPE anomaly_row AS (
  project_id text,
  date date,
  metric text,
  channel text,
  value double precision,
  baseline_mean double precision,
  baseline_stddev double precision,
  training_size integer,
  window_from date,
  window_to date,
  seasonality text,
  z double precision,
  relative_change double precision,
  threshold double precision,
  min_relative_change double precision,
  min_abs_change double precision,
  watch text,
  direction text,
  fired boolean,
  score double precision,
  severity text,
  kind text,
  status text,
  excluded boolean,
  anchor_date date,
  run_days integer,
  model text,
  precedent double precision,
  explained_by_channel text,
  explained_by_metric text,
  explained_by_event text
);
