package bunstore

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// SQLite's write-ahead log is copied back into the database file by a
// checkpoint. By default the connection whose commit takes the log past
// 1,000 pages runs it inside that commit, so on the one writer every
// few dozen submissions waited for a checkpoint (5% of the CPU of the
// submit scenario, all of it on the writer's path). A file database runs
// its checkpoints on a connection of their own instead, every
// checkpointEvery, beside the writer (PASSIVE: it never waits for the
// writer or the readers and never stops them); the writer still
// checkpoints itself once the log passes writerCheckpointPages, should
// the background one fall behind.
//
// A checkpoint copies the log into the file, but the log starts over
// only when a write begins after all of it was copied and while no
// reader still reads from it: under a steady stream of reads it runs on
// for thousands of pages after it was copied. The writer's own
// checkpoint runs after every commit while the log is past the
// threshold, with two fsyncs, so the threshold sits well above what the
// log reaches between two starts over at a busy writer's rate (about
// 16,000 pages a second in the load tool's submit scenario); at 4,096
// pages the writer checkpointed in bursts (BENCHMARKS.md, "The writer's
// own checkpoint").
const (
	// checkpointEvery is the pause between background checkpoints.
	checkpointEvery = 100 * time.Millisecond
	// writerCheckpointPages is the writer's wal_autocheckpoint: 64 MiB of
	// 4 KiB pages, the log's bound when the background checkpoints lag.
	writerCheckpointPages = "16384"
)

// checkpointer runs PASSIVE checkpoints of a SQLite file on its own
// connection until stopped.
type checkpointer struct {
	db   *sql.DB
	stop context.CancelFunc
	done sync.WaitGroup
}

// startCheckpointer opens the checkpoint connection of t and starts its
// loop.
func startCheckpointer(t sqliteTarget, driverName string) *checkpointer {
	db := t.pool(driverName, false)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{db: db, stop: cancel}
	c.done.Go(func() {
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A failure (the file busy with another process's
			// checkpoint, a closing database) leaves the work to the next
			// tick or to the writer's own checkpoint.
			_, _ = c.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
		}
	})
	return c
}

// close stops the loop and closes the connection.
func (c *checkpointer) close() error {
	c.stop()
	c.done.Wait()
	return c.db.Close()
}
