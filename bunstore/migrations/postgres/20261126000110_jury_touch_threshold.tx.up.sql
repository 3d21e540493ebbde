-- OpenJury schema: a score change touches the jury index only when it can
-- change the address's eligibility. PostgreSQL. Keep in step with ../sqlite.
--
-- An address's juror stake depends on its score only through
-- "score >= min_rep_score" (migration 20261125000060). A change of score
-- that stays on one side of the threshold leaves the juror stake as it
-- was, so it need not run openjury_jury_touch (a share lock on the
-- jury_config row, an advisory lock and three reads at every commit that
-- changed a score): most score changes (every first submission, every
-- jury vote) are of that kind. A missing row counts as a score of 0.
--
-- The threshold is read under a shared advisory lock that a change of the
-- rule (bunstore's JuryVersion) takes exclusively before it updates
-- jury_config and touches every address: a commit that read the old rule
-- has ended before the rule changes (and the recompute reads its score),
-- and one that starts after reads the new rule. The lock is in memory:
-- no row lock, no write.
CREATE FUNCTION openjury_jury_touch_score() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cfg       jury_config%ROWTYPE;
    old_score BIGINT := 0;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1786082426, 0);
    SELECT * INTO cfg FROM jury_config WHERE id = 1;
    IF cfg.min_stake_micro IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        old_score := OLD.score;
    END IF;
    IF (old_score >= cfg.min_rep_score) IS NOT DISTINCT FROM (NEW.score >= cfg.min_rep_score) THEN
        RETURN NULL;
    END IF;
    PERFORM openjury_jury_touch(NEW.address);
    RETURN NULL;
END
$$;
--bun:split
DROP TRIGGER reputation_jury_insert ON reputation;
--bun:split
DROP TRIGGER reputation_jury_update ON reputation;
--bun:split
CREATE CONSTRAINT TRIGGER reputation_jury_insert AFTER INSERT ON reputation
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION openjury_jury_touch_score();
--bun:split
CREATE CONSTRAINT TRIGGER reputation_jury_update AFTER UPDATE OF score ON reputation
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.score <> NEW.score) EXECUTE FUNCTION openjury_jury_touch_score();
