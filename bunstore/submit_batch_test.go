package bunstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/pgtest"
	"github.com/openjury/openjury/stake"
)

// batchFixture is a PostgreSQL database with three open jobs and a
// closed one (batchJob(1) to batchJob(4)), two agents staked at the
// minimum, one a micro-USDC short and the jobs' sponsor staked well above.
type batchFixture struct {
	db                  *bunstore.DB
	a1, a2, poor, owner openjury.Address
	now                 time.Time
	n                   int
}

func batchJob(i int) string { return fmt.Sprintf("00000000-0000-7000-8000-%012d", i) }

func newBatchFixture(t *testing.T) *batchFixture {
	t.Helper()
	db := open(t, pgtest.NewDatabase(t))
	ctx := context.Background()
	f := &batchFixture{db: db, now: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC),
		a1: openjury.MustAddress("0x00000000000000000000000000000000000000a1"), a2: openjury.MustAddress("0x00000000000000000000000000000000000000a2"),
		poor: openjury.MustAddress("0x00000000000000000000000000000000000000b0")}
	for i := 1; i <= 4; i++ {
		j := job(batchJob(i))
		if i == 4 {
			j.Status = marketplace.StatusClosed
		}
		require.NoError(t, db.Jobs().CreateJob(ctx, j))
		f.owner = j.Sponsor
	}
	for a, usdc := range map[openjury.Address]openjury.MicroUSDC{f.a1: 10, f.a2: 10, f.poor: 9, f.owner: 50} {
		require.NoError(t, db.Stake().PutStake(ctx, stake.Stake{Address: a, Staked: usdc, UpdatedAt: f.now}))
	}
	return f
}

// sub returns a new submission of agent to job with its guard (a stake of
// 10, two submissions per agent, a first submission worth 3 points) and
// its event.
func (f *batchFixture) sub(agent openjury.Address, job string, content string) (*marketplace.Submission, marketplace.SubmitGuard) {
	f.n++
	at := f.now.Add(time.Duration(f.n) * time.Millisecond)
	s := &marketplace.Submission{ID: fmt.Sprintf("00000000-0000-7000-9000-%012d", f.n), JobID: job, Agent: agent, Content: content,
		Evidence: []marketplace.Evidence{}, CreatedAt: at}
	return s, marketplace.SubmitGuard{MinStake: 10, MaxPerAgent: 2, Now: at,
		FirstReputation: marketplace.ReputationDelta{Score: 3, Submissions: 1},
		Event: &events.Event{Type: events.SubmissionCreated, CreatedAt: at, JobID: job, Actor: agent,
			Data: events.Data{"submission_id": s.ID}}}
}

// outboxSubmissions returns the submission ids of the outbox's events in
// their order.
func outboxSubmissions(t *testing.T, db *bunstore.DB) []string {
	t.Helper()
	var data []string
	require.NoError(t, db.Bun().NewRaw("SELECT data FROM event_outbox WHERE type = ? ORDER BY pk", string(events.SubmissionCreated)).Scan(context.Background(), &data))
	out := make([]string, len(data))
	for i, d := range data {
		out[i] = d[strings.Index(d, `"submission_id":"`)+len(`"submission_id":"`) : strings.LastIndex(d, `"`)]
	}
	return out
}

