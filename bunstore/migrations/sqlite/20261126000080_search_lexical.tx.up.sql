-- OpenJury schema: the lexical index out of the write transaction.
-- SQLite. Keep in step with ../postgres.
--
-- search_text was kept in step by triggers inside every writing
-- transaction (migration 20261125000030): each write then paid for its
-- FTS5 pages in the statement journal of its group-commit savepoint and an
-- FTS5 segment of its own. The search indexer now writes search_text from
-- the pending queue instead, in batches of its own transactions
-- (bunstore/search.go, IndexTexts), so one FTS5 flush serves many
-- documents. The triggers of search_text that keep search_fts in step stay,
-- as do the view search_text_source and the backfill of migration 30.
DROP TRIGGER search_text_jobs_insert;
--bun:split
DROP TRIGGER search_text_jobs_update;
--bun:split
DROP TRIGGER search_text_jobs_delete;
--bun:split
DROP TRIGGER search_text_submissions_insert;
--bun:split
DROP TRIGGER search_text_submissions_update;
--bun:split
DROP TRIGGER search_text_submissions_delete;
--bun:split
DROP TRIGGER search_text_comments_insert;
--bun:split
DROP TRIGGER search_text_comments_update;
--bun:split
DROP TRIGGER search_text_comments_delete;
--bun:split
DROP TRIGGER search_text_posts_insert;
--bun:split
DROP TRIGGER search_text_posts_update;
--bun:split
DROP TRIGGER search_text_posts_delete;
--bun:split

-- lex_gen is the gen of a pending document whose text search_text holds:
-- below gen, the lexical step is still to do (a new row has gen 1 and
-- lex_gen 0; queueing a document again raises gen). The vector step claims
-- only rows whose lexical step is done, and a row leaves the queue only
-- then.
ALTER TABLE search_pending ADD COLUMN lex_gen INTEGER NOT NULL DEFAULT 0 CHECK (lex_gen >= 0);
--bun:split
-- The triggers kept search_text current up to this migration.
UPDATE search_pending SET lex_gen = gen;
--bun:split
-- The lexical step's queue: the documents whose text is not indexed yet,
-- oldest first.
CREATE INDEX search_pending_lexical_idx ON search_pending (queued_at) WHERE lex_gen < gen;
