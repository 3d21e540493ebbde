package bunstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

// legacySchema is the last version before closes were staged: batches
// stored a whole document and a proof per record.
const legacySchema = "20261123000010"

// legacyJob writes, on a database at legacySchema, a closed job whose
// batch is stored the old way (document and proofs, as the close of that
// version wrote them) with n records, and a deleted comment on it; it
// returns the snapshot.
func legacyJob(t *testing.T, db *bunstore.DB, jobID string, n int, root openjury.Hash) *anchor.Snapshot {
	t.Helper()
	ctx := context.Background()
	created := time.Date(2026, 11, 24, 10, 0, 0, 123_000_000, time.UTC)
	recs := []anchor.Record{{ID: "job:" + jobID, Type: "job", Fields: map[string]any{"title": "ünïcödé <b>&</b> \u2028", "job_id": jobID}}}
	for i := range n {
		recs = append(recs, anchor.Record{ID: fmt.Sprintf("comment:%s-%04d", jobID[:8], i), Type: "comment",
			Fields: map[string]any{"content": strings.Repeat("z", i%13), "deleted": i%5 == 0, "n": i}})
	}
	var salt [anchor.SaltSize]byte
	salt[3] = byte(n)
	snap, err := anchor.Build(jobID, salt, created, recs)
	require.NoError(t, err)
	if root == "" {
		root = snap.Root
	}
	ms := created.UnixMilli()
	tx, err := db.Bun().BeginTx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	exec := func(q string, args ...any) {
		t.Helper()
		_, err := tx.ExecContext(ctx, q, args...)
		require.NoError(t, err, q)
	}
	exec(`INSERT INTO jobs (id, title, prompt, bounty_micro, tags, status, sponsor_address, created_at, winner_submission_id, closed_at,
		final_vote_starts_at, final_vote_ends_at, anchor_batch_id, anchor_root, anchor_uri, anchor_schema_version, anchor_salt, anchor_created_at)
		VALUES (?, 't', 'p', 0, '[]', 'closed', '0x1111111111111111111111111111111111111111', ?, NULL, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
		jobID, ms, ms, ms, ms+1, "b-"+jobID, string(root), "https://x.example/api/v1/jobs/"+jobID+"/anchor/snapshot", string(snap.Salt), ms)
	exec(`INSERT INTO anchor_batches (id, job_id, created_at, document) VALUES (?, ?, ?, ?)`, "b-"+jobID, jobID, ms, snap.Document)
	for _, p := range snap.Proofs() {
		leaf, _ := anchor.NodeOf(p.Leaf)
		var path []byte
		for _, h := range p.Proof {
			n, _ := anchor.NodeOf(h)
			path = append(path, n[:]...)
		}
		if path == nil {
			path = []byte{}
		}
		exec(`INSERT INTO anchor_proofs (job_id, record_id, leaf, proof) VALUES (?, ?, ?, ?)`, jobID, p.Record, leaf[:], path)
	}
	exec(`INSERT INTO comments (id, target_type, target_id, author_address, content, created_at, deleted_at, deleted_by)
		VALUES (?, 'job', ?, '0x2222222222222222222222222222222222222222', 'gone', ?, ?, '0x2222222222222222222222222222222222222222')`,
		"c-"+jobID, jobID, ms, ms+5)
	require.NoError(t, tx.Commit())
	return snap
}

// TestLegacyAnchorsConverted: batches stored before closes were staged
// are converted by the migration and then served byte for byte with the
// same proofs (by record id and by bare object id), the old storage gone;
// comments get their job and count as deleted before any close.
func TestLegacyAnchorsConverted(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := be.dsn(t)
			old := open(t, dsn, bunstore.WithMigrationsUntil(legacySchema))
			snaps := map[string]*anchor.Snapshot{}
			for _, n := range []int{0, 3, 1100} {
				id := openjury.NewID()
				snaps[id] = legacyJob(t, old, id, n, "")
			}
			require.NoError(t, old.Close())

			db := open(t, dsn)
			svc := anchor.NewService(db, anchor.Config{})
			for jobID, snap := range snaps {
				doc, err := svc.Document(ctx, jobID)
				require.NoError(t, err)
				require.Equal(t, string(snap.Document), string(doc), "byte for byte")
				b, err := svc.Batch(ctx, jobID)
				require.NoError(t, err)
				require.Equal(t, int64(len(snap.Document)), b.Size)
				proofs := snap.Proofs()
				for i, want := range proofs {
					if i%50 != 0 && i < len(proofs)-2 {
						continue
					}
					got, err := svc.Proof(ctx, jobID, want.Record)
					require.NoError(t, err, want.Record)
					require.Equal(t, want, got)
				}
				got, err := svc.Proof(ctx, jobID, jobID)
				require.NoError(t, err, "a bare id")
				require.Equal(t, "job:"+jobID, got.Record)
				var deleted []int64
				require.NoError(t, db.Snapshots().ScanComments(ctx, jobID, 0, nil, 10, func(c *marketplace.Comment) bool {
					require.NotNil(t, c.DeletedAt)
					deleted = append(deleted, c.DeletedRev)
					return true
				}))
				require.Equal(t, []int64{0}, deleted, "the job's comment, deleted at rev 0")
			}
			_, err := db.Bun().ExecContext(ctx, "SELECT count(*) FROM anchor_proofs")
			require.Error(t, err, "the old proofs are gone")
		})
	}
}

// TestLegacyConversionRefusesWhatItCannotServe: a stored document that
// its job's anchor fields do not reproduce stops the migration, which
// leaves the database as it was.
func TestLegacyConversionRefusesWhatItCannotServe(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := be.dsn(t)
			old := open(t, dsn, bunstore.WithMigrationsUntil(legacySchema))
			jobID := openjury.NewID()
			legacyJob(t, old, jobID, 2, openjury.Hash("0x"+strings.Repeat("ab", 32)))
			require.NoError(t, old.Close())

			_, err := bunstore.Open(ctx, dsn)
			require.Error(t, err)
			require.Contains(t, err.Error(), jobID)
			again := open(t, dsn, bunstore.WithoutMigrations())
			var n int
			require.NoError(t, again.Bun().NewRaw("SELECT count(*) FROM anchor_proofs").Scan(ctx, &n))
			require.Positive(t, n, "rolled back: the old storage is still there")
			_, err = again.Bun().NewSelect().Table("anchor_records").Count(ctx)
			require.Error(t, err, "and none of the new")
		})
	}
}

// TestJobKeysFilled: the escrow migration gives every job created before
// it its escrow key, keccak256 of its id (more jobs than one batch of the
// Go step), so the sync finds them by key.
func TestJobKeysFilled(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := be.dsn(t)
			old := open(t, dsn, bunstore.WithMigrationsUntil("20261125000011"))
			var ids []string
			for range 1203 {
				ids = append(ids, openjury.NewID())
			}
			_, err := old.Bun().ExecContext(ctx, `INSERT INTO jobs (id, title, prompt, bounty_micro, tags, status, sponsor_address, created_at,
				final_vote_starts_at, final_vote_ends_at) SELECT v.column1, 't', 'p', 0, '[]', 'open', '0x1111111111111111111111111111111111111111', 1, 1, 2
				FROM (VALUES `+strings.TrimSuffix(strings.Repeat("(?), ", len(ids)), ", ")+`) AS v`, anyOf(ids)...)
			require.NoError(t, err)
			require.NoError(t, old.Close())

			db := open(t, dsn)
			for _, i := range []int{0, 499, 500, 1202} {
				var stored string
				require.NoError(t, db.Bun().NewSelect().Table("jobs").Column("job_key").Where("id = ?", ids[i]).Scan(ctx, &stored))
				require.Equal(t, openjury.HashFromBytes(anchor.JobKey(ids[i])).String(), stored)
			}
			missing, err := db.Bun().NewSelect().Table("jobs").Where("job_key IS NULL").Count(ctx)
			require.NoError(t, err)
			require.Zero(t, missing)
			require.NoError(t, db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				j, err := tx.Escrow().JobByKey(ctx, openjury.HashFromBytes(anchor.JobKey(ids[700])))
				require.NoError(t, err)
				require.Equal(t, ids[700], j.ID)
				return nil
			}))
		})
	}
}

func anyOf(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
