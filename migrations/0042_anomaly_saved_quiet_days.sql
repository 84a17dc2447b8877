-- Issue 29, PostgreSQL's one new day (≤ 2 s for 9,900 series). Without the index by date
-- (migration 0041) the quiet days before a new day were read per series through the primary key,
-- the one-day pass's largest read after the points. The evaluation already saves, per series and
-- day, the precedent deques the next day starts from: it now saves the quiet days with them.
-- quiet_z: the z of the consecutive quiet days (status ok, z ≠ 0, one side) that end on as_of,
-- oldest first, at most sustained_days − 1 of them; empty when as_of was not quiet. A row saved
-- before this migration (NULL) or with other sustained_days is read back from the stored rows.
ALTER TABLE anomaly_precedent_state
  ADD COLUMN sustained_days integer,
  ADD COLUMN quiet_z double precision[];
