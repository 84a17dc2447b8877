-- How long a run waited on its source: retry delays the source named (RetryInfo, Retry-After),
-- backoff after throttles and failures, and the pauses usage headers ask for. A slow run then says
-- whether the source held it back or the service was slow.
ALTER TABLE datastream_runs ADD COLUMN source_wait_ms bigint NOT NULL DEFAULT 0;
