-- OpenJury schema: the event log (issue 25).
-- SQLite. Times are Unix milliseconds. Keep in step with ../postgres.
--
-- Every state change appends its events to event_outbox in its own
-- transaction. The sequencer (one pass at a time: the row lock of
-- event_marks 'seq', which other replicas skip) moves the events that have
-- committed into events, numbering them after the last number given, in
-- one transaction; so numbers become visible in order and a reader that
-- resumes after a number misses nothing (docs/rules.md#events).

-- pk orders the outbox by write. An event whose created_at is in the
-- future is a timer: it waits until then.
CREATE TABLE event_outbox (
    pk         INTEGER PRIMARY KEY,
    type       TEXT   NOT NULL,
    job_id     TEXT,
    actor      TEXT,
    subjects   TEXT   NOT NULL DEFAULT '[]',
    audience   TEXT   NOT NULL DEFAULT '[]',
    tags       TEXT   NOT NULL DEFAULT '[]',
    data       TEXT   NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX event_outbox_created_at_idx ON event_outbox (created_at);
--bun:split
CREATE INDEX event_outbox_job_id_idx ON event_outbox (job_id, created_at) WHERE job_id IS NOT NULL;
--bun:split

-- The log: seq is the delivery order (an event's id is seq in hex).
-- restricted = 1 for an event with an audience (jury.drawn): only reads
-- filtered by an address of its audience return it.
CREATE TABLE events (
    seq        INTEGER   PRIMARY KEY,
    type       TEXT     NOT NULL,
    job_id     TEXT,
    actor      TEXT,
    subjects   TEXT     NOT NULL,
    audience   TEXT     NOT NULL,
    restricted INTEGER  NOT NULL CHECK (restricted IN (0, 1)),
    tags       TEXT     NOT NULL,
    data       TEXT     NOT NULL,
    created_at INTEGER   NOT NULL
) STRICT;
--bun:split
CREATE INDEX events_job_id_seq_idx ON events (job_id, seq) WHERE job_id IS NOT NULL;
--bun:split
CREATE INDEX events_type_seq_idx ON events (type, seq);
--bun:split

-- Index keys of the filters by address ('a:0x...') and tag ('t:tag'), so
-- that such a read is one index range in seq order.
CREATE TABLE event_keys (
    key TEXT   NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (key, seq)
) STRICT;
--bun:split
CREATE INDEX event_keys_seq_idx ON event_keys (seq);
--bun:split

-- Positions: 'seq' the last number given, 'horizon' the last number
-- retention deleted, 'webhooks' the last event the webhook dispatcher
-- turned into deliveries.
CREATE TABLE event_marks (
    name  TEXT   PRIMARY KEY,
    value INTEGER NOT NULL CHECK (value >= 0)
) STRICT;
--bun:split
INSERT INTO event_marks (name, value) VALUES ('seq', 0), ('horizon', 0), ('webhooks', 0);
