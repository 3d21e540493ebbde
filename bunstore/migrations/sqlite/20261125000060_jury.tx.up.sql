-- OpenJury schema: a jury that cannot copy, herd or be packed (issue 24).
-- SQLite STRICT tables. Keep in step with ../postgres.
--
-- Per-job jury settings (open or commit-reveal votes, an optional panel
-- size and the windows), the drawn panels and their seeds, the
-- commitments of commit-reveal votes, and the index the draw walks: the
-- eligible jurors' stakes, versioned, with their sums per address prefix
-- (docs/rules.md, "Jury integrity").

ALTER TABLE jobs ADD COLUMN jury_mode TEXT NOT NULL DEFAULT 'open' CHECK (jury_mode IN ('open', 'commit_reveal'));
--bun:split
ALTER TABLE jobs ADD COLUMN jury_size INTEGER CHECK (jury_size IS NULL OR (jury_size BETWEEN 1 AND 101 AND jury_size % 2 = 1));
--bun:split
ALTER TABLE jobs ADD COLUMN jury_commit_ends_at INTEGER;
--bun:split
ALTER TABLE jobs ADD COLUMN jury_reveal_ends_at INTEGER;
--bun:split

-- The eligibility rule the index follows (the service's minimum stake and
-- reputation score to jury-vote): NULL until a service sets it. Changing it
-- recomputes every address (bunstore's JurorIndex.JuryVersion).
CREATE TABLE jury_config (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    min_stake_micro INTEGER,
    min_rep_score   INTEGER
) STRICT;
--bun:split
INSERT INTO jury_config (id) VALUES (1);
--bun:split

-- The version of the eligible set: every change of an address's juror
-- stake takes the next one, in commit order.
CREATE TABLE jury_state (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL CHECK (version >= 0)
) STRICT;
--bun:split
INSERT INTO jury_state (id, version) VALUES (1, 0);
--bun:split

-- An address's juror stake from each version on: its staked micro-USDC
-- while it is eligible to jury-vote (stake and reputation), else 0. The
-- eligible set at version V is every address whose latest row at or
-- before V has a stake above 0. Rows are only ever added.
CREATE TABLE juror_versions (
    address     TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    stake_micro INTEGER NOT NULL CHECK (stake_micro >= 0),
    PRIMARY KEY (address, version)
) STRICT, WITHOUT ROWID;
--bun:split

-- The total juror stake and the number of jurors whose address (after
-- "0x") starts with prefix (0 to 4 hex digits; '' is the whole set), from
-- each version on. A draw walks them from the root down in address order,
-- reading at most 16 children per level, then the few addresses of one
-- 4-digit prefix: O(log M) reads a juror.
CREATE TABLE jury_sums (
    prefix      TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    total_micro INTEGER NOT NULL CHECK (total_micro >= 0),
    jurors      INTEGER NOT NULL CHECK (jurors >= 0),
    PRIMARY KEY (prefix, version)
) STRICT, WITHOUT ROWID;
--bun:split

-- Scratch rows of the change being applied (empty between statements).
CREATE TABLE jury_pending (
    address   TEXT    PRIMARY KEY,
    old_micro INTEGER NOT NULL,
    new_micro INTEGER NOT NULL
) STRICT;
--bun:split

-- Touching an address recomputes its juror stake and, when it changed,
-- records it at the next version with the sums of its prefixes. The
-- triggers of stakes and reputation touch the address they changed, in
-- the writing transaction (SQLite's one writer orders the versions).
CREATE VIEW jury_touch (address) AS SELECT NULL;
--bun:split
CREATE TRIGGER jury_touch_apply INSTEAD OF INSERT ON jury_touch BEGIN
    INSERT INTO jury_pending (address, old_micro, new_micro)
    SELECT x.address, x.old_micro, x.new_micro FROM (
        SELECT NEW.address AS address,
            COALESCE((SELECT v.stake_micro FROM juror_versions AS v WHERE v.address = NEW.address ORDER BY v.version DESC LIMIT 1), 0) AS old_micro,
            (SELECT CASE WHEN s.staked_micro > 0 AND s.staked_micro >= c.min_stake_micro
                AND COALESCE((SELECT r.score FROM reputation AS r WHERE r.address = NEW.address), 0) >= c.min_rep_score
                THEN s.staked_micro ELSE 0 END
             FROM jury_config AS c LEFT JOIN stakes AS s ON s.address = NEW.address WHERE c.id = 1) AS new_micro,
            (SELECT c.min_stake_micro IS NOT NULL FROM jury_config AS c WHERE c.id = 1) AS configured
    ) AS x
    WHERE x.configured AND x.new_micro <> x.old_micro;
    UPDATE jury_state SET version = version + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM jury_pending);
    INSERT INTO juror_versions (address, version, stake_micro)
    SELECT p.address, (SELECT st.version FROM jury_state AS st WHERE st.id = 1), p.new_micro FROM jury_pending AS p;
    INSERT INTO jury_sums (prefix, version, total_micro, jurors)
    SELECT d.prefix, (SELECT st.version FROM jury_state AS st WHERE st.id = 1),
        COALESCE((SELECT s.total_micro FROM jury_sums AS s WHERE s.prefix = d.prefix ORDER BY s.version DESC LIMIT 1), 0) + d.dt,
        COALESCE((SELECT s.jurors FROM jury_sums AS s WHERE s.prefix = d.prefix ORDER BY s.version DESC LIMIT 1), 0) + d.dj
    FROM (
        SELECT q.prefix AS prefix, SUM(q.dt) AS dt, SUM(q.dj) AS dj FROM (
            SELECT '' AS prefix, p.new_micro - p.old_micro AS dt,
                (CASE WHEN p.new_micro > 0 THEN 1 ELSE 0 END) - (CASE WHEN p.old_micro > 0 THEN 1 ELSE 0 END) AS dj FROM jury_pending AS p
            UNION ALL SELECT substr(p.address, 3, 1), p.new_micro - p.old_micro,
                (CASE WHEN p.new_micro > 0 THEN 1 ELSE 0 END) - (CASE WHEN p.old_micro > 0 THEN 1 ELSE 0 END) FROM jury_pending AS p
            UNION ALL SELECT substr(p.address, 3, 2), p.new_micro - p.old_micro,
                (CASE WHEN p.new_micro > 0 THEN 1 ELSE 0 END) - (CASE WHEN p.old_micro > 0 THEN 1 ELSE 0 END) FROM jury_pending AS p
            UNION ALL SELECT substr(p.address, 3, 3), p.new_micro - p.old_micro,
                (CASE WHEN p.new_micro > 0 THEN 1 ELSE 0 END) - (CASE WHEN p.old_micro > 0 THEN 1 ELSE 0 END) FROM jury_pending AS p
            UNION ALL SELECT substr(p.address, 3, 4), p.new_micro - p.old_micro,
                (CASE WHEN p.new_micro > 0 THEN 1 ELSE 0 END) - (CASE WHEN p.old_micro > 0 THEN 1 ELSE 0 END) FROM jury_pending AS p
        ) AS q GROUP BY q.prefix
    ) AS d
    WHERE d.dt <> 0 OR d.dj <> 0;
    DELETE FROM jury_pending;
END;
--bun:split
CREATE TRIGGER stakes_jury_insert AFTER INSERT ON stakes BEGIN
    INSERT INTO jury_touch (address) VALUES (NEW.address);
END;
--bun:split
CREATE TRIGGER stakes_jury_update AFTER UPDATE OF staked_micro ON stakes WHEN OLD.staked_micro <> NEW.staked_micro BEGIN
    INSERT INTO jury_touch (address) VALUES (NEW.address);
END;
--bun:split
CREATE TRIGGER reputation_jury_insert AFTER INSERT ON reputation BEGIN
    INSERT INTO jury_touch (address) VALUES (NEW.address);
END;
--bun:split
CREATE TRIGGER reputation_jury_update AFTER UPDATE OF score ON reputation WHEN OLD.score <> NEW.score BEGIN
    INSERT INTO jury_touch (address) VALUES (NEW.address);
END;
--bun:split

-- A job's draw: the eligible set's version pinned at the job's creation,
-- the seed (server: 32 random bytes; block: the hash of block seed_block,
-- NULL until the draw), and what the draw found. eligible_hash is filled
-- in after the draw (it reads the whole set).
CREATE TABLE jury_draws (
    job_id           TEXT    PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    size             INTEGER NOT NULL CHECK (size BETWEEN 1 AND 101),
    sponsor_address  TEXT    NOT NULL,
    version          INTEGER NOT NULL CHECK (version >= 0),
    seed_source      TEXT    NOT NULL CHECK (seed_source IN ('server', 'block')),
    seed_block       INTEGER,
    seed             TEXT,
    drawn_at         INTEGER,
    eligible_count   INTEGER,
    eligible_micro   INTEGER,
    eligible_hash    TEXT,
    created_at       INTEGER NOT NULL,
    CHECK ((seed IS NULL) = (drawn_at IS NULL))
) STRICT;
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
    ord           INTEGER NOT NULL CHECK (ord >= 0),
    stake_micro   INTEGER NOT NULL CHECK (stake_micro > 0),
    job_status    TEXT    NOT NULL CHECK (job_status IN ('open', 'closed')),
    PRIMARY KEY (job_id, juror_address),
    UNIQUE (job_id, ord)
) STRICT, WITHOUT ROWID;
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
    created_at    INTEGER NOT NULL,
    revealed_at   INTEGER,
    PRIMARY KEY (job_id, voter_address)
) STRICT, WITHOUT ROWID;
--bun:split