// TestSubmitBatch: the one statement of a batch of submissions on
// PostgreSQL answers each submission as its own statement would, with
// the guard's reason for each refused one: the per-agent limit counts the
// batch's earlier submissions of the agent to the job, an agent's first
// submissions to two jobs in one batch add their reputation twice (one
// upsert of the summed deltas), a missing job is NotFound, and the events
// of the inserted submissions reach the outbox in the batch's order.
func TestSubmitBatch(t *testing.T) {
	t.Parallel()
	f := newBatchFixture(t)
	ctx := context.Background()
	// A try's kind is its error's, 0 (Internal, never expected) when it
	// is written.
	type try struct {
		agent  openjury.Address
		job    string
		kind   openjury.Kind
		detail string
	}
	tries := []try{
		{f.a1, batchJob(1), 0, ""},
		{f.a1, batchJob(1), 0, ""},
		{f.a1, batchJob(1), openjury.Conflict, "at most 2 submissions per agent per job"},
		{f.a1, batchJob(2), 0, ""},
		{f.a2, batchJob(1), 0, ""},
		{f.poor, batchJob(1), openjury.Forbidden, "insufficient stake"},
		{f.a2, batchJob(4), openjury.Conflict, "job is closed"},
		{f.a2, batchJob(9), openjury.NotFound, "job not found"},
		{f.owner, batchJob(1), openjury.Forbidden, ""},
		{f.a2, batchJob(3), 0, ""},
		{f.a1, batchJob(1), openjury.Conflict, "at most 2 submissions per agent per job"},
	}
	subs := make([]*marketplace.Submission, len(tries))
	guards := make([]marketplace.SubmitGuard, len(tries))
	var inserted []string
	for i, tr := range tries {
		subs[i], guards[i] = f.sub(tr.agent, tr.job, "x")
		if tr.kind == 0 {
			inserted = append(inserted, subs[i].ID)
		}
	}
	errs := bunstore.SubmitBatch(ctx, f.db, subs, guards)
	for i, tr := range tries {
		if tr.kind == 0 {
			require.NoError(t, errs[i], "submission %d", i)
			got, err := f.db.Submissions().Submission(ctx, subs[i].ID)
			require.NoError(t, err)
			require.Equal(t, subs[i], got)
			continue
		}
		require.Error(t, errs[i], "submission %d", i)
		require.Equal(t, tr.kind, openjury.KindOf(errs[i]), "submission %d: %v", i, errs[i])
		if tr.detail != "" {
			require.Equal(t, tr.detail, openjury.DetailOf(errs[i]), "submission %d", i)
		}
		_, err := f.db.Submissions().Submission(ctx, subs[i].ID)
		require.Equal(t, openjury.NotFound, openjury.KindOf(err), "refused submission %d is not written", i)
	}
	_, _, alone := f.db.BatchedSubmits()
	require.Zero(t, alone, "the batch ran as one statement")
	for a, want := range map[openjury.Address]int64{f.a1: 2, f.a2: 2, f.poor: 0, f.owner: 0} {
		r, err := f.db.Reputation().Reputation(ctx, a)
		require.NoError(t, err)
		require.Equal(t, 3*want, r.Score, "%s: one first submission a job", a)
		require.Equal(t, want, r.Submissions, "%s", a)
	}
	require.Equal(t, inserted, outboxSubmissions(t, f.db), "the events of the inserted submissions, in order")

	// A batch after it counts what it committed: a1 has 2 on job 1.
	s, g := f.sub(f.a1, batchJob(1), "x")
	s2, g2 := f.sub(f.a1, batchJob(3), "x")
	errs = bunstore.SubmitBatch(ctx, f.db, []*marketplace.Submission{s, s2}, []marketplace.SubmitGuard{g, g2})
	require.Equal(t, "at most 2 submissions per agent per job", openjury.DetailOf(errs[0]))
	require.NoError(t, errs[1])
}

// TestSubmitBatchCountsOnlyWritable: an agent's count on a job grows, in
// a batch, only by its earlier submissions that the guard's other rules
// let through. The job's closing lease runs out between the agent's first
// submission of the batch (refused: being closed) and its second, which is
// then its first on the job (reputation added), so a third is written too
// and only a fourth meets the limit of 2, as in statements of their own.
func TestSubmitBatchCountsOnlyWritable(t *testing.T) {
	t.Parallel()
	f := newBatchFixture(t)
	ctx := context.Background()
	until := f.now.Add(5 * time.Millisecond)
	_, err := f.db.Bun().NewRaw("UPDATE jobs SET closing_id = 'b1', closing_until = ? WHERE id = ?", until.UnixMilli(), batchJob(1)).Exec(ctx)
	require.NoError(t, err)
	var subs []*marketplace.Submission
	var guards []marketplace.SubmitGuard
	for i := range 4 {
		if i == 1 {
			f.n = 4 // the second at until: the lease is over
		}
		s, g := f.sub(f.a1, batchJob(1), "x")
		subs, guards = append(subs, s), append(guards, g)
	}
	errs := bunstore.SubmitBatch(ctx, f.db, subs, guards)
	require.Equal(t, marketplace.DetailBeingClosed, openjury.DetailOf(errs[0]), "%v", errs[0])
	require.NoError(t, errs[1])
	require.NoError(t, errs[2])
	require.Equal(t, "at most 2 submissions per agent per job", openjury.DetailOf(errs[3]), "%v", errs[3])
	_, _, alone := f.db.BatchedSubmits()
	require.Zero(t, alone, "the batch ran as one statement")
	r, err := f.db.Reputation().Reputation(ctx, f.a1)
	require.NoError(t, err)
	require.Equal(t, int64(3), r.Score, "the first written submission is the first")
	require.Equal(t, []string{subs[1].ID, subs[2].ID}, outboxSubmissions(t, f.db))
}

