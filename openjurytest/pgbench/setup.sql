-- The pgbench scripts' inputs, from a database the load tool seeded
-- (go run ./openjurytest/load -dsn postgres://... -seed 2000 -seed-only):
-- its open jobs and staked wallets, numbered from 1.
DROP TABLE IF EXISTS bench_jobs, bench_agents;
CREATE TABLE bench_jobs AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM jobs WHERE status = 'open';
CREATE TABLE bench_agents AS SELECT row_number() OVER (ORDER BY address) AS n, address FROM stakes;
CREATE UNIQUE INDEX ON bench_jobs (n);
CREATE UNIQUE INDEX ON bench_agents (n);
ANALYZE bench_jobs, bench_agents;
