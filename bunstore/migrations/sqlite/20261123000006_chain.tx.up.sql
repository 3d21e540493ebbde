-- OpenJury schema: the stake-vault sync (issue 10). One lease row per sync
-- (the replica holding an unexpired lease runs it; taken and renewed by
-- conditional statements, no advisory locks) and its cursor (the next block
-- to scan, moved in the same transaction as the rows it covers). Times are
-- Unix milliseconds. Keep in step with ../postgres.

CREATE TABLE sync_leases (
    name       TEXT    PRIMARY KEY,
    owner      TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
--bun:split

CREATE TABLE sync_cursors (
    name       TEXT    PRIMARY KEY,
    next_block INTEGER NOT NULL CHECK (next_block >= 0),
    updated_at INTEGER NOT NULL
) STRICT;
