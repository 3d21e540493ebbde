-- OpenJury schema: the bounty escrow (issue 23). PostgreSQL. Keep in step with ../sqlite.
--
-- The stake sync also follows the BountyEscrow contract: each confirmed
-- event of the slot of a job's sponsor is recorded once (escrow_events,
-- unique by chain, tx hash and log index) and moves the job's escrow_*
-- columns. A funded job's close stores its payouts (job_payouts), whose
-- Merkle root the operator settles on chain (docs/rules.md, "Escrow and
-- payouts").

-- job_key = keccak256(job id): the escrow's key of the job. Jobs created
-- before this migration get theirs in the marked step below (computed in
-- Go: neither database has keccak256).
ALTER TABLE jobs ADD COLUMN job_key TEXT;
--bun:split
-- The escrow state of the sponsor's slot (NULL: no escrow event yet):
-- status, confirmed funded total, refund time (Unix ms), the last event's
-- onchain reference, and the settled root and total with whether they
-- differ from the job's anchor_root and payout total.
ALTER TABLE jobs ADD COLUMN escrow_status TEXT CHECK (escrow_status IN ('unfunded', 'funded', 'settled', 'refunded'));
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_amount_micro BIGINT CHECK (escrow_amount_micro >= 0);
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_refund_after BIGINT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_tx_hash TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_chain_id BIGINT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_contract_address TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_block_number BIGINT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_log_index BIGINT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_root TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_total_micro BIGINT CHECK (escrow_total_micro >= 0);
--bun:split
ALTER TABLE jobs ADD COLUMN escrow_mismatch BIGINT NOT NULL DEFAULT 0 CHECK (escrow_mismatch IN (0, 1));
--bun:split
-- The total of the payouts a funded close made (F); NULL for a close
-- without payouts.
ALTER TABLE jobs ADD COLUMN payout_total_micro BIGINT CHECK (payout_total_micro >= 0);
--bun:split
--openjury:fill-job-keys
--bun:split
CREATE UNIQUE INDEX jobs_job_key_idx ON jobs (job_key);
--bun:split
-- GET /api/v1/jobs?funded=true walks these, in the list's order.
CREATE INDEX jobs_funded_created_at_id_idx ON jobs (created_at DESC, id DESC) WHERE escrow_status = 'funded';
--bun:split
CREATE INDEX jobs_funded_status_created_at_id_idx ON jobs (status, created_at DESC, id DESC) WHERE escrow_status = 'funded';
--bun:split

-- The payouts of a closed funded job, one per recipient (the records of
-- its snapshot); roles is a JSON array.
CREATE TABLE job_payouts (
    job_id       TEXT    NOT NULL REFERENCES jobs (id),
    recipient    TEXT    NOT NULL,
    amount_micro BIGINT  NOT NULL CHECK (amount_micro > 0),
    roles        TEXT    NOT NULL,
    PRIMARY KEY (job_id, recipient)
);
--bun:split

-- The escrow events of jobs' sponsors' slots, each recorded once. kind:
-- funded (amount, total, refund_after), settled (root, total), claimed
-- (recipient, amount), refunded (amount).
CREATE TABLE escrow_events (
    chain_id         BIGINT  NOT NULL,
    tx_hash          TEXT    NOT NULL,
    log_index        BIGINT  NOT NULL,
    job_id           TEXT    NOT NULL REFERENCES jobs (id),
    kind             TEXT    NOT NULL CHECK (kind IN ('funded', 'settled', 'claimed', 'refunded')),
    contract_address TEXT    NOT NULL,
    block_number     BIGINT  NOT NULL,
    sponsor          TEXT    NOT NULL,
    recipient        TEXT,
    amount_micro     BIGINT  CHECK (amount_micro >= 0),
    total_micro      BIGINT  CHECK (total_micro >= 0),
    refund_after     BIGINT,
    root             TEXT,
    created_at       BIGINT  NOT NULL,
    PRIMARY KEY (chain_id, tx_hash, log_index)
);
--bun:split
-- A job's payouts list finds each recipient's claim here.
CREATE INDEX escrow_events_job_recipient_idx ON escrow_events (job_id, recipient) WHERE kind = 'claimed';
