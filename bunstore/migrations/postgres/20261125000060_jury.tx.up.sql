-- OpenJury schema: a jury that cannot copy, herd or be packed (issue 24).
-- Keep in step with ../sqlite.
--
-- Per-job jury settings (open or commit-reveal votes, an optional panel
-- size and the windows), the drawn panels and their seeds, the
-- commitments of commit-reveal votes, and the index the draw walks: the
-- eligible jurors' stakes, versioned, with their sums per address prefix
-- (docs/rules.md, "Jury integrity").

ALTER TABLE jobs ADD COLUMN jury_mode TEXT NOT NULL DEFAULT 'open' CHECK (jury_mode IN ('open', 'commit_reveal'));
--bun:split
ALTER TABLE jobs ADD COLUMN jury_size BIGINT CHECK (jury_size IS NULL OR (jury_size BETWEEN 1 AND 101 AND jury_size % 2 = 1));
--bun:split
ALTER TABLE jobs ADD COLUMN jury_commit_ends_at BIGINT;
--bun:split
ALTER TABLE jobs ADD COLUMN jury_reveal_ends_at BIGINT;
--bun:split

-- The eligibility rule the index follows (the service's minimum stake and
-- reputation score to jury-vote): NULL until a service sets it. Changing it
-- recomputes every address (bunstore's JurorIndex.JuryVersion). A touch
-- holds the row FOR SHARE, the change holds it FOR UPDATE.
CREATE TABLE jury_config (
    id              BIGINT PRIMARY KEY CHECK (id = 1),
    min_stake_micro BIGINT,
    min_rep_score   BIGINT
);
--bun:split
INSERT INTO jury_config (id) VALUES (1);
--bun:split

-- The version of the eligible set: every change of an address's juror
-- stake takes the next one under this row's lock, held until its commit,
-- so versions are assigned in commit order.
CREATE TABLE jury_state (
    id      BIGINT PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL CHECK (version >= 0)
);
--bun:split
INSERT INTO jury_state (id, version) VALUES (1, 0);
--bun:split

-- An address's juror stake from each version on: its staked micro-USDC
-- while it is eligible to jury-vote (stake and reputation), else 0. The
-- eligible set at version V is every address whose latest row at or
-- before V has a stake above 0. Rows are only ever added.
CREATE TABLE juror_versions (
    address     TEXT   NOT NULL COLLATE "C",
    version     BIGINT NOT NULL,
    stake_micro BIGINT NOT NULL CHECK (stake_micro >= 0),
    PRIMARY KEY (address, version)
);
--bun:split

-- The total juror stake and the number of jurors whose address (after
-- "0x") starts with prefix (0 to 4 hex digits; '' is the whole set), from
-- each version on. A draw walks them from the root down in address order,
-- reading at most 16 children per level, then the few addresses of one
-- 4-digit prefix: O(log M) reads a juror.
CREATE TABLE jury_sums (
    prefix      TEXT   NOT NULL COLLATE "C",
    version     BIGINT NOT NULL,
    total_micro BIGINT NOT NULL CHECK (total_micro >= 0),
    jurors      BIGINT NOT NULL CHECK (jurors >= 0),
    PRIMARY KEY (prefix, version)
);
--bun:split

-- Touching an address recomputes its juror stake and, when it changed,
-- records it at the next version with the sums of its prefixes. The
-- triggers of stakes and reputation touch the address they changed when
-- the writing transaction commits (deferred), so the version's lock is
-- the last one it takes: versions follow commit order without deadlocks
-- against the transaction's other locks. The address's advisory lock
-- orders two transactions changing the same address: the second computes
-- from the first's committed rows.
CREATE FUNCTION openjury_jury_touch(a TEXT) RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    cfg       jury_config%ROWTYPE;
    old_micro BIGINT;
    new_micro BIGINT;
    v         BIGINT;
    dj        BIGINT;
BEGIN
    SELECT * INTO cfg FROM jury_config WHERE id = 1 FOR SHARE;
    IF cfg.min_stake_micro IS NULL THEN
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(1786082425, hashtext(a));
    SELECT COALESCE((SELECT jv.stake_micro FROM juror_versions AS jv WHERE jv.address = a ORDER BY jv.version DESC LIMIT 1), 0)
        INTO old_micro;
    SELECT CASE WHEN s.staked_micro > 0 AND s.staked_micro >= cfg.min_stake_micro
                AND COALESCE((SELECT r.score FROM reputation AS r WHERE r.address = a), 0) >= cfg.min_rep_score
           THEN s.staked_micro ELSE 0 END
        INTO new_micro FROM stakes AS s WHERE s.address = a;
    new_micro := COALESCE(new_micro, 0);
    IF new_micro = old_micro THEN
        RETURN;
    END IF;
    UPDATE jury_state SET version = version + 1 WHERE id = 1 RETURNING version INTO v;
    INSERT INTO juror_versions (address, version, stake_micro) VALUES (a, v, new_micro);
    dj := (CASE WHEN new_micro > 0 THEN 1 ELSE 0 END) - (CASE WHEN old_micro > 0 THEN 1 ELSE 0 END);
    INSERT INTO jury_sums (prefix, version, total_micro, jurors)
    SELECT p.prefix, v,
        COALESCE((SELECT s.total_micro FROM jury_sums AS s WHERE s.prefix = p.prefix ORDER BY s.version DESC LIMIT 1), 0) + (new_micro - old_micro),
        COALESCE((SELECT s.jurors FROM jury_sums AS s WHERE s.prefix = p.prefix ORDER BY s.version DESC LIMIT 1), 0) + dj
    FROM (VALUES (''), (substr(a, 3, 1)), (substr(a, 3, 2)), (substr(a, 3, 3)), (substr(a, 3, 4))) AS p (prefix);
END
$$;
--bun:split
CREATE FUNCTION openjury_jury_touch_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM openjury_jury_touch(NEW.address);
    RETURN NULL;
END
$$;
--bun:split
CREATE CONSTRAINT TRIGGER stakes_jury_insert AFTER INSERT ON stakes
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION openjury_jury_touch_row();
--bun:split
CREATE CONSTRAINT TRIGGER stakes_jury_update AFTER UPDATE OF staked_micro ON stakes
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.staked_micro <> NEW.staked_micro) EXECUTE FUNCTION openjury_jury_touch_row();
--bun:split
CREATE CONSTRAINT TRIGGER reputation_jury_insert AFTER INSERT ON reputation
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION openjury_jury_touch_row();
--bun:split
CREATE CONSTRAINT TRIGGER reputation_jury_update AFTER UPDATE OF score ON reputation
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.score <> NEW.score) EXECUTE FUNCTION openjury_jury_touch_row();
--bun:split

