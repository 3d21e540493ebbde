package bunstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

// The migrations with a step run in Go, and the markers of those steps in
// their SQL: the closing migration converts the batches stored before
// closes were staged (a whole document per batch and a proof per record)
// into staged records and trees; the escrow migration computes the job
// key (keccak256 of the id) of the jobs created before it.
const (
	closingMigration = "20261125000011"
	convertMarker    = "--openjury:convert-legacy-anchors"
	escrowMigration  = "20261125000020"
	jobKeysMarker    = "--openjury:fill-job-keys"
)

// goStep is a step of a migration run in Go, in the migration's
// transaction.
type goStep func(d *DB, ctx context.Context, tx bun.Tx) error

// goSteps are the Go steps of each migration, by marker.
var goSteps = map[string]map[string]goStep{
	closingMigration: {convertMarker: (*DB).convertLegacyAnchors},
	escrowMigration:  {jobKeysMarker: (*DB).fillJobKeys},
}

// withConversion returns ms with each migration that has Go steps run by
// runWithSteps instead of bun's SQL runner: its statements and, at each
// marker, the step, all in one transaction, so a failure leaves the
// database as it was and the migration is tried again at the next start.
// before, when not nil, is called first, as bun calls its BeforeMigration
// hook. Errors: such a migration is missing (its marked step would
// otherwise be skipped).
func (d *DB) withConversion(ms *migrate.Migrations, fsys fs.FS, before func(context.Context, bun.IConn, *migrate.Migration) error) (*migrate.Migrations, error) {
	out := migrate.NewMigrations()
	found := map[string]bool{}
	for _, m := range ms.Sorted() {
		if steps, ok := goSteps[m.Name]; ok {
			found[m.Name] = true
			file := m.Name + "_" + m.Comment + ".tx.up.sql"
			m.Up = func(ctx context.Context, _ *migrate.Migrator, mg *migrate.Migration) error {
				if before != nil {
					if err := before(ctx, nil, mg); err != nil {
						return err
					}
				}
				return d.runWithSteps(ctx, fsys, file, steps)
			}
		}
		out.Add(m)
	}
	for name := range goSteps {
		if !found[name] {
			return nil, fmt.Errorf("migration %s not found", name)
		}
	}
	return out, nil
}

// runWithSteps runs the migration file name of fsys in one transaction:
// its statements (split like bun's runner at --bun:split lines) in order,
// and the Go step of steps where a statement is its marker.
func (d *DB) runWithSteps(ctx context.Context, fsys fs.FS, name string, steps map[string]goStep) error {
	text, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
statements:
	for _, stmt := range strings.Split(string(text), "\n--bun:split\n") {
		for marker, step := range steps {
			if strings.Contains(stmt, marker) {
				if err := step(d, ctx, tx); err != nil {
					return fmt.Errorf("%s: the step %s: %w", name, marker, err)
				}
				continue statements
			}
		}
		if strings.TrimSpace(stmt) != "" {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return tx.Commit()
}

// jobKeyBatch is how many jobs fillJobKeys updates per statement.
const jobKeyBatch = 500

// fillJobKeys sets the job_key of every job without one, a batch at a
// time by keyset on the id, with one UPDATE ... FROM (VALUES ...) per
// batch (both dialects run it).
func (d *DB) fillJobKeys(ctx context.Context, tx bun.Tx) error {
	after := ""
	for {
		var ids []string
		if err := tx.NewRaw("SELECT id FROM jobs WHERE id > ? AND job_key IS NULL ORDER BY id LIMIT ?", after, jobKeyBatch).
			Scan(ctx, &ids); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		values := make([]string, len(ids))
		args := make([]any, 0, 2*len(ids))
		for i, id := range ids {
			values[i] = "(?, ?)"
			args = append(args, id, jobKey(id))
		}
		q := "UPDATE jobs SET job_key = v.column2 FROM (VALUES " + strings.Join(values, ", ") + ") AS v WHERE jobs.id = v.column1"
		if _, err := tx.NewRaw(q, args...).Exec(ctx); err != nil {
			return err
		}
		after = ids[len(ids)-1]
	}
}

// jobKey is the stored form of a job's escrow key: anchor.JobKey as a
// lowercase 0x hash.
func jobKey(id string) string { return openjury.HashFromBytes(anchor.JobKey(id)).String() }

// legacyBatch is a batch stored whole before closes were staged.
type legacyBatch struct {
	ID        string `bun:"id"`
	JobID     string `bun:"job_id"`
	Document  []byte `bun:"document"`
	Root      string `bun:"anchor_root"`
	Salt      string `bun:"anchor_salt"`
	CreatedAt int64  `bun:"anchor_created_at"`
}

// convertLegacyAnchors converts every stored document, one at a time (by
// keyset on the batch id), into the batch's anchor_records and
// anchor_nodes rows through a marketplace.Stager, checks that they give
// back the document byte for byte and the job's root, and sets the job's
// anchor_records and anchor_size.
func (d *DB) convertLegacyAnchors(ctx context.Context, tx bun.Tx) error {
	after := ""
	for {
		var b legacyBatch
		err := tx.NewRaw(`SELECT ab.id, ab.job_id, ab.document, j.anchor_root, j.anchor_salt, j.anchor_created_at
FROM anchor_batches AS ab JOIN jobs AS j ON j.id = ab.job_id
WHERE ab.id > ? ORDER BY ab.id LIMIT 1`, after).Scan(ctx, &b)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := d.convertBatch(ctx, tx, &b); err != nil {
			return fmt.Errorf("the anchor batch of job %s: %w", b.JobID, err)
		}
		after = b.ID
	}
}

// convertBatch converts one stored document.
func (d *DB) convertBatch(ctx context.Context, tx bun.Tx, b *legacyBatch) error {
	root, salt := openjury.Hash(b.Root), openjury.Hash(b.Salt)
	saltNode, err := anchor.NodeOf(salt)
	if err != nil {
		return err
	}
	prefix, suffix, err := anchor.DocumentFrame(anchor.SchemaVersion, b.JobID, fromMillis(b.CreatedAt), salt, root)
	if err != nil {
		return err
	}
	st := marketplace.NewStager(anchorStore{d.txExec(tx)}, b.ID)
	again := sha256.New()
	again.Write(prefix)
	if _, err := anchor.ScanDocument(bytes.NewReader(b.Document), func(id string, raw []byte) error {
		if st.Records() > 0 {
			again.Write([]byte{','})
		}
		again.Write(raw)
		return st.Add(ctx, id, bytes.Clone(raw))
	}); err != nil {
		return err
	}
	again.Write(suffix)
	if want := sha256.Sum256(b.Document); !bytes.Equal(again.Sum(nil), want[:]) {
		return errors.New("its records and the job's anchor fields do not give its document back byte for byte")
	}
	got, err := st.Tree(ctx, saltNode)
	if err != nil {
		return err
	}
	if got != root {
		return fmt.Errorf("its records give the root %s, the job's is %s", got, root)
	}
	_, err = tx.NewUpdate().Model((*jobRow)(nil)).
		Set("anchor_records = ?", st.Records()).
		Set("anchor_size = ?", int64(len(b.Document))).
		Where("id = ?", b.JobID).
		Exec(ctx)
	return err
}
