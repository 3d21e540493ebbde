package bunstore

import (
	"context"
	"embed"
	"io/fs"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/openjury/openjury"
)

// migrationFS holds the versioned SQL migrations, one directory per
// dialect: migrations/<dialect>/<version>_<name>.tx.up.sql. Each file runs
// in one transaction and is recorded only when it succeeded.
//
//go:embed migrations
var migrationFS embed.FS

// Names of bun's migration bookkeeping tables, prefixed so that an
// embedder's own bun migrations in the same database do not mix with ours.
const (
	MigrationsTable     = "openjury_migrations"
	MigrationLocksTable = "openjury_migration_locks"
)

// migrationLockKey is the PostgreSQL advisory lock key that serialises
// migrations of replicas starting together ("ojmigrat" in ASCII).
const migrationLockKey int64 = 0x6f6a6d6967726174

// sqliteLockWait bounds the wait for another process's SQLite migration.
const sqliteLockWait = 15 * time.Second

// migrate applies the migrations of d's dialect that are not applied yet
// (those up to version until when it is not empty), reporting to progress
// when it is not nil.
func (d *DB) migrate(ctx context.Context, progress func(MigrationProgress), until string) error {
	const op = "bunstore.migrate"
	sub, err := fs.Sub(migrationFS, "migrations/"+d.dialect)
	if err != nil {
		return openjury.Wrap(op, err)
	}
	ms := migrate.NewMigrations()
	if err := ms.Discover(sub); err != nil {
		return openjury.Wrap(op, err)
	}
	r := &migrationRun{progress: progress}
	if ms, err = d.withConversion(ms, sub, r.before); err != nil {
		return openjury.Wrap(op, err)
	}
	if until != "" {
		upTo := migrate.NewMigrations()
		for _, m := range ms.Sorted() {
			if m.Name <= until {
				upTo.Add(m)
			}
		}
		ms = upTo
	}
	r.m = migrate.NewMigrator(d.w, ms,
		migrate.WithTableName(MigrationsTable),
		migrate.WithLocksTableName(MigrationLocksTable),
		migrate.WithMarkAppliedOnSuccess(true),
		migrate.BeforeMigration(r.before),
	)
	if d.dialect == DialectPostgres {
		return d.migratePostgres(ctx, r)
	}
	return d.migrateSQLite(ctx, r)
}

// migrationRun is one Migrate call with its progress reports.
type migrationRun struct {
	m        *migrate.Migrator
	progress func(MigrationProgress)
	total    int
	applying int
}

// before is the migrator's hook: it reports the migration starting.
func (r *migrationRun) before(_ context.Context, _ bun.IConn, mg *migrate.Migration) error {
	r.applying++
	if r.progress != nil {
		r.progress(MigrationProgress{Applying: r.applying, Total: r.total, Name: mg.String()})
	}
	return nil
}

// run applies the pending migrations; the caller holds the lock.
func (r *migrationRun) run(ctx context.Context) error {
	if r.progress != nil {
		all, err := r.m.MigrationsWithStatus(ctx)
		if err != nil {
			return err
		}
		r.total = len(all.Unapplied())
		r.progress(MigrationProgress{Total: r.total})
	}
	_, err := r.m.Migrate(ctx)
	return err
}

// migratePostgres holds a session advisory lock on a dedicated connection
// while it migrates, so concurrent replicas migrate one after the other
// (the later ones find nothing to do). The lock goes with the session if
// the process dies, unlike bun's lock row, so it is used instead of it.
func (d *DB) migratePostgres(ctx context.Context, r *migrationRun) error {
	m := r.m
	const op = "bunstore.migrate"
	// The lock's connection comes on top of the migration's: a pool of one
	// (WithMaxConns(1)) would wait for itself.
	if n := d.w.DB.Stats().MaxOpenConnections; n == 1 {
		d.w.DB.SetMaxOpenConns(2)
		defer d.w.DB.SetMaxOpenConns(n)
	}
	conn, err := d.w.DB.Conn(ctx)
	if err != nil {
		return translate(op, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockKey); err != nil {
		return translate(op, err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockKey)
	}()
	if err := m.Init(ctx); err != nil {
		return translate(op, err)
	}
	if err := r.run(ctx); err != nil {
		return translate(op, err)
	}
	return nil
}

// migrateSQLite guards the migration with bun's lock row, waiting a while
// for another process that holds it.
func (d *DB) migrateSQLite(ctx context.Context, r *migrationRun) error {
	m := r.m
	const op = "bunstore.migrate"
	if err := m.Init(ctx); err != nil {
		return translate(op, err)
	}
	deadline := time.Now().Add(sqliteLockWait)
	for {
		err := m.Lock(ctx)
		if err == nil {
			break
		}
		if openjury.KindOf(translate(op, err)) != openjury.Conflict {
			return translate(op, err)
		}
		if time.Now().After(deadline) {
			return openjury.Errorf(openjury.Unavailable, op,
				"migrations are locked by another process; if none is running, run DELETE FROM %s", MigrationLocksTable)
		}
		select {
		case <-ctx.Done():
			return translate(op, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	defer func() { _ = m.Unlock(context.WithoutCancel(ctx)) }()
	if err := r.run(ctx); err != nil {
		return translate(op, err)
	}
	return nil
}
