-- Eight submissions a transaction in one statement, as submitBatchQuery
-- writes them (random open jobs and staked wallets).
WITH u AS MATERIALIZED (SELECT row_number() OVER () AS ord, gen_random_uuid()::text AS id, bj.id AS job_id, ba.address AS agent,
   'An answer from the load tool.'::text AS content, '[{"kind":"url","value":"https://example.com"}]'::text AS evidence, 1::bigint AS created_at
  FROM generate_series(1, 8) g
  CROSS JOIN LATERAL (SELECT 1 + floor(random()*1800)::int + 0*g AS jn, 1 + floor(random()*64)::int + 0*g AS an) r
  JOIN bench_jobs bj ON bj.n = r.jn JOIN bench_agents ba ON ba.n = r.an),
j AS MATERIALIZED (SELECT id, status, sponsor_address, closing_until FROM jobs WHERE id = ANY(ARRAY(SELECT job_id FROM u)) ORDER BY id FOR UPDATE),
guard AS MATERIALIZED (SELECT u.*, j.id AS found, j.status, j.sponsor_address, j.closing_until, s.staked_micro,
    j.id IS NOT NULL AND COALESCE(s.staked_micro, 0) >= 0::bigint AND j.status = 'open'::text AND j.sponsor_address <> u.agent
    AND (j.closing_until IS NULL OR j.closing_until <= 1::bigint) AS ok
  FROM u LEFT JOIN j ON j.id = u.job_id LEFT JOIN stakes AS s ON s.address = u.agent),
st AS MATERIALIZED (SELECT guard.*, openjury_submission_count(guard.job_id, guard.agent)
    + count(*) FILTER (WHERE guard.ok) OVER (PARTITION BY guard.job_id, guard.agent ORDER BY guard.ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS submissions
  FROM guard),
ins AS (INSERT INTO submissions (id, job_id, agent_address, content, evidence, created_at)
  SELECT st.id, st.job_id, st.agent, st.content, st.evidence, st.created_at FROM st
  WHERE st.ok AND st.submissions < 1000000::bigint ORDER BY st.ord
  RETURNING id),
rep AS (INSERT INTO reputation AS r (address, score, wins, losses, submissions, jury_votes, updated_at)
  SELECT st.agent, count(*), 0, 0, count(*), 0, 1 FROM st JOIN ins ON ins.id = st.id WHERE st.submissions = 0 GROUP BY st.agent
  ON CONFLICT (address) DO UPDATE SET score = r.score + EXCLUDED.score, wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses,
  submissions = r.submissions + EXCLUDED.submissions, jury_votes = r.jury_votes + EXCLUDED.jury_votes, updated_at = EXCLUDED.updated_at),
queued AS (INSERT INTO search_pending (kind, doc_id, gen, queued_at, lease_until)
  SELECT 'submission'::text, ins.id, 1, 1::bigint, 0 FROM ins
  ON CONFLICT (kind, doc_id) DO UPDATE SET gen = search_pending.gen + 1, queued_at = excluded.queued_at, lease_until = 0),
ev AS (INSERT INTO event_outbox (type, job_id, actor, subjects, audience, tags, data, created_at)
  SELECT 'submission.created'::text, st.job_id, st.agent, '[]'::text, '[]'::text, '[]'::text, '{"a":1}'::text, 9999999999999::bigint FROM st JOIN ins ON ins.id = st.id ORDER BY st.ord)
SELECT st.ord, st.found, st.status, st.submissions, st.id IN (SELECT id FROM ins) AS inserted FROM st ORDER BY st.ord;
