-- OpenJury schema: semantic search (issue 11).
-- Times are Unix milliseconds, ids are TEXT. Keep in step with ../postgres.

-- The outbox of the search index: a document created, changed or deleted
-- by a marketplace write, recorded in that write's transaction. gen grows
-- with each new write of the document; a worker leases rows
-- (lease_until) and removes a row only when its gen is the one it
-- embedded.
CREATE TABLE search_pending (
    kind        TEXT    NOT NULL CHECK (kind IN ('job', 'submission', 'comment', 'post')),
    doc_id      TEXT    NOT NULL,
    gen         INTEGER  NOT NULL DEFAULT 1 CHECK (gen >= 1),
    queued_at   INTEGER  NOT NULL,
    lease_until INTEGER  NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, doc_id)
) STRICT;
--bun:split
CREATE INDEX search_pending_lease_until_queued_at_idx ON search_pending (lease_until, queued_at);
--bun:split

-- The stored index: one row per document ever indexed, with its vector
-- (little-endian float32; NULL once the document is deleted) and the
-- model that made it. seq is the change sequence replicas follow: every
-- write of a row takes the next value of search_seq, whose row lock
-- serialises the writers, so rows become visible in seq order.
CREATE TABLE search_documents (
    kind       TEXT    NOT NULL CHECK (kind IN ('job', 'submission', 'comment', 'post')),
    doc_id     TEXT    NOT NULL,
    seq        INTEGER  NOT NULL,
    deleted    INTEGER NOT NULL CHECK (deleted IN (0, 1)),
    model      TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    snippet    TEXT    NOT NULL,
    vector     BLOB,
    updated_at INTEGER  NOT NULL,
    PRIMARY KEY (kind, doc_id)
) STRICT;
--bun:split
CREATE UNIQUE INDEX search_documents_seq_key ON search_documents (seq);
--bun:split

CREATE TABLE search_seq (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER  NOT NULL CHECK (seq >= 0)
) STRICT;
--bun:split
INSERT INTO search_seq (id, seq) VALUES (1, 0);
--bun:split

-- Documents written before this version wait for their first indexing.
INSERT INTO search_pending (kind, doc_id, queued_at) SELECT 'job', id, created_at FROM jobs;
--bun:split
INSERT INTO search_pending (kind, doc_id, queued_at) SELECT 'submission', id, created_at FROM submissions;
--bun:split
INSERT INTO search_pending (kind, doc_id, queued_at) SELECT 'comment', id, created_at FROM comments WHERE deleted_at IS NULL;
--bun:split
INSERT INTO search_pending (kind, doc_id, queued_at) SELECT 'post', id, created_at FROM posts WHERE deleted_at IS NULL;
