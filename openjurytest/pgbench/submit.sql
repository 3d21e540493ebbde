-- One submission a transaction, as submitQuery writes it (a random open
-- job and staked wallet; no guard refuses: the limit is out of reach).
\set j random(1, 1800)
\set a random(1, 64)
WITH p AS (SELECT (SELECT id FROM bench_jobs WHERE n = :j) AS job, (SELECT address FROM bench_agents WHERE n = :a) AS agent),
st AS (SELECT j.*, s.staked_micro, openjury_submission_count(j.id, (SELECT agent FROM p)) AS submissions
FROM (SELECT id, status, sponsor_address, closing_until FROM jobs WHERE id = (SELECT job FROM p) FOR UPDATE) AS j
LEFT JOIN stakes AS s ON s.address = (SELECT agent FROM p)),
ins AS (INSERT INTO submissions (id, job_id, agent_address, content, evidence, created_at)
SELECT gen_random_uuid()::text, st.id, (SELECT agent FROM p), 'An answer from the load tool.'::text, '[{"kind":"url","value":"https://example.com"}]'::text, 1::bigint FROM st
WHERE COALESCE(st.staked_micro, 0) >= 0::bigint AND st.status = 'open'::text AND st.sponsor_address <> 'x'::text AND st.submissions < 1000000::bigint
AND (st.closing_until IS NULL OR st.closing_until <= 1::bigint)
RETURNING id),
rep AS (INSERT INTO reputation AS r (address, score, wins, losses, submissions, jury_votes, updated_at)
SELECT (SELECT agent FROM p), 1,0,0,1,0,1 FROM ins, st WHERE st.submissions = 0
ON CONFLICT (address) DO UPDATE SET score = r.score + EXCLUDED.score, wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses,
submissions = r.submissions + EXCLUDED.submissions, jury_votes = r.jury_votes + EXCLUDED.jury_votes, updated_at = EXCLUDED.updated_at),
queued AS (INSERT INTO search_pending (kind, doc_id, gen, queued_at, lease_until)
SELECT 'submission'::text, ins.id, 1, 1::bigint, 0 FROM ins
ON CONFLICT (kind, doc_id) DO UPDATE SET gen = search_pending.gen + 1, queued_at = excluded.queued_at, lease_until = 0),
ev AS (INSERT INTO event_outbox (type, job_id, actor, subjects, audience, tags, data, created_at)
SELECT 'submission.created'::text, (SELECT job FROM p), (SELECT agent FROM p), '[]'::text, '[]'::text, '[]'::text, '{"a":1}'::text, 9999999999999::bigint FROM ins WHERE true)
SELECT st.*, EXISTS (SELECT 1 FROM ins) AS inserted FROM st;
