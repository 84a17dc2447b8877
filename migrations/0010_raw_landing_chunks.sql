-- raw_ad_records: on PostgreSQL a run lands in numbered chunks (one COPY each, committed), and the
-- model transaction, on a second connection, converts chunk k into ad_performance_daily while chunk
-- k + 1 lands (src/modules/ingestion/raw-writer.ts, src/modules/models/ad-performance.incremental.ts).
-- The chunk number is how that insert finds exactly the rows it has not seen yet: the index on
-- (run_id, chunk) reads one chunk's rows, where the run_id index alone would rescan the whole run
-- for every chunk. It replaces that index (its prefix serves every `WHERE run_id = $1` reader).
-- PGlite lands a run in one piece: its rows keep the default, 0.
ALTER TABLE raw_ad_records ADD COLUMN chunk integer NOT NULL DEFAULT 0;
CREATE INDEX raw_ad_records_run_chunk ON raw_ad_records (run_id, chunk);
DROP INDEX raw_ad_records_run;
