package server

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
)

// maxSyncBackoff bounds the pause after repeated sync failures.
const maxSyncBackoff = time.Minute

// syncMetrics are the stake-vault sync's Prometheus collectors.
type syncMetrics struct {
	lag    prometheus.Gauge
	leader prometheus.Gauge
	events prometheus.Counter
	errors prometheus.Counter
}

// newSyncMetrics registers the sync's collectors on reg.
func newSyncMetrics(reg prometheus.Registerer) (*syncMetrics, error) {
	m := &syncMetrics{
		lag: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "openjury_stake_sync_lag_blocks",
			Help: "Blocks the stake-vault sync is behind the chain head (head minus the last synced block), as seen by the replica holding the sync lease.",
		}),
		leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "openjury_stake_sync_leader",
			Help: "1 while this replica holds the stake-vault sync lease, else 0.",
		}),
		events: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openjury_stake_sync_events_total",
			Help: "Stake-vault events written by this replica's sync.",
		}),
		errors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "openjury_stake_sync_errors_total",
			Help: "Failed stake-vault sync scans (RPC or database), each followed by a backoff.",
		}),
	}
	for _, c := range []prometheus.Collector{m.lag, m.leader, m.events, m.errors} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("stake sync metrics: %w", err)
		}
	}
	return m, nil
}

// syncOwner returns a lease owner id unique to this process: host name,
// pid and random bits.
func syncOwner() string {
	host, _ := os.Hostname()
	var b [6]byte
	_, _ = crand.Read(b[:])
	return host + ":" + strconv.Itoa(os.Getpid()) + ":" + hex.EncodeToString(b[:])
}

// syncLeaseTTL is how long the sync lease lasts without renewal: several
// polls, so a slow scan does not lose it, and short enough for another
// replica to take over soon after this one dies.
func syncLeaseTTL(poll time.Duration) time.Duration {
	return max(30*time.Second, 4*poll)
}

// runStakeSync runs the stake-vault sync until ctx ends: one Step, then
// at once again while behind, after poll when caught up or not the leader,
// and after a growing, jittered backoff when a step fails. On the way out
// it gives the lease up so another replica takes over at once.
func runStakeSync(ctx context.Context, logger *slog.Logger, syncer *stake.Syncer, m *syncMetrics, poll time.Duration) {
	failures := 0
	for {
		res, err := syncer.Step(ctx)
		wait := poll
		switch {
		case ctx.Err() != nil:
		case err != nil:
			failures++
			m.errors.Inc()
			wait = min(maxSyncBackoff, poll<<min(failures, 6))
			wait = wait/2 + rand.N(wait/2+1)
			logger.Warn("stake sync failed", slog.String("error", err.Error()),
				slog.Int("failures", failures), slog.Duration("retry_in", wait))
		default:
			failures = 0
			if res.Leader {
				m.leader.Set(1)
				m.lag.Set(float64(res.Lag()))
				m.events.Add(float64(res.Events))
				if res.Events > 0 {
					logger.Info("stake sync", slog.Int("events", res.Events), slog.Int64("next_block", res.Next), slog.Int64("head", res.Head))
				}
				if !res.CaughtUp {
					wait = 0
				}
			} else {
				m.leader.Set(0)
			}
		}
		select {
		case <-ctx.Done():
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := syncer.Release(rctx); err != nil {
				logger.Warn("releasing the stake sync lease", slog.String("error", err.Error()))
			}
			cancel()
			m.leader.Set(0)
			return
		case <-time.After(wait):
		}
	}
}

// runJurySteps runs the jury's background step until ctx ends, every poll
// (more often while it has work left): it draws the panels whose seed
// block has come and hashes the eligible sets of new draws, one replica
// at a time (the lease marketplace.JuryLeaseName, which another replica
// takes over once it expires).
func runJurySteps(ctx context.Context, logger *slog.Logger, market *marketplace.Service, poll time.Duration) {
	owner := syncOwner()
	failures := 0
	for {
		res, err := market.JuryStep(ctx, owner, syncLeaseTTL(poll))
		wait := poll
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			failures++
			wait = min(maxSyncBackoff, poll<<min(failures, 6))
			wait = wait/2 + rand.N(wait/2+1)
			logger.Warn("jury step failed", slog.String("error", err.Error()), slog.Int("failures", failures), slog.Duration("retry_in", wait))
		default:
			failures = 0
			if res.Drawn+res.Hashed > 0 {
				logger.Info("jury step", slog.Int("drawn", res.Drawn), slog.Int("hashed", res.Hashed))
				wait = 0
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
