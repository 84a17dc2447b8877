-- Issue 29's speed targets: one new day for every series must not re-read a year of rows per
-- series for the precedent check. Each evaluation saves, per series, the precedent deques the
-- rule left after each of its last days (as_of): the days whose same-side |value − expected| no
-- later day equals or beats, flat as [d, size, d, size, …] oldest first (d: days since
-- 2000-01-03). An evaluation that starts on as_of + 1 with the same precedent_days takes them
-- instead of reading them back (anomalies.state.ts says when it may); an evaluation from a day
-- drops what was saved as of that day or later.
CREATE TABLE anomaly_precedent_state (
  project_id text NOT NULL,
  channel text NOT NULL,
  metric text NOT NULL,
  as_of date NOT NULL,
  precedent_days integer NOT NULL,
  spike_deque double precision[] NOT NULL,
  drop_deque double precision[] NOT NULL,
  PRIMARY KEY (project_id, channel, metric, as_of)
);
