-- OpenJury schema: closing at any size (issue 20).
-- SQLite STRICT tables. Keep in step with ../postgres.
--
-- A close no longer builds its snapshot inside the job's lock: it takes a
-- closing lease on the job, streams the records into staged rows
-- (anchor_records, anchor_nodes, anchor_leaf_index) outside any long
-- transaction, and makes them the job's batch in a short last transaction (docs/rules.md,
-- "Closing at any size"). Batches written before keep being served byte
-- for byte: this migration converts their stored documents and proofs
-- into the new tables (bunstore/migrate.go runs the marked step in Go, in
-- this migration's transaction) and then drops the old storage.

-- records_rev counts the changes to a job's snapshot records that a lease
-- does not hold off (comments on the job and its submissions, and their
-- deletion), bumped under the job's lock. closing_id and closing_until are
-- the closing lease (until: Unix ms; live while closing_until > now).
ALTER TABLE jobs ADD COLUMN records_rev INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE jobs ADD COLUMN closing_id TEXT;
--bun:split
ALTER TABLE jobs ADD COLUMN closing_until INTEGER;
--bun:split
-- The batch's number of records (the salt not counted) and document size
-- in bytes.
ALTER TABLE jobs ADD COLUMN anchor_records INTEGER;
--bun:split
ALTER TABLE jobs ADD COLUMN anchor_size INTEGER;
--bun:split

-- A comment's job (the job it is on, or its submission's job; NULL for a
-- post's comment), so a close reads a job's comments in (created_at, id)
-- order from one index; rev and deleted_rev are the job's records_rev
-- after the comment's insert and after its delete. Comments deleted before
-- now count as deleted at rev 0.
ALTER TABLE comments ADD COLUMN job_id TEXT;
--bun:split
ALTER TABLE comments ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE comments ADD COLUMN deleted_rev INTEGER;
--bun:split
UPDATE comments SET job_id = target_id WHERE target_type = 'job';
--bun:split
UPDATE comments SET job_id = (SELECT s.job_id FROM submissions AS s WHERE s.id = comments.target_id)
WHERE target_type = 'submission';
--bun:split
UPDATE comments SET deleted_rev = 0 WHERE deleted_at IS NOT NULL;
--bun:split
CREATE INDEX comments_job_created_at_id_idx ON comments (job_id, created_at, id);
--bun:split
-- A close reads a job's current votes in (created_at, id) order.
CREATE INDEX votes_job_created_at_id_idx ON votes (job_id, created_at, id);
--bun:split
CREATE INDEX final_votes_job_created_at_id_idx ON final_votes (job_id, created_at, id);
--bun:split

-- The builds in progress: a close registers its batch id here with its
-- lease and the batch forgets it when it commits; a build left behind (a
-- crashed or failed close) is found by age and its staged rows deleted.
CREATE TABLE anchor_builds (
    batch_id   TEXT    PRIMARY KEY,
    job_id     TEXT    NOT NULL REFERENCES jobs (id),
    started_at INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX anchor_builds_started_at_idx ON anchor_builds (started_at);
--bun:split

-- The records of a batch in document order (ord from 0, the job): each
-- one's record id and canonical bytes. A batch's document is its frame
-- (created_at, job_id, root, salt, schema_version) around these bodies
-- joined by commas.
CREATE TABLE anchor_records (
    batch_id  TEXT    NOT NULL,
    ord       INTEGER NOT NULL,
    record_id TEXT    NOT NULL,
    body      BLOB    NOT NULL,
    PRIMARY KEY (batch_id, ord)
) STRICT;
--bun:split
CREATE UNIQUE INDEX anchor_records_record_key ON anchor_records (batch_id, record_id);
--bun:split

-- The Merkle tree of a batch, level by level (level 0: the sorted
-- leaves), packed: row (level, chunk) holds the nodes chunk*128 ..
-- chunk*128+127 of the level, 32 bytes each, so a proof is O(log n)
-- primary-key reads and a close writes one row per 128 nodes.
CREATE TABLE anchor_nodes (
    batch_id TEXT    NOT NULL,
    level    INTEGER NOT NULL CHECK (level >= 0),
    chunk    INTEGER NOT NULL CHECK (chunk >= 0),
    hashes   BLOB    NOT NULL CHECK (length(hashes) BETWEEN 32 AND 4096 AND length(hashes) % 32 = 0),
    PRIMARY KEY (batch_id, level, chunk)
) STRICT;
--bun:split

-- Where each record's leaf is among the sorted leaves: row chunk holds,
-- for the records of ords chunk*1024 .. chunk*1024+1023, the index of
-- their leaf as 4 bytes big-endian each; row -1 holds the salt's.
CREATE TABLE anchor_leaf_index (
    batch_id TEXT    NOT NULL,
    chunk    INTEGER NOT NULL CHECK (chunk >= -1),
    idxs     BLOB    NOT NULL CHECK (length(idxs) BETWEEN 4 AND 4096 AND length(idxs) % 4 = 0),
    PRIMARY KEY (batch_id, chunk)
) STRICT;
--bun:split

-- Here every batch written before this migration is converted: its
-- document parsed into anchor_records and its tree into anchor_nodes and
-- anchor_leaf_index (checked to give the document back byte for byte),
-- and the job's anchor_records and anchor_size set.
--openjury:convert-legacy-anchors
--bun:split
DROP TABLE anchor_proofs;
--bun:split
ALTER TABLE anchor_batches DROP COLUMN document;
