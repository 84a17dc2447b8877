-- Issue 29, precision: a day a context event of an expected type covers (the setting
-- expected_event_types) does not fire; when it would have, its status is 'explained' and this
-- names the event (its id; the title is read from context_events, so an edited title shows).
-- No foreign key: a deleted event leaves the id until the day is evaluated again.
ALTER TABLE anomalies_daily ADD COLUMN explained_by_event text;
