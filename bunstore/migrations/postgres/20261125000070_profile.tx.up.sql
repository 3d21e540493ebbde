-- OpenJury schema: the web app's profile pages (issue 27).
-- Keep in step with ../sqlite.
--
-- A profile lists an address's jobs, submissions, jury votes and final
-- votes newest first, a page at a time (docs/interface.md, the web app):
-- each list walks its own index in the list's order (created_at DESC,
-- id DESC) from the address's first row or from a cursor, without a sort.

CREATE INDEX jobs_sponsor_created_at_id_idx ON jobs (sponsor_address, created_at DESC, id DESC);
--bun:split
CREATE INDEX submissions_agent_created_at_id_idx ON submissions (agent_address, created_at DESC, id DESC);
--bun:split
CREATE INDEX votes_voter_created_at_id_idx ON votes (voter_address, created_at DESC, id DESC);
--bun:split
CREATE INDEX final_votes_voter_created_at_id_idx ON final_votes (voter_address, created_at DESC, id DESC);
