-- Sign-in challenges no longer count failures (no lock-out: CONTRACT "Auth"),
-- and are found per address by expiry, so expired rows not yet cleaned up
-- are never scanned.
ALTER TABLE auth_challenges DROP COLUMN failed_tries;
--bun:split
DROP INDEX auth_challenges_address_issued_at_idx;
--bun:split
CREATE INDEX auth_challenges_address_expires_at_idx ON auth_challenges (address, expires_at);
--bun:split

-- Idempotency-Key records of authenticated POSTs (CONTRACT "Conventions"):
-- one row per caller and (method, path, key) digest; status 0 while the
-- first request is in flight (until lease_until), then its response.
CREATE TABLE idempotency_keys (
    caller       TEXT    NOT NULL,
    scope        TEXT    NOT NULL,
    fingerprint  TEXT    NOT NULL,
    owner        TEXT    NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0 CHECK (status = 0 OR (status >= 100 AND status < 500)),
    content_type TEXT    NOT NULL DEFAULT '',
    body         TEXT    NOT NULL DEFAULT '',
    lease_until  BIGINT  NOT NULL,
    expires_at   BIGINT  NOT NULL,
    PRIMARY KEY (caller, scope)
);
--bun:split
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
