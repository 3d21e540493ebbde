-- The pgbench scripts' inputs, from a database the load tool seeded
-- (go run ./openjurytest/load -dsn postgres://... -seed 2000 -seed-only):
-- its open jobs and staked wallets, numbered from 1. The seed stakes no
-- wallet (a load run does, through the dev API), so 64 are staked here.
INSERT INTO stakes (address, staked_micro, updated_at)
SELECT '0x' || lpad(to_hex(i), 40, '0'), 1000000000, 1 FROM generate_series(1, 64) AS i
ON CONFLICT (address) DO NOTHING;
DROP TABLE IF EXISTS bench_jobs, bench_agents;
CREATE TABLE bench_jobs AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM jobs WHERE status = 'open';
CREATE TABLE bench_agents AS SELECT row_number() OVER (ORDER BY address) AS n, address FROM stakes;
CREATE UNIQUE INDEX ON bench_jobs (n);
CREATE UNIQUE INDEX ON bench_agents (n);
ANALYZE bench_jobs, bench_agents;
