-- OpenJury schema: the search queue is stored clustered by its primary key
-- (kind, doc_id), WITHOUT ROWID: a queued document is one B-tree entry
-- plus its two indexes' entries, where a rowid table kept the row and its
-- primary key's index apart, and a look-up by document is one descent.
-- Same columns, checks, rows and indexes (20261126000131), and the rule
-- PostgreSQL checks since 20261127000010, which this rebuild adds here:
-- a row's lexical generation never passes its generation.
CREATE TABLE search_pending_clustered (
    kind        TEXT    NOT NULL CHECK (kind = 'job' OR kind = 'submission' OR kind = 'comment' OR kind = 'post'),
    doc_id      TEXT    NOT NULL,
    gen         INTEGER NOT NULL DEFAULT 1 CHECK (gen >= 1),
    queued_at   INTEGER NOT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0,
    lex_gen     INTEGER NOT NULL DEFAULT 0 CHECK (lex_gen >= 0),
    PRIMARY KEY (kind, doc_id),
    CONSTRAINT search_pending_lex_gen_gen_check CHECK (lex_gen <= gen)
) STRICT, WITHOUT ROWID;
--bun:split
INSERT INTO search_pending_clustered (kind, doc_id, gen, queued_at, lease_until, lex_gen)
SELECT kind, doc_id, gen, queued_at, lease_until, lex_gen FROM search_pending;
--bun:split
DROP TABLE search_pending;
--bun:split
ALTER TABLE search_pending_clustered RENAME TO search_pending;
--bun:split
CREATE INDEX search_pending_lease_until_queued_at_idx ON search_pending (lease_until, queued_at);
--bun:split
CREATE INDEX search_pending_lexical_idx ON search_pending (queued_at) WHERE lex_gen < gen;
