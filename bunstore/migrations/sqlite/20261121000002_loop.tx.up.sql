-- OpenJury schema, version 2: stakes and slashes, AGR balances and ledger,
-- submissions, jury and final votes, reputation.
-- SQLite STRICT tables. Times are Unix milliseconds, money is micro-USDC,
-- AGR amounts are integers, ids are TEXT. Keep in step with ../postgres.

CREATE TABLE stakes (
    address          TEXT    PRIMARY KEY,
    staked_micro     INTEGER NOT NULL CHECK (staked_micro >= 0),
    tx_hash          TEXT,
    chain_id         INTEGER,
    contract_address TEXT,
    block_number     INTEGER,
    log_index        INTEGER,
    updated_at       INTEGER NOT NULL
) STRICT;
--bun:split

CREATE TABLE slash_events (
    id                TEXT    PRIMARY KEY,
    agent_address     TEXT    NOT NULL,
    amount_micro      INTEGER NOT NULL CHECK (amount_micro >= 0),
    recipient_address TEXT,
    job_id            TEXT,
    tx_hash           TEXT,
    chain_id          INTEGER,
    contract_address  TEXT,
    block_number      INTEGER,
    log_index         INTEGER,
    created_at        INTEGER NOT NULL
) STRICT;
--bun:split
-- One event per onchain reference; a missing chain id or log index counts
-- as a value (-1 never occurs: both are validated non-negative).
CREATE UNIQUE INDEX slash_events_chain_ref_key ON slash_events ((COALESCE(chain_id, -1)), tx_hash, (COALESCE(log_index, -1)))
    WHERE tx_hash IS NOT NULL;
--bun:split
CREATE INDEX slash_events_created_at_id_idx ON slash_events (created_at DESC, id DESC);
--bun:split
CREATE INDEX slash_events_agent_created_at_id_idx ON slash_events (agent_address, created_at DESC, id DESC);
--bun:split
CREATE INDEX slash_events_job_created_at_id_idx ON slash_events (job_id, created_at DESC, id DESC);
--bun:split

CREATE TABLE agr_balances (
    address TEXT    PRIMARY KEY,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    earned  INTEGER NOT NULL CHECK (earned >= 0),
    spent   INTEGER NOT NULL CHECK (spent >= 0)
) STRICT;
--bun:split

CREATE TABLE agr_ledger (
    id         TEXT    PRIMARY KEY,
    address    TEXT    NOT NULL,
    delta      INTEGER NOT NULL CHECK (delta <> 0),
    reason     TEXT    NOT NULL CHECK (reason IN ('win', 'boost', 'dev_mint')),
    job_id     TEXT,
    created_at INTEGER NOT NULL
) STRICT;
--bun:split
-- At most one win mint per job.
CREATE UNIQUE INDEX agr_ledger_win_job_key ON agr_ledger (job_id) WHERE reason = 'win';
--bun:split
CREATE INDEX agr_ledger_address_created_at_id_idx ON agr_ledger (address, created_at DESC, id DESC);
--bun:split

CREATE TABLE submissions (
    id            TEXT    PRIMARY KEY,
    job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    agent_address TEXT    NOT NULL,
    content       TEXT    NOT NULL,
    evidence      TEXT    NOT NULL DEFAULT '[]',
    created_at    INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX submissions_job_created_at_id_idx ON submissions (job_id, created_at, id);
--bun:split
CREATE INDEX submissions_job_agent_idx ON submissions (job_id, agent_address);
--bun:split

CREATE TABLE votes (
    id            TEXT    PRIMARY KEY,
    job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    submission_id TEXT    NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    voter_address TEXT    NOT NULL,
    weight        INTEGER NOT NULL CHECK (weight >= 1),
    review        TEXT,
    created_at    INTEGER NOT NULL,
    UNIQUE (job_id, voter_address)
) STRICT;
--bun:split
CREATE INDEX votes_submission_idx ON votes (submission_id);
--bun:split

CREATE TABLE final_votes (
    id            TEXT    PRIMARY KEY,
    job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    submission_id TEXT    NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    voter_address TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    UNIQUE (job_id, voter_address)
) STRICT;
--bun:split
CREATE INDEX final_votes_submission_idx ON final_votes (submission_id);
--bun:split

CREATE TABLE reputation (
    address     TEXT    PRIMARY KEY,
    score       INTEGER NOT NULL,
    wins        INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses      INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    submissions INTEGER NOT NULL DEFAULT 0 CHECK (submissions >= 0),
    jury_votes  INTEGER NOT NULL DEFAULT 0 CHECK (jury_votes >= 0),
    updated_at  INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX reputation_score_address_idx ON reputation (score DESC, address ASC);
