-- OpenJury schema: the search queue's kind check without an IN list.
-- SQLite. Keep in step with ../postgres.
--
-- SQLite evaluates "kind IN ('job', 'submission', 'comment', 'post')" (a
-- list of more than two values) by building a temporary b-tree of the
-- list each time a statement checks it: every queueing of a document
-- (each submission, comment, post or job write) created and freed one.
-- The same check as a chain of equalities needs none. SQLite cannot
-- change a CHECK in place: the table (the queue of documents still to
-- index, small) is rebuilt with its rows and indexes.
CREATE TABLE search_pending_new (
    kind        TEXT    NOT NULL CHECK (kind = 'job' OR kind = 'submission' OR kind = 'comment' OR kind = 'post'),
    doc_id      TEXT    NOT NULL,
    gen         INTEGER NOT NULL DEFAULT 1 CHECK (gen >= 1),
    queued_at   INTEGER NOT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0,
    lex_gen     INTEGER NOT NULL DEFAULT 0 CHECK (lex_gen >= 0),
    PRIMARY KEY (kind, doc_id)
) STRICT;
--bun:split
INSERT INTO search_pending_new (kind, doc_id, gen, queued_at, lease_until, lex_gen)
SELECT kind, doc_id, gen, queued_at, lease_until, lex_gen FROM search_pending;
--bun:split
DROP TABLE search_pending;
--bun:split
ALTER TABLE search_pending_new RENAME TO search_pending;
--bun:split
CREATE INDEX search_pending_lease_until_queued_at_idx ON search_pending (lease_until, queued_at);
--bun:split
CREATE INDEX search_pending_lexical_idx ON search_pending (queued_at) WHERE lex_gen < gen;
