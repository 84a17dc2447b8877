-- Issue 20, item 5: the interface's own examples must be storable.
-- A context event's event_type is an open label (normalized by the service to lowercase
-- snake_case, 1–64 characters): the closed list of nine kinds is dropped, the length kept.
ALTER TABLE context_events DROP CONSTRAINT context_events_event_type_check;
ALTER TABLE context_events ADD CONSTRAINT context_events_event_type_check
  CHECK (char_length(event_type) BETWEEN 1 AND 64);

-- A Knowledge topic_id may also use "_" and "." between lowercase letters and digits
-- (roas_definition, kpi.roas-notes): it starts and ends with a letter or digit, with no two
-- separators in a row.
ALTER TABLE knowledge DROP CONSTRAINT knowledge_topic_id_check;
ALTER TABLE knowledge ADD CONSTRAINT knowledge_topic_id_check
  CHECK (topic_id ~ '^[a-z0-9]+([._-][a-z0-9]+)*$' AND length(topic_id) <= 96);
