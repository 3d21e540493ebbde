package bunstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// TestClusteredUpgrade: on SQLite, event_keys and search_pending are
// rebuilt WITHOUT ROWID; the events read by address and by tag, and the
// queued documents with their generations and leases, are the same after
// the rebuild as before it.
func TestClusteredUpgrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := sqliteDSN(t)
	old := open(t, dsn, bunstore.WithMigrationsUntil("20261127000010"))
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	alice := openjury.MustAddress("0x1111111111111111111111111111111111111111")
	bob := openjury.MustAddress("0x2222222222222222222222222222222222222222")
	for i := range 30 {
		actor, tag := alice, "audit"
		if i%3 == 0 {
			actor, tag = bob, "docs"
		}
		require.NoError(t, old.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Events().Append(ctx, &events.Event{Type: events.PostCreated, CreatedAt: now, Actor: actor,
				Tags: []string{tag}, Data: events.Data{"i": i}})
		}))
	}
	moved, err := old.EventLog().Sequence(ctx, now, 100)
	require.NoError(t, err)
	require.Equal(t, 30, moved)
	for i := range 20 {
		_, err := old.Bun().NewRaw(`INSERT INTO search_pending (kind, doc_id, gen, queued_at, lease_until, lex_gen) VALUES ('post', ?, ?, ?, 0, ?)`,
			fmt.Sprintf("p%02d", i), 1+i%2, now.UnixMilli()+int64(i), 1+i%2-i%4/3).Exec(ctx)
		require.NoError(t, err)
	}
	filters := []events.Filter{{Address: alice}, {Address: bob}, {Tag: "audit"}, {Tag: "docs"}, {Address: bob, Tag: "docs"}}
	read := func(db *bunstore.DB) (out [][]int64) {
		for _, f := range filters {
			evs, err := db.EventLog().Read(ctx, f, 0, 1000, 100)
			require.NoError(t, err)
			var seqs []int64
			for _, e := range evs {
				seqs = append(seqs, e.Seq)
			}
			out = append(out, seqs)
		}
		return out
	}
	type queued struct {
		Kind, DocID               string
		Gen, QueuedAt, Lease, Lex int64
	}
	queue := func(db *bunstore.DB) (out []queued) {
		rows, err := db.Bun().QueryContext(ctx, `SELECT kind, doc_id, gen, queued_at, lease_until, lex_gen FROM search_pending ORDER BY doc_id`)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var q queued
			require.NoError(t, rows.Scan(&q.Kind, &q.DocID, &q.Gen, &q.QueuedAt, &q.Lease, &q.Lex))
			out = append(out, q)
		}
		require.NoError(t, rows.Err())
		return out
	}
	beforeEvents, beforeQueue := read(old), queue(old)
	require.Len(t, beforeEvents[0], 20)
	require.Len(t, beforeEvents[4], 10)
	require.Len(t, beforeQueue, 20)
	require.NoError(t, old.Close())

	db := open(t, dsn)
	for _, table := range []string{"event_keys", "search_pending"} {
		var ddl string
		require.NoError(t, db.Bun().NewRaw("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(ctx, &ddl))
		require.Contains(t, ddl, "WITHOUT ROWID", table)
	}
	require.Equal(t, beforeEvents, read(db))
	require.Equal(t, beforeQueue, queue(db))
	n, err := db.SearchIndex().PendingCount(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 20, n)
	// The queue works on the rebuilt table: the documents whose lexical
	// step is done at their generation are claimed, the others are not.
	claimed, err := db.SearchIndex().ClaimPending(ctx, now.Add(time.Hour), time.Minute, 100)
	require.NoError(t, err)
	var want []search.Pending
	for _, q := range beforeQueue {
		if q.Lex == q.Gen {
			want = append(want, search.Pending{Kind: search.Kind(q.Kind), ID: q.DocID, Gen: q.Gen})
		}
	}
	require.NotEmpty(t, want)
	require.ElementsMatch(t, want, claimed)
}
