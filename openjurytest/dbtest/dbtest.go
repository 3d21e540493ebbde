// Package dbtest gives tests fresh, migrated databases quickly. Migrating
// an empty database costs seconds under the race detector, and the test
// suites open hundreds; so the schema is migrated once into a template (a
// SQLite file kept in the temporary directory for runs of the same build,
// removed by a later build's run once unused for a week; a PostgreSQL
// template database of the process) and each test gets a copy.
package dbtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

// SQLite returns the DSN of a new, migrated SQLite database in a temporary
// directory of tb: a copy of this test binary's template.
func SQLite(tb testing.TB) string {
	tb.Helper()
	sqliteOnce.Do(func() { sqliteTemplate, sqliteErr = makeSQLiteTemplate() })
	if sqliteErr != nil {
		tb.Fatalf("dbtest: SQLite template: %v", sqliteErr)
	}
	path := filepath.Join(tb.TempDir(), "openjury.db")
	if err := copyFile(sqliteTemplate, path); err != nil {
		tb.Fatalf("dbtest: %v", err)
	}
	return "sqlite:" + path
}

// Postgres returns the DSN of a new, migrated PostgreSQL database, dropped
// when tb ends. It skips or fails tb like pgtest.NewDatabase; the test
// package's TestMain must call pgtest.Main.
func Postgres(tb testing.TB) string {
	tb.Helper()
	tmpl := pgtest.Template(tb, "migrated", func(url string) error {
		return migrate(url)
	})
	return pgtest.NewDatabaseFrom(tb, tmpl)
}

var (
	sqliteOnce     sync.Once
	sqliteTemplate string
	sqliteErr      error
)

// makeSQLiteTemplate returns the path of the migrated template of this
// test binary, creating it when missing. It is named after the binary
// (path, size and time), so runs of the same build share it and another
// build (other migrations) gets its own.
func makeSQLiteTemplate() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(exe + "\x00" + strconv.FormatInt(st.Size(), 10) + "\x00" + st.ModTime().String()))
	path := filepath.Join(os.TempDir(), templatePrefix+hex.EncodeToString(sum[:8])+".db")
	now := time.Now()
	if _, err := os.Stat(path); err == nil {
		// Its time is its last use, for pruneTemplates.
		_ = os.Chtimes(path, now, now)
		return path, nil
	}
	pruneTemplates(os.TempDir(), now.Add(-templateUnused))
	dir, err := os.MkdirTemp("", templatePrefix)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "openjury.db")
	if err := migrate("sqlite:" + tmp); err != nil {
		return "", err
	}
	// The rename is atomic: a concurrent test binary sees the whole file
	// or none.
	if err := copyFile(tmp, path+".tmp"+strconv.Itoa(os.Getpid())); err != nil {
		return "", err
	}
	return path, os.Rename(path+".tmp"+strconv.Itoa(os.Getpid()), path)
}

// templatePrefix names the SQLite templates in the temporary directory;
// templateUnused is how long one may go unused before a new build's test
// run removes it (every build leaves one, so they would pile up).
const (
	templatePrefix = "openjury-dbtest-"
	templateUnused = 7 * 24 * time.Hour
)

// pruneTemplates removes the SQLite templates in dir last used before
// cutoff (a template's time is its last use). Errors are ignored: another
// run may remove the same file.
func pruneTemplates(dir string, cutoff time.Time) {
	old, _ := filepath.Glob(filepath.Join(dir, templatePrefix+"*.db"))
	for _, name := range old {
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() && st.ModTime().Before(cutoff) {
			_ = os.Remove(name)
		}
	}
}

// migrate opens (and so migrates) the database at dsn, folds SQLite's
// write-ahead log into the file and closes it.
func migrate(dsn string) error {
	ctx := context.Background()
	db, err := bunstore.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", dsn, err)
	}
	if db.Dialect() == bunstore.DialectSQLite {
		if _, err := db.Bun().ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			_ = db.Close()
			return err
		}
	}
	return db.Close()
}

// copyFile copies the file src to dst (created with mode 0600).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