-- A close credits the coherent jurors of a submission a chunk at a time,
-- in voter order.
CREATE INDEX votes_submission_voter_idx ON votes (submission_id, voter_address);
--bun:split

-- AGR gains the reason 'jury' (a coherent juror's credit), at most once
-- per (job, address). SQLite cannot change a CHECK in place: the table is
-- rebuilt.
CREATE TABLE agr_ledger_new (
    id         TEXT    PRIMARY KEY,
    address    TEXT    NOT NULL,
    delta      INTEGER NOT NULL CHECK (delta <> 0),
    reason     TEXT    NOT NULL CHECK (reason IN ('win', 'boost', 'dev_mint', 'jury')),
    job_id     TEXT,
    created_at INTEGER NOT NULL
) STRICT;
--bun:split
INSERT INTO agr_ledger_new (id, address, delta, reason, job_id, created_at)
SELECT id, address, delta, reason, job_id, created_at FROM agr_ledger;
--bun:split
DROP TABLE agr_ledger;
--bun:split
ALTER TABLE agr_ledger_new RENAME TO agr_ledger;
--bun:split
CREATE UNIQUE INDEX agr_ledger_win_job_key ON agr_ledger (job_id) WHERE reason = 'win';
--bun:split
CREATE UNIQUE INDEX agr_ledger_jury_job_address_key ON agr_ledger (job_id, address) WHERE reason = 'jury';
--bun:split
CREATE INDEX agr_ledger_address_created_at_id_idx ON agr_ledger (address, created_at DESC, id DESC);
