-- OpenJury schema, version 1: sign-in challenges, bearer tokens, jobs.
-- SQLite STRICT tables. Times are Unix milliseconds, money is micro-USDC,
-- ids are TEXT. Keep in step with ../postgres.

CREATE TABLE auth_challenges (
    nonce        TEXT    PRIMARY KEY,
    address      TEXT    NOT NULL,
    message      TEXT    NOT NULL,
    issued_at    INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    failed_tries INTEGER NOT NULL DEFAULT 0 CHECK (failed_tries >= 0)
) STRICT;
--bun:split
CREATE INDEX auth_challenges_address_issued_at_idx ON auth_challenges (address, issued_at);
--bun:split
CREATE INDEX auth_challenges_expires_at_idx ON auth_challenges (expires_at);
--bun:split

CREATE TABLE auth_tokens (
    hash       TEXT    PRIMARY KEY,
    address    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX auth_tokens_expires_at_idx ON auth_tokens (expires_at);
--bun:split

CREATE TABLE jobs (
    id                     TEXT    PRIMARY KEY,
    title                  TEXT    NOT NULL,
    prompt                 TEXT    NOT NULL,
    bounty_micro           INTEGER NOT NULL CHECK (bounty_micro >= 0),
    tags                   TEXT    NOT NULL DEFAULT '[]',
    status                 TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    sponsor_address        TEXT    NOT NULL,
    created_at             INTEGER NOT NULL,
    winner_submission_id   TEXT,
    closed_at              INTEGER,
    close_tx_hash          TEXT,
    close_chain_id         INTEGER,
    close_contract_address TEXT,
    close_block_number     INTEGER,
    close_log_index        INTEGER,
    featured_score         INTEGER NOT NULL DEFAULT 0 CHECK (featured_score >= 0),
    featured_until         INTEGER,
    final_vote_starts_at   INTEGER NOT NULL,
    final_vote_ends_at     INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX jobs_created_at_id_idx ON jobs (created_at DESC, id DESC);
--bun:split
CREATE INDEX jobs_status_created_at_id_idx ON jobs (status, created_at DESC, id DESC);
--bun:split

CREATE TABLE job_tags (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    tag    TEXT NOT NULL,
    PRIMARY KEY (job_id, tag)
) STRICT, WITHOUT ROWID;
--bun:split
CREATE INDEX job_tags_tag_job_id_idx ON job_tags (tag, job_id);
