-- Sign-in challenges no longer count failures (no lock-out: CONTRACT "Auth"),
-- and are found per address by expiry, so expired rows not yet cleaned up
-- are never scanned.
ALTER TABLE auth_challenges DROP COLUMN failed_tries;
--bun:split
DROP INDEX auth_challenges_address_issued_at_idx;
--bun:split
CREATE INDEX auth_challenges_address_expires_at_idx ON auth_challenges (address, expires_at);
