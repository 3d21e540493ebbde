package bunstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
)

// TestExpireDeletesKeys: retention deletes every index key of the events
// it expires (those events.Keys gives for the stored, completed event: the
// actor, the job's sponsor and tags, an audience) and no other.
func TestExpireDeletesKeys(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, be.dsn(t))
			base := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
			alice := openjury.MustAddress("0x1111111111111111111111111111111111111111")
			bob := openjury.MustAddress("0x2222222222222222222222222222222222222222")
			carol := openjury.MustAddress("0x3333333333333333333333333333333333333333")
			sponsor := openjury.MustAddress("0x4444444444444444444444444444444444444444")
			ms := base.UnixMilli()
			_, err := db.Bun().NewRaw(`INSERT INTO jobs (id, title, prompt, bounty_micro, status, sponsor_address, tags, created_at, final_vote_starts_at, final_vote_ends_at)
				VALUES ('j1', 't', 'p', 0, 'open', ?, '["Audit","ml"]', ?, ?, ?)`, sponsor.String(), ms, ms, ms+3_600_000).Exec(ctx)
			require.NoError(t, err)
			batch := func(at time.Time) []*events.Event {
				return []*events.Event{
					{Type: events.SubmissionCreated, CreatedAt: at, JobID: "j1", Actor: alice, Data: events.Data{}},
					{Type: events.JuryDrawn, CreatedAt: at, JobID: "j1", Audience: []openjury.Address{bob, carol}, Data: events.Data{}},
					{Type: events.PostCreated, CreatedAt: at, Actor: bob, Tags: []string{"X"}, Data: events.Data{}},
				}
			}
			require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				return tx.Events().Append(ctx, append(batch(base), batch(base.Add(time.Hour))...)...)
			}))
			moved, err := db.EventLog().Sequence(ctx, base.Add(time.Hour), 100)
			require.NoError(t, err)
			require.Equal(t, 6, moved)
			count := func(where string) (n int) {
				require.NoError(t, db.Bun().NewRaw("SELECT count(*) FROM event_keys WHERE "+where).Scan(ctx, &n))
				return n
			}
			// alice, the sponsor and two tags; bob and carol (the audience)
			// and two tags; bob and one tag.
			require.Equal(t, 4+4+2, count("seq <= 3"))
			require.Equal(t, 4+4+2, count("seq > 3"))
			n, err := db.EventLog().Expire(ctx, base.Add(time.Minute), 100)
			require.NoError(t, err)
			require.EqualValues(t, 3, n)
			require.Zero(t, count("seq <= 3"))
			require.Equal(t, 4+4+2, count("seq > 3"))
			got, err := db.EventLog().Read(ctx, events.Filter{Tag: "audit"}, 0, 100, 10)
			require.NoError(t, err)
			require.Len(t, got, 1)
			require.EqualValues(t, 4, got[0].Seq)
		})
	}
}
