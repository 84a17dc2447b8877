-- Issue 20, item 11: where a baseline is flat at zero no relative change exists, and any non-zero
-- value used to fire. The evaluation now applies an absolute floor there (the min_abs_change
-- setting, defaults per metric in code); each row records the floor it was scored with, as it
-- records threshold and min_relative_change. Rows scored before had no floor: 0.
ALTER TABLE anomalies_daily ADD COLUMN min_abs_change double precision NOT NULL DEFAULT 0;
