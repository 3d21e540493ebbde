-- OpenJury schema: anchor snapshots of closed jobs (issue 9).
-- SQLite STRICT tables. Times are Unix milliseconds, ids are TEXT.
-- Keep in step with ../postgres.

-- The anchor_* columns of a job: its snapshot batch, written in the close
-- or finalize transaction, and the onchain receipt of the root's posting,
-- set once by a conditional update (WHERE anchor_tx_hash IS NULL).
ALTER TABLE jobs ADD COLUMN anchor_batch_id TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_root TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_uri TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_schema_version INTEGER;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_salt TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_created_at INTEGER;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_tx_hash TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_chain_id INTEGER;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_contract_address TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_block_number INTEGER;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_log_index INTEGER;
--bun:split

-- One snapshot batch per job (job_id UNIQUE): the canonical document,
-- served byte for byte.
CREATE TABLE anchor_batches (
    id         TEXT    PRIMARY KEY,
    job_id     TEXT    NOT NULL UNIQUE REFERENCES jobs (id),
    created_at INTEGER NOT NULL,
    document   BLOB    NOT NULL
) STRICT;
