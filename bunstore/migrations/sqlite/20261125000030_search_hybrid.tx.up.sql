-- OpenJury schema: hybrid search (issue 28).
-- SQLite. Keep in step with ../postgres.
--
-- search_text is the lexical side of search: one row per searchable
-- document (jobs, submissions, comments and posts not deleted) with the
-- text that is searched and shown, and the job it belongs to. Triggers on
-- the documents' tables keep it in step inside the writing transaction, so
-- a new document is found and a deleted comment is gone from the lexical
-- ranking the moment its write commits, whatever the embedder does.
-- search_fts is its FTS5 index (English Porter stemming over unicode61
-- tokens, ranked by bm25), kept in step by the triggers on search_text.
-- FTS5 is built into modernc.org/sqlite, the driver bunstore uses.
CREATE TABLE search_text (
    id     INTEGER PRIMARY KEY,
    kind   TEXT NOT NULL CHECK (kind IN ('job', 'submission', 'comment', 'post')),
    doc_id TEXT NOT NULL,
    -- The job the document belongs to: a job itself, a submission's job,
    -- a comment's job (on the job or on one of its submissions); NULL for
    -- posts and comments on posts.
    job_id TEXT,
    title  TEXT NOT NULL,
    body   TEXT NOT NULL,
    -- A submission's evidence claims and quotes, one per line.
    extra  TEXT NOT NULL,
    UNIQUE (kind, doc_id)
) STRICT;
--bun:split
-- kind is indexed too, so a query filters by kind inside FTS5
-- ("kind : job") instead of reading search_text for every match.
CREATE VIRTUAL TABLE search_fts USING fts5(title, body, extra, kind, content='search_text', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2');
--bun:split
CREATE TRIGGER search_fts_insert AFTER INSERT ON search_text BEGIN
    INSERT INTO search_fts (rowid, title, body, extra, kind) VALUES (new.id, new.title, new.body, new.extra, new.kind);
END;
--bun:split
CREATE TRIGGER search_fts_delete AFTER DELETE ON search_text BEGIN
    INSERT INTO search_fts (search_fts, rowid, title, body, extra, kind) VALUES ('delete', old.id, old.title, old.body, old.extra, old.kind);
END;
--bun:split
CREATE TRIGGER search_fts_update AFTER UPDATE ON search_text BEGIN
    INSERT INTO search_fts (search_fts, rowid, title, body, extra, kind) VALUES ('delete', old.id, old.title, old.body, old.extra, old.kind);
    INSERT INTO search_fts (rowid, title, body, extra, kind) VALUES (new.id, new.title, new.body, new.extra, new.kind);
END;
--bun:split

-- search_text_source is the text of every searchable document as the
-- triggers and the backfill below store it (a submission's evidence:
-- claims and quotes one per line, in order, empty ones left out, as
-- search.Source.Text joins them).
CREATE VIEW search_text_source (kind, doc_id, job_id, title, body, extra) AS
    SELECT 'job', id, id, title, prompt, '' FROM jobs
    UNION ALL
    SELECT 'submission', s.id, s.job_id, '', s.content, COALESCE((
        SELECT group_concat(p.x, char(10) ORDER BY p.k, p.sub) FROM (
            SELECT e.key AS k, 1 AS sub, json_extract(e.value, '$.claim') AS x
            FROM json_each(CASE WHEN json_valid(s.evidence) AND json_type(s.evidence) = 'array' THEN s.evidence ELSE '[]' END) AS e
            UNION ALL
            SELECT e.key, 2, json_extract(e.value, '$.quote')
            FROM json_each(CASE WHEN json_valid(s.evidence) AND json_type(s.evidence) = 'array' THEN s.evidence ELSE '[]' END) AS e
        ) AS p WHERE p.x <> ''), '') FROM submissions AS s
    UNION ALL
    SELECT 'comment', id, job_id, '', content, '' FROM comments WHERE deleted_at IS NULL
    UNION ALL
    SELECT 'post', id, NULL, title, content, '' FROM posts WHERE deleted_at IS NULL;
--bun:split

CREATE TRIGGER search_text_jobs_insert AFTER INSERT ON jobs BEGIN
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'job' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_jobs_update AFTER UPDATE OF title, prompt ON jobs BEGIN
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'job' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_jobs_delete AFTER DELETE ON jobs BEGIN
    DELETE FROM search_text WHERE kind = 'job' AND doc_id = old.id;
END;
--bun:split
CREATE TRIGGER search_text_submissions_insert AFTER INSERT ON submissions BEGIN
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'submission' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_submissions_update AFTER UPDATE OF content, evidence ON submissions BEGIN
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'submission' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_submissions_delete AFTER DELETE ON submissions BEGIN
    DELETE FROM search_text WHERE kind = 'submission' AND doc_id = old.id;
END;
--bun:split
-- A comment or post is stored while it is not deleted and removed when it
-- is: the upsert finds no source row for a deleted one, the DELETE
-- removes it.
CREATE TRIGGER search_text_comments_insert AFTER INSERT ON comments BEGIN
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'comment' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_comments_update AFTER UPDATE OF content, deleted_at, job_id ON comments BEGIN
    DELETE FROM search_text WHERE kind = 'comment' AND doc_id = new.id AND new.deleted_at IS NOT NULL;
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'comment' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_comments_delete AFTER DELETE ON comments BEGIN
    DELETE FROM search_text WHERE kind = 'comment' AND doc_id = old.id;
END;
--bun:split
CREATE TRIGGER search_text_posts_insert AFTER INSERT ON posts BEGIN
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'post' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_posts_update AFTER UPDATE OF title, content, deleted_at ON posts BEGIN
    DELETE FROM search_text WHERE kind = 'post' AND doc_id = new.id AND new.deleted_at IS NOT NULL;
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
    SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source WHERE kind = 'post' AND doc_id = new.id
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = excluded.job_id, title = excluded.title, body = excluded.body, extra = excluded.extra;
END;
--bun:split
CREATE TRIGGER search_text_posts_delete AFTER DELETE ON posts BEGIN
    DELETE FROM search_text WHERE kind = 'post' AND doc_id = old.id;
END;
--bun:split

-- The documents written before this version.
INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
SELECT kind, doc_id, job_id, title, body, extra FROM search_text_source;
--bun:split

-- The vector side: vectors are now stored quantised (search.Vec8: a
-- little-endian float32 scale, then one signed byte per dimension) in
-- vec; the float32 vector column stays readable for entries written
-- before, which a replica quantises as it loads them. What a result shows
-- comes from search_text now.
ALTER TABLE search_documents ADD COLUMN vec BLOB;
--bun:split
ALTER TABLE search_documents DROP COLUMN title;
--bun:split
ALTER TABLE search_documents DROP COLUMN snippet;
