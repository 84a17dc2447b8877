-- ad_performance_daily: one index instead of two. The key now leads with the date after the
-- project, so the per-project date-range reads (kpis_daily, reports, the window's delete) use it
-- and the separate (project_id, date) index goes. Every 1M-row backfill maintained both; the second
-- cost about a fifth of the model step (bench:ingest). Per-datastream reads (data quality) filter
-- the datastream within the project's date range.
ALTER TABLE ad_performance_daily DROP CONSTRAINT ad_performance_daily_pkey;
ALTER TABLE ad_performance_daily ADD PRIMARY KEY (project_id, date, datastream_id, campaign_id);
DROP INDEX ad_performance_daily_project_date;
