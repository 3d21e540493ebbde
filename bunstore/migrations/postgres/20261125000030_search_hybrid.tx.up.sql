-- OpenJury schema: hybrid search (issue 28).
-- PostgreSQL. Keep in step with ../sqlite.
--
-- search_text is the lexical side of search: one row per searchable
-- document (jobs, submissions, comments and posts not deleted) with the
-- text that is searched and shown, and the job it belongs to. Triggers on
-- the documents' tables keep it in step inside the writing transaction, so
-- a new document is found and a deleted comment is gone from the lexical
-- ranking the moment its write commits, on every replica, whatever the
-- embedder does. tsv is its English full-text vector (stemmed; title
-- weighted A, body B, evidence C), served by a GIN index.
CREATE TABLE search_text (
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
    tsv    tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', body), 'B') ||
        setweight(to_tsvector('english', extra), 'C')) STORED,
    PRIMARY KEY (kind, doc_id)
);
--bun:split
CREATE INDEX search_text_tsv_idx ON search_text USING gin (tsv);
--bun:split
-- The planner's statistics of tsv are the document frequencies the
-- lexical ranking weighs terms by (bunstore/search_text.go): keep the
-- 10,000 most common lexemes instead of 1,000.
ALTER TABLE search_text ALTER COLUMN tsv SET STATISTICS 1000;
--bun:split

-- search_evidence_text is the evidence claims and quotes of a
-- submission's evidence JSON, one per line, in order (empty ones left
-- out), as search.Source.Text joins them.
CREATE FUNCTION search_evidence_text(evidence TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
    SELECT COALESCE(string_agg(p.x, E'\n' ORDER BY e.ord, p.sub), '')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(evidence::jsonb) = 'array' THEN evidence::jsonb ELSE '[]'::jsonb END)
         WITH ORDINALITY AS e(v, ord),
         LATERAL (VALUES (1, e.v->>'claim'), (2, e.v->>'quote')) AS p(sub, x)
    WHERE p.x <> ''
$$;
--bun:split

CREATE FUNCTION search_text_put(k TEXT, id TEXT, job TEXT, t TEXT, b TEXT, x TEXT) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO search_text (kind, doc_id, job_id, title, body, extra) VALUES (k, id, job, t, b, x)
    ON CONFLICT (kind, doc_id) DO UPDATE SET job_id = EXCLUDED.job_id, title = EXCLUDED.title,
        body = EXCLUDED.body, extra = EXCLUDED.extra
$$;
--bun:split

CREATE FUNCTION search_text_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM search_text WHERE kind = 'job' AND doc_id = OLD.id;
    ELSE
        PERFORM search_text_put('job', NEW.id, NEW.id, NEW.title, NEW.prompt, '');
    END IF;
    RETURN NULL;
END $$;
--bun:split
CREATE TRIGGER search_text_jobs AFTER INSERT OR DELETE OR UPDATE OF title, prompt ON jobs
    FOR EACH ROW EXECUTE FUNCTION search_text_jobs();
--bun:split

CREATE FUNCTION search_text_submissions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM search_text WHERE kind = 'submission' AND doc_id = OLD.id;
    ELSE
        PERFORM search_text_put('submission', NEW.id, NEW.job_id, '', NEW.content, search_evidence_text(NEW.evidence));
    END IF;
    RETURN NULL;
END $$;
--bun:split
CREATE TRIGGER search_text_submissions AFTER INSERT OR DELETE OR UPDATE OF content, evidence ON submissions
    FOR EACH ROW EXECUTE FUNCTION search_text_submissions();
--bun:split

CREATE FUNCTION search_text_comments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM search_text WHERE kind = 'comment' AND doc_id = OLD.id;
    ELSIF NEW.deleted_at IS NOT NULL THEN
        DELETE FROM search_text WHERE kind = 'comment' AND doc_id = NEW.id;
    ELSE
        PERFORM search_text_put('comment', NEW.id, NEW.job_id, '', NEW.content, '');
    END IF;
    RETURN NULL;
END $$;
--bun:split
CREATE TRIGGER search_text_comments AFTER INSERT OR DELETE OR UPDATE OF content, deleted_at, job_id ON comments
    FOR EACH ROW EXECUTE FUNCTION search_text_comments();
--bun:split

CREATE FUNCTION search_text_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM search_text WHERE kind = 'post' AND doc_id = OLD.id;
    ELSIF NEW.deleted_at IS NOT NULL THEN
        DELETE FROM search_text WHERE kind = 'post' AND doc_id = NEW.id;
    ELSE
        PERFORM search_text_put('post', NEW.id, NULL, NEW.title, NEW.content, '');
    END IF;
    RETURN NULL;
END $$;
--bun:split
CREATE TRIGGER search_text_posts AFTER INSERT OR DELETE OR UPDATE OF title, content, deleted_at ON posts
    FOR EACH ROW EXECUTE FUNCTION search_text_posts();
--bun:split

-- The documents written before this version.
INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
SELECT 'job', id, id, title, prompt, '' FROM jobs;
--bun:split
INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
SELECT 'submission', id, job_id, '', content, search_evidence_text(evidence) FROM submissions;
--bun:split
INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
SELECT 'comment', id, job_id, '', content, '' FROM comments WHERE deleted_at IS NULL;
--bun:split
INSERT INTO search_text (kind, doc_id, job_id, title, body, extra)
SELECT 'post', id, NULL, title, content, '' FROM posts WHERE deleted_at IS NULL;
--bun:split

-- The vector side: vectors are now stored quantised (search.Vec8: a
-- little-endian float32 scale, then one signed byte per dimension) in
-- vec; the float32 vector column stays readable for entries written
-- before, which a replica quantises as it loads them. What a result shows
-- comes from search_text now.
ALTER TABLE search_documents ADD COLUMN vec BYTEA;
--bun:split
ALTER TABLE search_documents DROP COLUMN title;
--bun:split
ALTER TABLE search_documents DROP COLUMN snippet;
