-- OpenJury schema: the stored Merkle proofs of anchor snapshots.
-- PostgreSQL. Keep in step with ../sqlite.

-- The proof of every record of a job's snapshot (and of its salt, record
-- id 'salt'), written with the batch in the close or finalize transaction,
-- so GET .../anchor/proof is one primary-key read instead of parsing the
-- whole document. leaf is the 32-byte leaf, proof the sibling nodes from
-- the leaf up, 32 bytes each, packed; the root is the job's anchor_root.
-- A batch written before this migration has no rows here: its proofs are
-- derived from its document.
CREATE TABLE anchor_proofs (
    job_id    TEXT  NOT NULL REFERENCES jobs (id),
    record_id TEXT  NOT NULL,
    leaf      BYTEA NOT NULL CHECK (octet_length(leaf) = 32),
    proof     BYTEA NOT NULL CHECK (octet_length(proof) % 32 = 0),
    PRIMARY KEY (job_id, record_id)
);
