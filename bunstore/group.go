package bunstore

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/openjury/openjury"
)

// Group commit on SQLite.
//
// SQLite has one writer, so the write transactions of a busy replica
// queue for it, and each one pays for its own BEGIN, COMMIT, WAL frames
// (every page it touched, written again for every transaction) and its
// share of the checkpoints. A group runs the transactions that queue up
// while one is running inside one SQLite transaction instead. Each
// function still sees every change before it and nothing of it is visible
// to anyone else before the commit; InTx returns only after that commit,
// with its error, so a caller never sees an acknowledged change that is
// not durable (to SQLite's synchronous=NORMAL: a committed WAL frame
// survives a process crash). A group commits as soon as nobody waits for
// the writer, or after groupMaxMembers successful functions or
// groupMaxAge, so a lone transaction commits at once, as before.
//
// A failed function must leave nothing in the group. Most fail before
// they write (a guard refuses what they read), so a function runs without
// a savepoint of its own: a savepoint makes SQLite copy every page the
// function changes that an earlier member had changed into its statement
// journal (a file write per page once it passes 64 KiB), the largest part
// of a busy writer's time. When a function fails, SQLite's count of
// changed rows (total_changes(), which counts every INSERT, UPDATE and
// DELETE that completed, triggers' included) tells whether it wrote: if
// not, the group goes on without it; if it did (or it panicked), the
// group's transaction is rolled back, the failed function gets its own
// error, and every function that had succeeded in the group runs again,
// this time under a savepoint (rolled back to when it fails), in a new
// group whose later members run under savepoints as well, so that group
// is never rolled back for a failed member. A function thus runs at most
// twice: a caller who fails on purpose after a write costs the others at
// most one more run each. Functions are written to be run again anyway:
// PostgreSQL's serialization failures rerun them too (DB.runTx).
//
// Functions run on the writer's transaction with a context that keeps
// ctx's values but not its cancellation: an interrupted SQLite write
// statement rolls back the whole transaction, which would undo the other
// functions of the group. A function therefore finishes once started,
// its run again included. Waiting for the writer (before a function
// starts) does not end with ctx either: the turn is handed from function
// to function and is never left with nobody to take it.
//
// Other processes writing the same file are serialised by SQLite's own
// lock (BEGIN IMMEDIATE with busy_timeout), as before.
type group struct {
	db *bun.DB
	// turn holds the writer: whoever receives from it runs next. Its value
	// is the open group (nil when none is open); capacity 1.
	turn chan *batch
	// waiting counts callers blocked on turn.
	waiting atomic.Int32
	// maxMembers and maxAge bound a group (groupMaxMembers, groupMaxAge;
	// tests change them before any transaction).
	maxMembers int
	maxAge     time.Duration
	// changes reads SQLite's total_changes() on tx (DB.totalChanges).
	changes func(ctx context.Context, tx bun.Tx) (int64, error)
	// held, ended and joined count, since the group was made, the
	// nanoseconds the writer was held (from taking the turn to handing it
	// on, BEGIN and COMMIT included), the groups that ended (committed or
	// rolled back) and the functions that succeeded in them (DB.Writer).
	held, ended, joined atomic.Int64
}

// Bounds of one group: a group commits when it has this many successful
// functions or is this old, even while others wait.
const (
	groupMaxMembers = 64
	groupMaxAge     = 20 * time.Millisecond
)

// batch is one open SQLite transaction shared by a group of functions.
type batch struct {
	tx      bun.Tx
	started time.Time
	members int
	// safe is set once a member ran under a savepoint: every later member
	// does too.
	safe bool
	// done is closed when the transaction has ended; err is then its
	// outcome for every successful member.
	done chan struct{}
	err  error
}

func newGroup(db *bun.DB, changes func(ctx context.Context, tx bun.Tx) (int64, error)) *group {
	g := &group{db: db, turn: make(chan *batch, 1), maxMembers: groupMaxMembers, maxAge: groupMaxAge, changes: changes}
	g.turn <- nil
	return g
}

