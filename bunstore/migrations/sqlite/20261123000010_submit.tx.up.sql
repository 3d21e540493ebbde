-- Nothing to change on SQLite; this version keeps the two engines' migration
-- lists in step. PostgreSQL's 20261123000010 adds openjury_submission_count
-- for JobForSubmit; on SQLite the write transaction holds the database's one
-- write lock from its first statement, so JobForSubmit counts with a plain
-- subquery.
SELECT 1;
