// Package storetest is the conformance suite of OpenJury's store ports.
// Every adapter runs it against each backend it supports:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, storetest.Features{RowLocks: true}, func(t *testing.T) storetest.Backend {
//			return openMyBackend(t) // fresh and empty, closed in t.Cleanup
//		})
//	}
//
// The suite checks behaviour the domain relies on but cannot see through
// its fakes: exact round trips, the list order and its keyset pages, error
// kinds, that a failed InTx leaves nothing behind, and that two conflicting
// concurrent writes give exactly one winner.
package storetest

import (
	"testing"

	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/marketplace"
)

// Backend is what the suite tests: every store port of one database. The
// marketplace.DB gives the job, submission, jury and final vote,
// reputation, comment, post, rate, closing (Anchors, Snapshots) and search
// queue stores and agr.Store and stake.Store (AGR, Stake), each outside a
// transaction and, through InTx, bound to one.
type Backend interface {
	marketplace.DB
	auth.Store
	anchor.Store
}

// Features describes what a backend does beyond the ports' contracts, so
// the suite can test it.
type Features struct {
	// RowLocks means JobForUpdate locks just the job's row until the
	// transaction ends: a transaction locking another job runs meanwhile,
	// one locking the same job waits for the first to finish and then reads
	// its committed changes (PostgreSQL). Backends without it serialise
	// whole write transactions instead (SQLite).
	RowLocks bool
}

// Run runs the suite. newBackend must return a fresh, empty backend for
// each call and release it in t.Cleanup; subtests call it and run in
// parallel.
func Run(t *testing.T, f Features, newBackend func(t *testing.T) Backend) {
	t.Helper()
	s := &suite{f: f, newBackend: newBackend}
	groups := []struct {
		name  string
		tests []test
	}{
		{"Jobs", s.jobTests()},
		{"Tx", s.txTests()},
		{"Auth", s.authTests()},
		{"Stake", s.stakeTests()},
		{"AGR", s.agrTests()},
		{"Submissions", s.submissionTests()},
		{"Votes", s.voteTests()},
		{"FinalVotes", s.finalVoteTests()},
		{"Reputation", s.reputationTests()},
		{"Comments", s.commentTests()},
		{"Posts", s.postTests()},
		{"Rates", s.rateTests()},
		{"Closing", s.closingTests()},
		{"Anchors", s.anchorTests()},
		{"Sync", s.syncTests()},
		{"Escrow", s.escrowTests()},
		{"Search", s.searchTests()},
		{"Idempotency", s.idempotencyTests()},
		{"Profile", s.profileTests()},
		{"Jury", s.juryTests()},
		{"Events", s.eventTests()},
		{"Webhooks", s.webhookTests()},
		{"A2ATasks", s.a2aTaskTests()},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					if tc.skip != nil {
						if why := tc.skip(f); why != "" {
							t.Skip(why)
						}
					}
					tc.run(t, newBackend(t))
				})
			}
		})
	}
}

// test is one scenario; skip, when set, returns why it does not apply.
type test struct {
	name string
	run  func(t *testing.T, b Backend)
	skip func(f Features) string
}

type suite struct {
	f          Features
	newBackend func(t *testing.T) Backend
}
