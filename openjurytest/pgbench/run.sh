#!/bin/bash
# run.sh SCRIPT CLIENTS SECONDS SUBMISSIONS_PER_TRANSACTION
# Runs a pgbench script against the PostgreSQL server whose data
# directory is $PGDATA (listening on 127.0.0.1:$PGPORT, database $PGDATABASE)
# and prints submissions a second and the server's CPU a submission: the
# CPU its exited backends used, from the postmaster's children's times.
set -euo pipefail
script=$1 clients=$2 seconds=$3 per=$4
pm=$(head -1 "$PGDATA/postmaster.pid")
hz=$(getconf CLK_TCK)
cpu() { awk '{print $16 + $17}' "/proc/$pm/stat"; }
before=$(cpu)
out=$(pgbench -h 127.0.0.1 -p "$PGPORT" -n -M prepared -c "$clients" -j 2 -T "$seconds" -f "$script" "$PGDATABASE" 2>&1)
sleep 0.5
after=$(cpu)
tx=$(echo "$out" | awk '/number of transactions actually processed/ {split($NF, a, "/"); print a[1]}')
tps=$(echo "$out" | awk '/^tps/ {print $3}')
failed=$(echo "$out" | awk '/number of failed transactions/ {print $5}')
awk -v s="$script" -v c="$clients" -v tx="$tx" -v tps="$tps" -v per="$per" -v b="$before" -v a="$after" -v hz="$hz" -v f="$failed" 'BEGIN {
  printf "%s clients=%d submissions/s=%.0f server CPU/submission=%.0fus failed=%s\n", s, c, tps * per, (a - b) / hz * 1e6 / (tx * per), f }'