-- A job's draw: the eligible set's version pinned at the job's creation,
-- the seed (server: 32 random bytes; block: the hash of block seed_block,
-- NULL until the draw), and what the draw found. eligible_hash is filled
-- in after the draw (it reads the whole set).
CREATE TABLE jury_draws (
    job_id           TEXT    PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    size             BIGINT  NOT NULL CHECK (size BETWEEN 1 AND 101),
    sponsor_address  TEXT    NOT NULL,
    version          BIGINT  NOT NULL CHECK (version >= 0),
    seed_source      TEXT    NOT NULL CHECK (seed_source IN ('server', 'block')),
    seed_block       BIGINT,
    seed             TEXT,
    drawn_at         BIGINT,
    eligible_count   BIGINT,
    eligible_micro   BIGINT,
    eligible_hash    TEXT,
    created_at       BIGINT  NOT NULL,
    CHECK ((seed IS NULL) = (drawn_at IS NULL))
);
--bun:split
CREATE INDEX jury_draws_pending_idx ON jury_draws (created_at, job_id) WHERE drawn_at IS NULL;
--bun:split
CREATE INDEX jury_draws_unhashed_idx ON jury_draws (created_at, job_id) WHERE drawn_at IS NOT NULL AND eligible_hash IS NULL;
--bun:split

-- The drawn jurors of a job, in draw order, with the stake they were
-- drawn with; job_status follows the job's, so a juror's open duties are
-- one index range.
CREATE TABLE jury_panel (
    job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    juror_address TEXT    NOT NULL,
    ord           BIGINT  NOT NULL CHECK (ord >= 0),
    stake_micro   BIGINT  NOT NULL CHECK (stake_micro > 0),
    job_status    TEXT    NOT NULL CHECK (job_status IN ('open', 'closed')),
    PRIMARY KEY (job_id, juror_address),
    UNIQUE (job_id, ord)
);
--bun:split
CREATE INDEX jury_panel_juror_idx ON jury_panel (juror_address, job_status, job_id);
--bun:split

-- Commitments of commit-reveal jury votes: one per (job, voter), replaced
-- during the commit window; revealed_at is set once by the matching
-- reveal, whose vote is then a row of votes.
CREATE TABLE jury_commitments (
    job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    voter_address TEXT    NOT NULL,
    id            TEXT    NOT NULL UNIQUE,
    commitment    TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    revealed_at   BIGINT,
    PRIMARY KEY (job_id, voter_address)
);
--bun:split

-- A close credits the coherent jurors of a submission a chunk at a time,
-- in voter order.
CREATE INDEX votes_submission_voter_idx ON votes (submission_id, voter_address);
--bun:split

-- AGR gains the reason 'jury' (a coherent juror's credit), at most once
-- per (job, address).
ALTER TABLE agr_ledger DROP CONSTRAINT agr_ledger_reason_check;
--bun:split
ALTER TABLE agr_ledger ADD CONSTRAINT agr_ledger_reason_check CHECK (reason IN ('win', 'boost', 'dev_mint', 'jury'));
--bun:split
CREATE UNIQUE INDEX agr_ledger_jury_job_address_key ON agr_ledger (job_id, address) WHERE reason = 'jury';
