-- OpenJury schema: a score change touches the jury index only when it can
-- change the address's eligibility. SQLite. Keep in step with ../postgres.
--
-- An address's juror stake depends on its score only through
-- "score >= min_rep_score" (migration 20261125000060). A change of score
-- that stays on one side of the threshold leaves the juror stake as it
-- was, so it need not run jury_touch_apply: most score changes (every
-- first submission, every jury vote) are of that kind. A missing row
-- counts as a score of 0, as in jury_touch_apply. When the index is not
-- configured yet (min_stake_micro NULL) nothing is touched, as before.
DROP TRIGGER reputation_jury_insert;
--bun:split
DROP TRIGGER reputation_jury_update;
--bun:split
CREATE TRIGGER reputation_jury_insert AFTER INSERT ON reputation
WHEN EXISTS (SELECT 1 FROM jury_config AS c WHERE c.id = 1 AND c.min_stake_micro IS NOT NULL
    AND (0 >= c.min_rep_score) IS NOT (NEW.score >= c.min_rep_score))
BEGIN
    INSERT INTO jury_touch (address) VALUES (NEW.address);
END;
--bun:split
CREATE TRIGGER reputation_jury_update AFTER UPDATE OF score ON reputation
WHEN OLD.score <> NEW.score AND EXISTS (SELECT 1 FROM jury_config AS c WHERE c.id = 1 AND c.min_stake_micro IS NOT NULL
    AND (OLD.score >= c.min_rep_score) IS NOT (NEW.score >= c.min_rep_score))
BEGIN
    INSERT INTO jury_touch (address) VALUES (NEW.address);
END;
