-- Issue 29, speed of the one-new-day pass. The primary key leads with (project_id, channel,
-- metric), so a condition on a project's dates was checked on every index entry of the project:
-- the evaluation's DELETE of its range and the read of the quiet days before it each scanned the
-- whole history of every project they touched (~0.3 s each for 100 projects × 400 days, of a
-- 2.1 s pass; BENCHMARKS.md, anomalies notes). This index bounds both to the days they name.
-- A full pass writes its rows project by project, so each project's entries stay together and
-- the extra index costs the write little (measured in the same notes).
CREATE INDEX anomalies_daily_by_date ON anomalies_daily (project_id, date);
