-- Issue 29, PGlite's share of a full re-evaluation. anomalies_daily_by_date (migration 0039) let
-- two statements of a one-new-day evaluation find a project's dates without reading its whole
-- history, but every written row paid for a second index entry: about a fifth of PGlite's write
-- (BENCHMARKS.md, anomalies notes). Both statements now do without it:
-- - the range's DELETE is skipped when the range starts after the last day any evaluation of the
--   project reached (this table), as a new day's does: no stored row can be in it;
-- - the quiet days before the range are read per series through the primary key
--   (anomalies.state.ts, QUIET_DAYS_SQL).
-- Only the evaluation writes anomalies_daily (anomalies.write.ts), and it moves `through` forward
-- in the same transaction, so no row is ever dated after it. No foreign key, as anomalies_daily
-- has none: a mark left by a removed project only makes a later evaluation of that id delete.
CREATE TABLE anomaly_evaluated_through (
  project_id text PRIMARY KEY,
  through date NOT NULL
);

INSERT INTO anomaly_evaluated_through (project_id, through)
SELECT project_id, max(date) FROM anomalies_daily GROUP BY project_id;

DROP INDEX anomalies_daily_by_date;
