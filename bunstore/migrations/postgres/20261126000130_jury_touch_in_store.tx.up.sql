-- OpenJury schema: on SQLite the store's score writes touch the jury index
-- themselves (../sqlite). PostgreSQL keeps its trigger
-- (openjury_jury_touch_score, migration 20261126000110): its check runs
-- under the advisory lock that orders it with a change of the rule, and a
-- trigger costs PostgreSQL no statement journal. Nothing changes here.
SELECT 1;
