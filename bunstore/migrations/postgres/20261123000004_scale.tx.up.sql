-- OpenJury schema, version 4: indexes that serve every list in its order
-- (issue 8). PostgreSQL. Keep in step with ../sqlite.

-- Active boosts: their own small partial index, in the order of the boosted
-- phase of the job list (featured_score DESC, created_at DESC, id DESC).
-- featured_until is carried so the "still active" test reads the index.
CREATE INDEX jobs_boost_idx ON jobs (featured_score DESC, created_at DESC, id DESC, featured_until)
    WHERE featured_until IS NOT NULL AND featured_score > 0;
--bun:split
CREATE INDEX jobs_boost_status_idx ON jobs (status, featured_score DESC, created_at DESC, id DESC, featured_until)
    WHERE featured_until IS NOT NULL AND featured_score > 0;
--bun:split

-- job_tags carries the job's status and created_at (kept in step by
-- bunstore's UpdateJob), so a tag filter walks an index in the list's order.
ALTER TABLE job_tags ADD COLUMN status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed'));
--bun:split
ALTER TABLE job_tags ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
--bun:split
UPDATE job_tags SET
    status = (SELECT j.status FROM jobs AS j WHERE j.id = job_tags.job_id),
    created_at = (SELECT j.created_at FROM jobs AS j WHERE j.id = job_tags.job_id);
--bun:split
DROP INDEX job_tags_tag_job_id_idx;
--bun:split
CREATE INDEX job_tags_tag_created_at_id_idx ON job_tags (tag, created_at DESC, job_id DESC);
--bun:split
CREATE INDEX job_tags_tag_status_created_at_id_idx ON job_tags (tag, status, created_at DESC, job_id DESC);
--bun:split

-- post_tags carries the post's created_at the same way (posts never change
-- it).
ALTER TABLE post_tags ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
--bun:split
UPDATE post_tags SET created_at = (SELECT p.created_at FROM posts AS p WHERE p.id = post_tags.post_id);
--bun:split
DROP INDEX post_tags_tag_post_id_idx;
--bun:split
CREATE INDEX post_tags_tag_created_at_id_idx ON post_tags (tag, created_at DESC, post_id DESC);
--bun:split

-- Slashing events filtered by agent and job together.
CREATE INDEX slash_events_agent_job_created_at_id_idx ON slash_events (agent_address, job_id, created_at DESC, id DESC);
--bun:split

-- Tallies group a job's votes by submission straight from the index.
CREATE INDEX votes_job_submission_idx ON votes (job_id, submission_id, weight, voter_address, created_at);
--bun:split
CREATE INDEX final_votes_job_submission_idx ON final_votes (job_id, submission_id, voter_address, created_at);
