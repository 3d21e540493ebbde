-- OpenJury schema: event_keys is stored clustered by its primary key (key,
-- seq), WITHOUT ROWID: a key is then one B-tree entry and its seq index
-- one more, where a rowid table kept the row, its primary key's index and
-- the seq index (the sequencer writes several keys an event). Same
-- columns, same rows. PostgreSQL keeps its table (../postgres).
CREATE TABLE event_keys_clustered (
    key TEXT   NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (key, seq)
) STRICT, WITHOUT ROWID;
--bun:split
INSERT INTO event_keys_clustered (key, seq) SELECT key, seq FROM event_keys ORDER BY key, seq;
--bun:split
DROP TABLE event_keys;
--bun:split
ALTER TABLE event_keys_clustered RENAME TO event_keys;
--bun:split
CREATE INDEX event_keys_seq_idx ON event_keys (seq);