// TestSubmitBatchFailsAlone: a submission PostgreSQL's text cannot hold
// (a NUL in its content) fails its batch's statement; every submission of
// the batch is then written with its own statement, so only that one
// fails and the others are written.
func TestSubmitBatchFailsAlone(t *testing.T) {
	t.Parallel()
	f := newBatchFixture(t)
	ctx := context.Background()
	var subs []*marketplace.Submission
	var guards []marketplace.SubmitGuard
	for i, content := range []string{"fine", "bad\x00", "fine too"} {
		s, g := f.sub([]openjury.Address{f.a1, f.a2, f.a2}[i], batchJob(i+1), content)
		subs, guards = append(subs, s), append(guards, g)
	}
	errs := bunstore.SubmitBatch(ctx, f.db, subs, guards)
	require.NoError(t, errs[0])
	require.Error(t, errs[1])
	require.NoError(t, errs[2])
	_, _, alone := f.db.BatchedSubmits()
	require.Equal(t, int64(3), alone)
	require.Equal(t, []string{subs[0].ID, subs[2].ID}, outboxSubmissions(t, f.db))
}

// TestSubmitBatchesConcurrent: concurrent submissions through Submit on
// PostgreSQL share statements (fewer batches than submissions), and each
// agent's limit holds across the batches and the statements of their own:
// of 8 submissions of each agent to one job, racing, exactly 2 are
// written.
func TestSubmitBatchesConcurrent(t *testing.T) {
	t.Parallel()
	f := newBatchFixture(t)
	ctx := context.Background()
	const each = 8
	type sg struct {
		s *marketplace.Submission
		g marketplace.SubmitGuard
	}
	var all []sg
	for range each {
		for _, a := range []openjury.Address{f.a1, f.a2} {
			s, g := f.sub(a, batchJob(1), "x")
			all = append(all, sg{s, g})
		}
	}
	errs := make([]error, len(all))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, x := range all {
		wg.Go(func() {
			<-start
			errs[i] = f.db.Submissions().Submit(ctx, x.s, x.g)
		})
	}
	close(start)
	wg.Wait()
	ok := map[openjury.Address]int{}
	for i, err := range errs {
		if err == nil {
			ok[all[i].s.Agent]++
			continue
		}
		require.Equal(t, "at most 2 submissions per agent per job", openjury.DetailOf(err))
	}
	require.Equal(t, map[openjury.Address]int{f.a1: 2, f.a2: 2}, ok)
	// (A batch that finds the job held by another in flight leaves its
	// submissions to statements of their own: some may go alone.)
	submits, batches, _ := f.db.BatchedSubmits()
	require.Equal(t, int64(len(all)), submits)
	require.Less(t, batches, submits, "concurrent submissions share statements")
	for _, a := range []openjury.Address{f.a1, f.a2} {
		r, err := f.db.Reputation().Reputation(ctx, a)
		require.NoError(t, err)
		require.Equal(t, int64(3), r.Score, "one first submission")
	}
}

// TestSubmitBatchSkipsLockedJobs: a job another transaction holds does not
// hold up its batch: the batch writes the submissions to the other jobs
// while the lock is held, and the one to the held job is written by a
// statement of its own once the lock is released.
func TestSubmitBatchSkipsLockedJobs(t *testing.T) {
	t.Parallel()
	f := newBatchFixture(t)
	ctx := context.Background()
	tx, err := f.db.Bun().BeginTx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	_, err = tx.ExecContext(ctx, "SELECT id FROM jobs WHERE id = ? FOR UPDATE", batchJob(2))
	require.NoError(t, err)

	free, g1 := f.sub(f.a1, batchJob(1), "x")
	held, g2 := f.sub(f.a2, batchJob(2), "x")
	done := make(chan []error, 1)
	go func() {
		done <- bunstore.SubmitBatch(ctx, f.db, []*marketplace.Submission{free, held}, []marketplace.SubmitGuard{g1, g2})
	}()
	require.Eventually(t, func() bool {
		_, err := f.db.Submissions().Submission(ctx, free.ID)
		return err == nil
	}, 10*time.Second, 10*time.Millisecond, "the free job's submission is written while the other job is held")
	select {
	case errs := <-done:
		t.Fatalf("the batch answered while a job it writes to was held: %v", errs)
	case <-time.After(100 * time.Millisecond):
	}
	require.NoError(t, tx.Rollback())
	errs := <-done
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	_, err = f.db.Submissions().Submission(ctx, held.ID)
	require.NoError(t, err)
	_, _, alone := f.db.BatchedSubmits()
	require.Equal(t, int64(1), alone, "the held job's submission alone")
}