// errGroupAborted is the outcome of a group whose transaction had to be
// rolled back because a savepoint could not be released or rolled back.
var errGroupAborted = errors.New("the shared write transaction was rolled back")

// errGroupRerun is the outcome, for its successful members, of a group
// rolled back because a member failed after it wrote: they run again.
var errGroupRerun = errors.New("the group was rolled back for a failed member; run again")

// run runs fn as a member of a group (see group): it returns fn's error as
// is, or the group's commit error (translated), after the group ended. A
// panic of fn goes on after its changes were rolled back and the writer
// handed on.
func (g *group) run(ctx context.Context, op string, fn func(ctx context.Context, tx bun.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return translate(op, err)
	}
	for safe := false; ; safe = true {
		err := g.runOnce(ctx, op, fn, safe)
		if !errors.Is(err, errGroupRerun) {
			return err
		}
		if safe {
			// Not reached: a group with a savepointed member is never
			// rolled back for a failed one.
			return openjury.Errorf(openjury.Unavailable, op, "%v", err)
		}
		// What the rolled-back run noted for after its commit is void.
		if note, ok := ctx.Value(txNoteKey{}).(*txNote); ok {
			note.appended.Store(false)
		}
	}
}

// runOnce runs fn once as a member of a group; under a savepoint of its
// own when safe. It returns errGroupRerun when fn succeeded but the group
// was rolled back because a later member failed after writing.
func (g *group) runOnce(ctx context.Context, op string, fn func(ctx context.Context, tx bun.Tx) error, safe bool) error {
	g.waiting.Add(1)
	cur := <-g.turn
	g.waiting.Add(-1)
	took := time.Now()
	if cur == nil {
		tx, err := g.db.BeginTx(context.Background(), nil)
		if err != nil {
			g.handOn(took, nil)
			return translate(op, err)
		}
		cur = &batch{tx: tx, started: took, done: make(chan struct{})}
	}
	mctx := context.WithoutCancel(ctx)
	var ferr, broken error
	var panicked any
	wrote := false
	// Once a member runs under a savepoint, so do the members after it in
	// the group: a failure then rolls back only itself, and a member's
	// second run is never undone.
	cur.safe = cur.safe || safe
	if cur.safe {
		ferr, broken, panicked = member(mctx, op, cur.tx, fn)
	} else {
		ferr, wrote, broken, panicked = g.optimistic(mctx, op, cur.tx, fn)
	}
	switch {
	case broken != nil:
		_ = cur.tx.Rollback()
		g.end(cur, took, openjury.Errorf(openjury.Unavailable, op, "%v: %v", errGroupAborted, broken))
	case (ferr != nil || panicked != nil) && wrote:
		// fn's changes cannot be undone alone: undo the group, and its
		// successful members run again.
		_ = cur.tx.Rollback()
		g.end(cur, took, errGroupRerun)
	case ferr == nil && panicked == nil:
		cur.members++
		g.joined.Add(1)
		fallthrough
	default:
		if g.waiting.Load() == 0 || cur.members >= g.maxMembers || time.Since(cur.started) >= g.maxAge {
			g.end(cur, took, translate(op, cur.tx.Commit()))
		} else {
			// Somebody waits: hand them the open group.
			g.handOn(took, cur)
		}
	}
	if panicked != nil {
		panic(panicked)
	}
	if ferr != nil {
		// A function that failed left nothing in the group: it need not
		// wait for its end.
		return ferr
	}
	if broken != nil {
		return translate(op, broken)
	}
	<-cur.done
	return cur.err
}

// WriterStats tells how busy SQLite's one writer was since the DB
// opened (DB.Writer). All zero on PostgreSQL, whose writers do not queue
// for one.
type WriterStats struct {
	// Busy is how long the writer was held: from a transaction taking its
	// turn to handing it on, BEGIN and COMMIT included. A rate near 1 (a
	// second a second) means writes queue for the writer: it bounds the
	// file's writes, and more CPU elsewhere adds none.
	Busy time.Duration
	// Groups counts the shared transactions that ended (group commit) and
	// Members the functions that succeeded in them (a function run again
	// counts again): Members over Groups is the mean group.
	Groups, Members int64
}

