-- An after-run job claims its run's outbox row before it publishes the run's facts: two jobs for
-- one run (each replica signals the run, and pg-boss's singleton window can let a second through
-- at its boundary) used to both publish. The claim is a lease, so a job that died mid-way leaves
-- the row to the sweep once it lapses.
ALTER TABLE evaluator_outbox ADD COLUMN claimed_until timestamptz;
