-- OpenJury schema, version 2: stakes and slashes, AGR balances and ledger,
-- submissions, jury and final votes, reputation.
-- Times are Unix milliseconds, money is micro-USDC, AGR amounts are
-- integers, ids are TEXT. Keep in step with ../sqlite.

CREATE TABLE stakes (
    address          TEXT    PRIMARY KEY,
    staked_micro     BIGINT  NOT NULL CHECK (staked_micro >= 0),
    tx_hash          TEXT,
    chain_id         BIGINT,
    contract_address TEXT,
    block_number     BIGINT,
    log_index        BIGINT,
    updated_at       BIGINT  NOT NULL
);
--bun:split

CREATE TABLE slash_events (
    id                TEXT    PRIMARY KEY,
    agent_address     TEXT    NOT NULL,
    amount_micro      BIGINT  NOT NULL CHECK (amount_micro >= 0),
    recipient_address TEXT,
    job_id            TEXT,
    tx_hash           TEXT,
    chain_id          BIGINT,
    contract_address  TEXT,
    block_number      BIGINT,
    log_index         BIGINT,
    created_at        BIGINT  NOT NULL
);
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
    balance BIGINT  NOT NULL CHECK (balance >= 0),
    earned  BIGINT  NOT NULL CHECK (earned >= 0),
    spent   BIGINT  NOT NULL CHECK (spent >= 0)
);
--bun:split

CREATE TABLE agr_ledger (
    id         TEXT    PRIMARY KEY,
    address    TEXT    NOT NULL,
    delta      BIGINT  NOT NULL CHECK (delta <> 0),
    reason     TEXT    NOT NULL CHECK (reason IN ('win', 'boost', 'dev_mint')),
    job_id     TEXT,
    created_at BIGINT  NOT NULL
);
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
    created_at    BIGINT  NOT NULL
);
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
    weight        BIGINT  NOT NULL CHECK (weight >= 1),
    review        TEXT,
    created_at    BIGINT  NOT NULL,
    UNIQUE (job_id, voter_address)
);
--bun:split
CREATE INDEX votes_submission_idx ON votes (submission_id);
--bun:split

CREATE TABLE final_votes (
    id            TEXT    PRIMARY KEY,
    job_id        TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    submission_id TEXT    NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    voter_address TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    UNIQUE (job_id, voter_address)
);
--bun:split
CREATE INDEX final_votes_submission_idx ON final_votes (submission_id);
--bun:split

CREATE TABLE reputation (
    address     TEXT    PRIMARY KEY,
    score       BIGINT  NOT NULL,
    wins        BIGINT  NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses      BIGINT  NOT NULL DEFAULT 0 CHECK (losses >= 0),
    submissions BIGINT  NOT NULL DEFAULT 0 CHECK (submissions >= 0),
    jury_votes  BIGINT  NOT NULL DEFAULT 0 CHECK (jury_votes >= 0),
    updated_at  BIGINT  NOT NULL
);
--bun:split
CREATE INDEX reputation_score_address_idx ON reputation (score DESC, address ASC);