// Writer reports how busy SQLite's writer was since the DB opened; zero
// on PostgreSQL.
func (d *DB) Writer() WriterStats {
	g := d.group
	if g == nil {
		return WriterStats{}
	}
	return WriterStats{Busy: time.Duration(g.held.Load()), Groups: g.ended.Load(), Members: g.joined.Load()}
}

// end records the outcome of cur's transaction, wakes its members and
// frees the writer for a new group; the writer was held since took.
func (g *group) end(cur *batch, took time.Time, err error) {
	g.ended.Add(1)
	g.held.Add(int64(time.Since(took)))
	cur.err = err
	close(cur.done)
	g.turn <- nil
}

// handOn passes the writer to the next (with next, the open group or nil)
// after counting the time it was held since took: counted before the
// hand-over, the holders' times never overlap.
func (g *group) handOn(took time.Time, next *batch) {
	g.held.Add(int64(time.Since(took)))
	g.turn <- next
}

// optimistic runs fn on tx without a savepoint. When fn fails or panics,
// wrote reports whether it may have changed anything: SQLite's
// total_changes() moved, or could not be read. ferr is fn's error (or the
// count's, translated); broken is set when tx is in an unknown state;
// panicked is fn's panic, recovered so that the caller ends the group
// before raising it again.
func (g *group) optimistic(ctx context.Context, op string, tx bun.Tx, fn func(ctx context.Context, tx bun.Tx) error) (ferr error, wrote bool, broken error, panicked any) {
	before, err := g.changes(ctx, tx)
	if err != nil {
		return translate(op, err), false, err, nil
	}
	ok := false
	defer func() {
		if ok {
			return
		}
		panicked = recover()
		after, err := g.changes(ctx, tx)
		wrote = err != nil || after != before || panicked != nil
	}()
	ferr = fn(ctx, tx)
	ok = ferr == nil
	return ferr, false, nil, nil
}

// memberSavepoint is the savepoint of a group member. SQLite allows the
// name to repeat: a function's nested savepoints have their own names,
// and ROLLBACK TO and RELEASE act on the innermost savepoint of a name.
const memberSavepoint = "openjury_member"

// member runs fn under a savepoint of tx: left open when fn succeeds (the
// group's COMMIT releases it), rolled back to and released when it fails
// or panics. ferr is fn's error
// (or the savepoint's, translated); broken is set when the savepoint could
// not be ended, leaving tx in an unknown state; panicked is fn's panic,
// recovered so that the caller hands the writer on before raising it
// again.
func member(ctx context.Context, op string, tx bun.Tx, fn func(ctx context.Context, tx bun.Tx) error) (ferr, broken error, panicked any) {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT "+memberSavepoint); err != nil {
		return translate(op, err), err, nil
	}
	ok := false
	defer func() {
		if ok {
			return
		}
		panicked = recover()
		if _, err := tx.ExecContext(ctx, "ROLLBACK TO "+memberSavepoint); err != nil {
			broken = err
		} else if _, err := tx.ExecContext(ctx, "RELEASE "+memberSavepoint); err != nil {
			broken = err
		}
		if broken != nil && ferr == nil {
			ferr = translate(op, broken)
		}
	}()
	if err := fn(ctx, tx); err != nil {
		return err, nil, nil
	}
	// A successful member's savepoint stays open until the group's
	// COMMIT releases them all: releasing it here would free SQLite's
	// in-memory sub-journal of its changed pages, which the pure-Go
	// allocator unmaps (a system call per member, the largest share of a
	// busy writer's time). A later member that fails rolls back to and
	// releases its own savepoint, the innermost of the name.
	ok = true
	return nil, nil, nil
}

// totalChanges returns SQLite's total_changes() on tx: the rows changed
// by the statements of its connection so far.
func (d *DB) totalChanges(ctx context.Context, tx bun.Tx) (int64, error) {
	var n int64
	err := d.scanHot(ctx, tx, d.hot.totalChanges, []any{&n})
	return n, err
}
