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

// The migration whose marked step converts the batches stored before
// closes were staged (a whole document per batch and a proof per record)
// into staged records and trees, and the marker of that step in its SQL.
const (
	closingMigration = "20261125000011"
	convertMarker    = "--openjury:convert-legacy-anchors"
)

// withConversion returns ms with the closing migration run by runClosing
// instead of bun's SQL runner: its statements and, at the marker, the
// conversion, all in one transaction, so a failure leaves the database as
// it was and the migration is tried again at the next start. before, when
// not nil, is called first, as bun calls its BeforeMigration hook. Errors:
// the migration is missing (the marker would otherwise be skipped and the
// old storage dropped unconverted).
func (d *DB) withConversion(ms *migrate.Migrations, fsys fs.FS, before func(context.Context, bun.IConn, *migrate.Migration) error) (*migrate.Migrations, error) {
	out := migrate.NewMigrations()
	found := false
	for _, m := range ms.Sorted() {
		if m.Name == closingMigration {
			found = true
			file := m.Name + "_" + m.Comment + ".tx.up.sql"
			m.Up = func(ctx context.Context, _ *migrate.Migrator, mg *migrate.Migration) error {
				if before != nil {
					if err := before(ctx, nil, mg); err != nil {
						return err
					}
				}
				return d.runClosing(ctx, fsys, file)
			}
		}
		out.Add(m)
	}
	if !found {
		return nil, fmt.Errorf("migration %s not found", closingMigration)
	}
	return out, nil
}

// runClosing runs the migration file name of fsys in one transaction: its
// statements (split like bun's runner at --bun:split lines) in order, and
// convertLegacyAnchors where a statement is the marker.
func (d *DB) runClosing(ctx context.Context, fsys fs.FS, name string) error {
	text, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	for _, stmt := range strings.Split(string(text), "\n--bun:split\n") {
		switch {
		case strings.Contains(stmt, convertMarker):
			if err := d.convertLegacyAnchors(ctx, tx); err != nil {
				return fmt.Errorf("convert the stored anchor documents: %w", err)
			}
		case strings.TrimSpace(stmt) != "":
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return tx.Commit()
}

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
