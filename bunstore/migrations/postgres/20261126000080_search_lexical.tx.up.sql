-- OpenJury schema: the lexical index out of the write transaction.
-- PostgreSQL. Keep in step with ../sqlite.
--
-- search_text was kept in step by triggers inside every writing
-- transaction (migration 20261125000030): each write then paid for its
-- tsvector and GIN entries. The search indexer now writes search_text from
-- the pending queue instead, in batches of its own transactions
-- (bunstore/search.go, IndexTexts). The table, its GIN index, the function
-- search_evidence_text and the backfill of migration 30 stay.
DROP TRIGGER search_text_jobs ON jobs;
--bun:split
DROP TRIGGER search_text_submissions ON submissions;
--bun:split
DROP TRIGGER search_text_comments ON comments;
--bun:split
DROP TRIGGER search_text_posts ON posts;
--bun:split
DROP FUNCTION search_text_jobs();
--bun:split
DROP FUNCTION search_text_submissions();
--bun:split
DROP FUNCTION search_text_comments();
--bun:split
DROP FUNCTION search_text_posts();
--bun:split
DROP FUNCTION search_text_put(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT);
--bun:split

-- lex_gen is the gen of a pending document whose text search_text holds:
-- below gen, the lexical step is still to do (a new row has gen 1 and
-- lex_gen 0; queueing a document again raises gen). The vector step claims
-- only rows whose lexical step is done, and a row leaves the queue only
-- then.
ALTER TABLE search_pending ADD COLUMN lex_gen BIGINT NOT NULL DEFAULT 0 CHECK (lex_gen >= 0);
--bun:split
-- The triggers kept search_text current up to this migration.
UPDATE search_pending SET lex_gen = gen;
--bun:split
-- The lexical step's queue: the documents whose text is not indexed yet,
-- oldest first.
CREATE INDEX search_pending_lexical_idx ON search_pending (queued_at) WHERE lex_gen < gen;
