-- OpenJury schema: signed webhooks and A2A tasks with push notifications
-- (issue 25). SQLite. Times are Unix milliseconds. Keep in step with
-- ../postgres.

-- An endpoint: a webhook an address registered (kind 'webhook': its
-- secret signs each delivery, Standard Webhooks), or the push
-- notification config of an A2A task (kind 'a2a': token and
-- authentication of the A2A config). types, job_id and tag filter the
-- events it receives. failing_since is when it began failing every
-- delivery; disabled_at and disabled_reason tell why deliveries stopped.
CREATE TABLE webhooks (
    id               TEXT   PRIMARY KEY,
    kind             TEXT   NOT NULL CHECK (kind IN ('webhook', 'a2a')),
    owner_address    TEXT   NOT NULL,
    url              TEXT   NOT NULL,
    types            TEXT   NOT NULL DEFAULT '[]',
    job_id           TEXT,
    tag              TEXT,
    secret           TEXT   NOT NULL DEFAULT '',
    previous_secret  TEXT,
    previous_until   INTEGER,
    task_id          TEXT,
    config_id        TEXT,
    token            TEXT,
    auth_scheme      TEXT,
    auth_credentials TEXT,
    protocol         TEXT,
    created_at       INTEGER NOT NULL,
    failing_since    INTEGER,
    disabled_at      INTEGER,
    disabled_reason  TEXT
) STRICT;
--bun:split
CREATE INDEX webhooks_owner_idx ON webhooks (owner_address, kind, created_at);
--bun:split
CREATE INDEX webhooks_job_id_idx ON webhooks (job_id) WHERE job_id IS NOT NULL;
--bun:split
CREATE INDEX webhooks_tag_idx ON webhooks (tag) WHERE tag IS NOT NULL;
--bun:split
CREATE INDEX webhooks_catch_all_idx ON webhooks (created_at) WHERE job_id IS NULL AND tag IS NULL;
--bun:split
CREATE UNIQUE INDEX webhooks_task_config_key ON webhooks (task_id, config_id) WHERE task_id IS NOT NULL;
--bun:split

-- How many endpoints a key holds ('webhook:<address>', 'a2a:<task id>'):
-- the row lock of its upsert serialises racing creates, so a limit holds.
CREATE TABLE webhook_counts (
    key TEXT    PRIMARY KEY,
    n   INTEGER NOT NULL CHECK (n >= 0)
) STRICT;
--bun:split

-- A delivery of one event to one endpoint. A worker leases it
-- (lease_until) while it sends an attempt.
CREATE TABLE webhook_deliveries (
    id              TEXT     PRIMARY KEY,
    webhook_id      TEXT     NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_seq       INTEGER   NOT NULL,
    event_type      TEXT     NOT NULL,
    status          TEXT     NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER  NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at INTEGER,
    lease_until     INTEGER   NOT NULL DEFAULT 0,
    last_attempt_at INTEGER,
    response_status INTEGER,
    error           TEXT,
    created_at      INTEGER   NOT NULL,
    delivered_at    INTEGER,
    redelivery      INTEGER  NOT NULL DEFAULT 0 CHECK (redelivery IN (0, 1))
) STRICT;
--bun:split
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
--bun:split
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at, id);
--bun:split
CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at) WHERE status <> 'pending';
--bun:split

-- An A2A task: a job posted or work submitted through A2A. Its state is
-- read from the job when asked (tasks/get).
CREATE TABLE a2a_tasks (
    id            TEXT   PRIMARY KEY,
    context_id    TEXT   NOT NULL,
    owner_address TEXT   NOT NULL,
    kind          TEXT   NOT NULL CHECK (kind IN ('job', 'submission')),
    job_id        TEXT   NOT NULL,
    submission_id TEXT,
    created_at    INTEGER NOT NULL
) STRICT;
--bun:split
CREATE INDEX a2a_tasks_job_id_idx ON a2a_tasks (job_id);
