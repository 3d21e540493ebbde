package bunstore_test

import (
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// TestSearchUpgrade: documents written before hybrid search get their
// stored text from the migration (a deleted comment none), and vectors
// stored as float32 before quantisation are still read, quantised.
func TestSearchUpgrade(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := be.dsn(t)
			old := open(t, dsn, bunstore.WithMigrationsUntil("20261125000011"))
			now := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
			sponsor := openjury.MustAddress("0x1111111111111111111111111111111111111111")
			j := &marketplace.Job{ID: openjury.NewID(), Title: "Audit the bridge", Prompt: "Review withdrawals.", Tags: []string{},
				Status: marketplace.StatusOpen, Sponsor: sponsor, CreatedAt: now, FinalVoteStartsAt: now, FinalVoteEndsAt: now.Add(time.Hour)}
			s := &marketplace.Submission{ID: openjury.NewID(), JobID: j.ID, Agent: sponsor, Content: "Reentrant.", CreatedAt: now,
				Evidence: []marketplace.Evidence{{Claim: "c1", Quote: "q1"}, {Quote: "q2"}}}
			kept := &marketplace.Comment{ID: openjury.NewID(), Target: marketplace.TargetSubmission, TargetID: s.ID, Author: sponsor, Content: "Good catch", CreatedAt: now}
			gone := &marketplace.Comment{ID: openjury.NewID(), Target: marketplace.TargetJob, TargetID: j.ID, Author: sponsor, Content: "Oops", CreatedAt: now}
			p := &marketplace.Post{ID: openjury.NewID(), Title: "Digest", Content: "Weekly news", Author: sponsor, Tags: []string{}, CreatedAt: now}
			// Rows as that schema has them, written by SQL: the store's
			// code writes the columns of the latest schema.
			ms := now.UnixMilli()
			for _, q := range []struct {
				sql  string
				args []any
			}{
				{`INSERT INTO jobs (id, title, prompt, bounty_micro, status, sponsor_address, created_at, final_vote_starts_at, final_vote_ends_at)
					VALUES (?, ?, ?, 0, 'open', ?, ?, ?, ?)`, []any{j.ID, j.Title, j.Prompt, sponsor.String(), ms, ms, ms + 3_600_000}},
				{`INSERT INTO submissions (id, job_id, agent_address, content, evidence, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
					[]any{s.ID, j.ID, sponsor.String(), s.Content, `[{"claim":"c1","quote":"q1"},{"quote":"q2"}]`, ms}},
				{`INSERT INTO comments (id, target_type, target_id, author_address, content, created_at, job_id) VALUES (?, 'submission', ?, ?, ?, ?, ?)`,
					[]any{kept.ID, s.ID, sponsor.String(), kept.Content, ms, j.ID}},
				{`INSERT INTO comments (id, target_type, target_id, author_address, content, created_at, job_id, deleted_at, deleted_by) VALUES (?, 'job', ?, ?, ?, ?, ?, ?, ?)`,
					[]any{gone.ID, j.ID, sponsor.String(), gone.Content, ms, j.ID, ms, sponsor.String()}},
				{`INSERT INTO posts (id, title, content, author_address, created_at) VALUES (?, ?, ?, ?, ?)`,
					[]any{p.ID, p.Title, p.Content, sponsor.String(), ms}},
			} {
				_, err := old.Bun().NewRaw(q.sql, q.args...).Exec(ctx)
				require.NoError(t, err, q.sql)
			}
			legacy := make([]byte, 8)
			binary.LittleEndian.PutUint32(legacy, math.Float32bits(3))
			binary.LittleEndian.PutUint32(legacy[4:], math.Float32bits(-4))
			_, err := old.Bun().NewRaw(`INSERT INTO search_documents (kind, doc_id, seq, deleted, model, title, snippet, vector, updated_at)
				VALUES ('job', ?, 1, 0, 'm', 't', 's', ?, 0)`, j.ID, legacy).Exec(ctx)
			require.NoError(t, err)
			require.NoError(t, old.Close())

			db := open(t, dsn)
			requireFixtureTexts(t, db, j, s, kept, gone, p)

			changes, err := db.SearchIndex().Changes(ctx, 0, 10)
			require.NoError(t, err)
			require.Len(t, changes, 1)
			require.Equal(t, search.Quantize([]float32{3, -4}), changes[0].Vector)
		})
	}
}

// TestSearchLexicalUpgrade: a document written and queued while triggers
// kept search_text (before migration 20261126000080) keeps its text, and
// its pending row counts as done lexically: the vector step claims it
// without a lexical step.
func TestSearchLexicalUpgrade(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := be.dsn(t)
			old := open(t, dsn, bunstore.WithMigrationsUntil("20261125000070"))
			j := job(openjury.NewID())
			j.Title, j.Prompt = "Audit the bridge", "Review withdrawals."
			require.NoError(t, old.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				return tx.Jobs().CreateJob(ctx, j)
			}))
			for range 2 { // queued twice: gen 2
				_, err := old.Bun().NewRaw("INSERT INTO search_pending (kind, doc_id, queued_at) VALUES ('job', ?, 0) "+
					"ON CONFLICT (kind, doc_id) DO UPDATE SET gen = search_pending.gen + 1", j.ID).Exec(ctx)
				require.NoError(t, err)
			}
			require.NoError(t, old.Close())

			db := open(t, dsn)
			matches, err := db.SearchTexts().Match(ctx, []string{"withdrawal"}, "", 10)
			require.NoError(t, err)
			require.Len(t, matches, 1, "the trigger's text stays")
			got, err := db.SearchIndex().ClaimPending(ctx, time.Now(), time.Minute, 10)
			require.NoError(t, err)
			require.Equal(t, []search.Pending{{Kind: search.KindJob, ID: j.ID, Gen: 2}}, got)
			n, err := db.SearchIndex().IndexTexts(ctx, 10)
			require.NoError(t, err)
			require.Zero(t, n)
		})
	}
}

// TestRebuildSearchTexts: a rebuild stores the text of every searchable
// document written without its queue row, as the lexical step would
// (evidence lines, job ids; a deleted comment none), and drops text of
// documents that are gone.
func TestRebuildSearchTexts(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, be.dsn(t))
			j := job(openjury.NewID())
			j.Title, j.Prompt = "Audit the bridge", "Review withdrawals."
			s := &marketplace.Submission{ID: openjury.NewID(), JobID: j.ID, Agent: j.Sponsor, Content: "Reentrant.", CreatedAt: j.CreatedAt,
				Evidence: []marketplace.Evidence{{Claim: "c1", Quote: "q1"}, {Quote: "q2"}}}
			kept := &marketplace.Comment{ID: openjury.NewID(), Target: marketplace.TargetSubmission, TargetID: s.ID, Author: j.Sponsor, Content: "Good catch", CreatedAt: j.CreatedAt}
			gone := &marketplace.Comment{ID: openjury.NewID(), Target: marketplace.TargetJob, TargetID: j.ID, Author: j.Sponsor, Content: "Oops", CreatedAt: j.CreatedAt}
			p := &marketplace.Post{ID: openjury.NewID(), Title: "Digest", Content: "Weekly news", Author: j.Sponsor, Tags: []string{}, CreatedAt: j.CreatedAt}
			require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				for _, err := range []func() error{
					func() error { return tx.Jobs().CreateJob(ctx, j) },
					func() error { return tx.Submissions().CreateSubmission(ctx, s) },
					func() error { return tx.Comments().CreateComment(ctx, kept) },
					func() error { return tx.Comments().CreateComment(ctx, gone) },
					func() error { return tx.Posts().CreatePost(ctx, p) },
				} {
					if err := err(); err != nil {
						return err
					}
				}
				return nil
			}))
			require.NoError(t, db.Comments().DeleteComment(ctx, gone.ID, j.Sponsor, j.CreatedAt))
			// A stale row of a document that no longer exists.
			_, err := db.Bun().NewRaw("INSERT INTO search_text (kind, doc_id, title, body, extra) VALUES ('post', 'nope', 't', 'stale', '')").Exec(ctx)
			require.NoError(t, err)

			require.NoError(t, db.RebuildSearchTexts(ctx))
			requireFixtureTexts(t, db, j, s, kept, gone, p)
			matches, err := db.SearchTexts().Match(ctx, []string{"stale"}, "", 10)
			require.NoError(t, err)
			require.Empty(t, matches, "the stale row is gone")
		})
	}
}

// requireFixtureTexts requires the lexical index to hold the text of the
// upgrade tests' documents (evidence claims and quotes one per line, job
// ids; none for the deleted comment) and to find the job by a stemmed word.
func requireFixtureTexts(t *testing.T, db *bunstore.DB, j *marketplace.Job, s *marketplace.Submission, kept, gone *marketplace.Comment, p *marketplace.Post) {
	t.Helper()
	ctx := context.Background()
	keys := []search.Key{{Kind: search.KindJob, ID: j.ID}, {Kind: search.KindSubmission, ID: s.ID},
		{Kind: search.KindComment, ID: kept.ID}, {Kind: search.KindComment, ID: gone.ID}, {Kind: search.KindPost, ID: p.ID}}
	docs, err := db.SearchTexts().Documents(ctx, keys)
	require.NoError(t, err)
	slices.SortFunc(docs, func(a, b search.Document) int { return strings.Compare(string(a.Kind), string(b.Kind)) })
	require.Equal(t, []search.Document{
		{Key: keys[2], JobID: j.ID, Body: kept.Content},
		{Key: keys[0], JobID: j.ID, Title: j.Title, Body: j.Prompt},
		{Key: keys[4], Title: p.Title, Body: p.Content},
		{Key: keys[1], JobID: j.ID, Body: s.Content, Extra: "c1\nq1\nq2"},
	}, docs)
	matches, err := db.SearchTexts().Match(ctx, []string{"withdrawal"}, "", 10)
	require.NoError(t, err)
	require.Len(t, matches, 1, "the text is indexed")
}
