-- Issue 29, items 1 and 2: the detection rule became a sequential pass per series (robust
-- baseline, exclusion of fired days, level shifts, weekly and trend terms, volume guards), and
-- consecutive fired days of one series became one anomaly with a stable id.

-- Per evaluated day: the score in [0, 1] (monotone in |z|) and its severity; why it did or did not
-- fire (status); whether later baselines leave it out (excluded); the level-shift anchor in effect
-- while it is inside the frame; the length of the run of fired days on one side it ends (what an
-- incremental evaluation reads back to continue a run); the terms the baseline used (model).
-- Rows written before this migration keep the defaults: no score, not excluded.
ALTER TABLE anomalies_daily
  ADD COLUMN score double precision NOT NULL DEFAULT 0,
  ADD COLUMN severity text,
  ADD COLUMN kind text,
  ADD COLUMN status text NOT NULL DEFAULT 'ok',
  ADD COLUMN excluded boolean NOT NULL DEFAULT false,
  ADD COLUMN anchor_date date,
  ADD COLUMN run_days integer NOT NULL DEFAULT 0,
  ADD COLUMN model text NOT NULL DEFAULT 'mean';

-- What an incremental evaluation reads of the days before its range: few rows, found without
-- scanning every row of the projects.
CREATE INDEX anomalies_daily_state ON anomalies_daily (project_id, date)
  WHERE excluded OR anchor_date IS NOT NULL OR run_days > 0;

-- One anomaly: a maximal run of consecutive fired days of one series on one side. The id is derived
-- from (project, metric, channel, first_date), so re-evaluating the same window gives the same id
-- and a run that grows by a day keeps it. The peak is the day with the highest score.
CREATE TABLE anomaly_episodes (
  id text PRIMARY KEY,
  project_id text NOT NULL,
  metric text NOT NULL,
  channel text NOT NULL,
  kind text NOT NULL,
  direction text NOT NULL,
  first_date date NOT NULL,
  last_date date NOT NULL,
  peak_date date NOT NULL,
  days integer NOT NULL,
  peak_value double precision NOT NULL,
  peak_baseline double precision,
  peak_z double precision,
  peak_score double precision NOT NULL,
  severity text NOT NULL
);
CREATE INDEX anomaly_episodes_series ON anomaly_episodes (project_id, channel, metric, last_date);
CREATE INDEX anomaly_episodes_recent ON anomaly_episodes (project_id, last_date);

-- Episodes of the rows fired before this migration (one per run of consecutive days), so lists
-- and ids exist before the first re-evaluation.
INSERT INTO anomaly_episodes (id, project_id, metric, channel, kind, direction, first_date, last_date, peak_date, days,
  peak_value, peak_baseline, peak_z, peak_score, severity)
SELECT 'anom_' || substr(md5(project_id || '|' || metric || '|' || channel || '|' || min(date)::text), 1, 24),
  project_id, metric, channel, direction, direction, min(date), max(date),
  (array_agg(date ORDER BY abs(coalesce(z, 0)) DESC, date))[1], count(*)::int,
  (array_agg(value ORDER BY abs(coalesce(z, 0)) DESC, date))[1],
  (array_agg(baseline_mean ORDER BY abs(coalesce(z, 0)) DESC, date))[1],
  (array_agg(z ORDER BY abs(coalesce(z, 0)) DESC, date))[1], 0, 'low'
FROM (
  SELECT *, date - (row_number() OVER (PARTITION BY project_id, channel, metric, direction ORDER BY date))::int AS grp
  FROM anomalies_daily WHERE fired AND direction IS NOT NULL
) runs
GROUP BY project_id, channel, metric, direction, grp;
