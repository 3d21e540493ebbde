-- OpenJury schema: on SQLite the store's score writes touch the jury index
-- themselves. SQLite. Keep in step with ../postgres.
--
-- A table with triggers makes SQLite open a statement journal for every
-- write to it that may abort (a CHECK, a NOT NULL): each reputation
-- upsert (every first submission, every jury vote) journalled the pages it
-- changed, and the pure-Go driver maps and unmaps the journal's 64 KiB
-- buffer at every statement. The threshold check of migration
-- 20261126000110 moves into bunstore's score writes (reputation.go,
-- touchCrossings), in the same transaction, after the score changed: an
-- address whose score crossed min_rep_score is inserted into jury_touch,
-- as the triggers did. SQLite's one writer serialises them with a change
-- of the rule.
DROP TRIGGER reputation_jury_insert;
--bun:split
DROP TRIGGER reputation_jury_update;
