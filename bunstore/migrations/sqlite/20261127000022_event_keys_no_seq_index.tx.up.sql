-- OpenJury schema: event_keys without its index by seq.
-- Keep in step with ../sqlite and ../postgres.
--
-- The index served one statement, retention's delete of the expired
-- events' keys by seq range, and cost every key the sequencer writes an
-- entry more. Retention now deletes an expired event's keys by the
-- primary key (key, seq), from the keys events.Keys gives for the event's
-- stored head (bunstore/events.go, Expire). The keys of events retention
-- already deleted are gone first, while the index still serves that.
DELETE FROM event_keys WHERE seq <= (SELECT value FROM event_marks WHERE name = 'horizon');
--bun:split
DROP INDEX event_keys_seq_idx;
