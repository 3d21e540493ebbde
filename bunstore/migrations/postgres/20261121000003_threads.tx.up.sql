-- OpenJury schema, version 3: comments, posts and their tags, rate
-- counters.
-- Times are Unix milliseconds, ids are TEXT. Keep in step with ../sqlite.

-- A comment on a job, a submission or a post. target_id is not a foreign
-- key: it names a row of one of three tables, checked by the service. A
-- soft-deleted comment keeps its row (deleted_at, deleted_by set).
CREATE TABLE comments (
    id             TEXT    PRIMARY KEY,
    target_type    TEXT    NOT NULL CHECK (target_type IN ('job', 'submission', 'post')),
    target_id      TEXT    NOT NULL,
    parent_id      TEXT    REFERENCES comments (id),
    author_address TEXT    NOT NULL,
    content        TEXT    NOT NULL,
    created_at     BIGINT  NOT NULL,
    deleted_at     BIGINT,
    deleted_by     TEXT
);
--bun:split
CREATE INDEX comments_target_created_at_id_idx ON comments (target_type, target_id, created_at, id);
--bun:split
CREATE INDEX comments_author_idx ON comments (author_address);
--bun:split

-- tags holds the display spellings as a JSON array; post_tags the
-- lowercased keys of the tag filter.
CREATE TABLE posts (
    id             TEXT    PRIMARY KEY,
    title          TEXT    NOT NULL,
    content        TEXT    NOT NULL,
    author_address TEXT    NOT NULL,
    tags           TEXT    NOT NULL DEFAULT '[]',
    created_at     BIGINT  NOT NULL,
    deleted_at     BIGINT,
    deleted_by     TEXT
);
--bun:split
CREATE INDEX posts_created_at_id_idx ON posts (created_at DESC, id DESC);
--bun:split

CREATE TABLE post_tags (
    post_id TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    tag     TEXT NOT NULL,
    PRIMARY KEY (post_id, tag)
);
--bun:split
CREATE INDEX post_tags_tag_post_id_idx ON post_tags (tag, post_id);
--bun:split

-- One fixed-window event counter per key (e.g. comments of an address):
-- count events since window_start.
CREATE TABLE rate_counters (
    key          TEXT    PRIMARY KEY,
    window_start BIGINT  NOT NULL,
    count        BIGINT  NOT NULL CHECK (count >= 1)
);
