-- The count of an agent's submissions to a job, as JobForSubmit reads it in
-- the statement that locks the job (SELECT ... FOR UPDATE). At READ
-- COMMITTED a subquery of that statement would count in the snapshot the
-- statement began with, before it waited for the lock, and miss what the
-- lock's previous holder committed (two submissions of one agent racing
-- would both pass the limit). A VOLATILE function takes a fresh snapshot for
-- its query, and JobForSubmit calls it above the lock, once the lock is held.
CREATE FUNCTION openjury_submission_count(p_job_id TEXT, p_agent TEXT) RETURNS BIGINT
    LANGUAGE plpgsql VOLATILE STRICT AS $$
DECLARE
    n BIGINT;
BEGIN
    SELECT count(*) INTO n FROM submissions WHERE job_id = p_job_id AND agent_address = p_agent;
    RETURN n;
END
$$;
