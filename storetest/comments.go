package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) commentTests() []test {
	return []test{
		{name: "RoundTripEveryField", run: testCommentRoundTrip},
		{name: "NotFound", run: testCommentNotFound},
		{name: "OrderTiesByID", run: testCommentOrder},
		{name: "KeysetPagination", run: testCommentPages},
		{name: "TargetIsolation", run: testCommentTargets},
		{name: "DeleteSetsFieldsOnce", run: testCommentDelete},
		{name: "ConcurrentDeletesOneWinner", run: testCommentConcurrentDelete},
		{name: "RecordsRevBumps", run: testRecordsRev},
	}
}

func newComment(n int, target marketplace.TargetType, targetID string, author openjury.Address, created time.Time) *marketplace.Comment {
	return &marketplace.Comment{
		ID: id(n), Target: target, TargetID: targetID, Author: author,
		Content: "comment " + id(n), CreatedAt: created,
	}
}

func addComments(t *testing.T, b Backend, cs ...*marketplace.Comment) {
	t.Helper()
	ctx := context.Background()
	for _, c := range cs {
		require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Comments().CreateComment(ctx, c)
		}), "comment %s", c.ID)
	}
}

func getComment(t *testing.T, b Backend, commentID string) *marketplace.Comment {
	t.Helper()
	c, err := b.Comments().Comment(context.Background(), commentID)
	require.NoError(t, err)
	return c
}

func listComments(t *testing.T, b Backend, target marketplace.TargetType, targetID string, limit int, after *marketplace.Cursor) []*marketplace.Comment {
	t.Helper()
	cs, err := b.Comments().Comments(context.Background(), target, targetID, limit, after)
	require.NoError(t, err)
	return cs
}

func commentIDs(cs []*marketplace.Comment) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// walkComments reads the whole list of a target in pages of limit, each
// page after the last comment of the previous one, and returns the pages.
func walkComments(t *testing.T, b Backend, target marketplace.TargetType, targetID string, limit int) [][]string {
	t.Helper()
	var (
		after *marketplace.Cursor
		pages [][]string
	)
	for range 100 {
		page := listComments(t, b, target, targetID, limit, after)
		require.LessOrEqual(t, len(page), limit)
		pages = append(pages, commentIDs(page))
		if len(page) < limit {
			return pages
		}
		last := page[len(page)-1]
		after = &marketplace.Cursor{At: last.CreatedAt, ID: last.ID}
	}
	t.Fatal("pagination does not end")
	return nil
}

func testCommentRoundTrip(t *testing.T, b Backend) {
	ctx := context.Background()
	job := id(500)
	c1 := newComment(1, marketplace.TargetJob, job, alice, at(1))
	c1.Content = "Looks right: ünïcödé ✓ 'quotes' \"too\"\nline 2\t; DROP TABLE comments; --"
	reply := newComment(2, marketplace.TargetJob, job, bob, at(2))
	reply.ParentID = c1.ID
	reply.DeletedAt = ptr(at(3))
	reply.DeletedBy = carol
	require.NoError(t, b.Comments().CreateComment(ctx, c1), "outside InTx")
	addComments(t, b, reply)

	got := getComment(t, b, c1.ID)
	require.Equal(t, c1, got)
	require.Empty(t, got.ParentID)
	require.Nil(t, got.DeletedAt)
	require.Empty(t, got.DeletedBy)
	require.Equal(t, time.UTC, got.CreatedAt.Location())
	got = getComment(t, b, reply.ID)
	require.Equal(t, reply, got)
	require.Equal(t, time.UTC, got.DeletedAt.Location())

	require.Equal(t, []*marketplace.Comment{c1, reply}, listComments(t, b, marketplace.TargetJob, job, 10, nil),
		"listed with every field, deleted content included")
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		c, err := tx.Comments().Comment(ctx, reply.ID)
		require.NoError(t, err)
		require.Equal(t, reply, c)
		cs, err := tx.Comments().Comments(ctx, marketplace.TargetJob, job, 10, nil)
		require.NoError(t, err)
		require.Equal(t, []*marketplace.Comment{c1, reply}, cs)
		return nil
	}))
}

func testCommentNotFound(t *testing.T, b Backend) {
	ctx := context.Background()
	addComments(t, b, newComment(1, marketplace.TargetJob, id(500), alice, at(1)))
	_, err := b.Comments().Comment(ctx, id(2))
	requireKind(t, openjury.NotFound, err)
	requireKind(t, openjury.NotFound, b.Comments().DeleteComment(ctx, id(2), alice, at(2)))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.Comments().Comment(ctx, id(3))
		requireKind(t, openjury.NotFound, err)
		requireKind(t, openjury.NotFound, tx.Comments().DeleteComment(ctx, id(3), alice, at(3)))
		return nil
	}))
	require.Empty(t, listComments(t, b, marketplace.TargetJob, id(501), 10, nil))
	_, err = b.Comments().Comment(ctx, id(1))
	require.NoError(t, err)
}

func testCommentOrder(t *testing.T, b Backend) {
	job := id(500)
	times := map[int]int{1: 10, 2: 5, 3: 10, 4: 5, 5: 20, 6: 0, 7: 1}
	for _, n := range []int{5, 3, 1, 4, 2, 7, 6} { // not in order
		addComments(t, b, newComment(n, marketplace.TargetJob, job, alice, at(times[n])))
	}
	want := []string{id(6), id(7), id(2), id(4), id(1), id(3), id(5)}
	require.Equal(t, want, commentIDs(listComments(t, b, marketplace.TargetJob, job, 100, nil)))
	require.Equal(t, want[:3], commentIDs(listComments(t, b, marketplace.TargetJob, job, 3, nil)))
	require.Empty(t, listComments(t, b, marketplace.TargetJob, job, 0, nil))
}

func testCommentPages(t *testing.T, b Backend) {
	job := id(500)
	times := []int{3, 1, 1, 1, 2, 2, 0} // comment n+1 at times[n]
	for n := len(times); n >= 1; n-- {
		addComments(t, b, newComment(n, marketplace.TargetJob, job, alice, at(times[n-1])))
	}
	// Comments of other targets at the same times stay off every page.
	addComments(t, b,
		newComment(20, marketplace.TargetJob, id(501), alice, at(1)),
		newComment(21, marketplace.TargetSubmission, job, alice, at(1)),
	)
	want := []string{id(7), id(2), id(3), id(4), id(5), id(6), id(1)}
	require.Equal(t, [][]string{want[:3], want[3:6], want[6:]}, walkComments(t, b, marketplace.TargetJob, job, 3),
		"7 comments in pages of 3; the first page ends inside a tie of created_at")
	for _, limit := range []int{1, 2, 7, 10} {
		var got []string
		pages := walkComments(t, b, marketplace.TargetJob, job, limit)
		for _, p := range pages {
			got = append(got, p...)
		}
		require.Equal(t, want, got, "limit %d", limit)
		require.Len(t, pages, len(want)/limit+1, "limit %d", limit)
	}
	require.Equal(t, []string{id(4), id(5)}, commentIDs(listComments(t, b, marketplace.TargetJob, job, 2,
		&marketplace.Cursor{At: at(1), ID: id(3)})), "after a cursor inside a tie")
	require.Empty(t, listComments(t, b, marketplace.TargetJob, job, 10, &marketplace.Cursor{At: at(3), ID: id(1)}))
}

func testCommentTargets(t *testing.T, b Backend) {
	x, y := id(500), id(501)
	addComments(t, b,
		newComment(1, marketplace.TargetJob, x, alice, at(1)),
		newComment(2, marketplace.TargetSubmission, x, alice, at(2)), // same id, other kind
		newComment(3, marketplace.TargetPost, x, alice, at(3)),
		newComment(4, marketplace.TargetJob, y, alice, at(4)),
		newComment(5, marketplace.TargetJob, x, bob, at(5)),
	)
	for _, tc := range []struct {
		target marketplace.TargetType
		id     string
		want   []string
	}{
		{marketplace.TargetJob, x, []string{id(1), id(5)}},
		{marketplace.TargetSubmission, x, []string{id(2)}},
		{marketplace.TargetPost, x, []string{id(3)}},
		{marketplace.TargetJob, y, []string{id(4)}},
		{marketplace.TargetSubmission, y, []string{}},
		{marketplace.TargetPost, id(502), []string{}},
	} {
		require.Equal(t, tc.want, commentIDs(listComments(t, b, tc.target, tc.id, 10, nil)), "%s %s", tc.target, tc.id)
	}
}

func testCommentDelete(t *testing.T, b Backend) {
	ctx := context.Background()
	job := id(500)
	c1, c2 := newComment(1, marketplace.TargetJob, job, alice, at(1)), newComment(2, marketplace.TargetJob, job, alice, at(2))
	addComments(t, b, c1, c2)

	require.NoError(t, b.Comments().DeleteComment(ctx, c1.ID, alice, at(10)))
	want := *c1
	want.DeletedAt, want.DeletedBy = ptr(at(10)), alice
	require.Equal(t, &want, getComment(t, b, c1.ID), "deleted fields set, content kept")

	// Deleting again changes nothing and succeeds, outside and inside a
	// transaction.
	require.NoError(t, b.Comments().DeleteComment(ctx, c1.ID, bob, at(20)))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Comments().DeleteComment(ctx, c1.ID, carol, at(30)))
		c, err := tx.Comments().Comment(ctx, c1.ID)
		require.NoError(t, err)
		require.Equal(t, &want, c)
		return nil
	}))
	require.Equal(t, &want, getComment(t, b, c1.ID), "the first delete's values stay")
	require.Equal(t, c2, getComment(t, b, c2.ID), "another comment is untouched")

	// A first delete inside a transaction.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Comments().DeleteComment(ctx, c2.ID, bob, at(40))
	}))
	want2 := *c2
	want2.DeletedAt, want2.DeletedBy = ptr(at(40)), bob
	require.Equal(t, []*marketplace.Comment{&want, &want2}, listComments(t, b, marketplace.TargetJob, job, 10, nil))
}

func testCommentConcurrentDelete(t *testing.T, b Backend) {
	c := newComment(1, marketplace.TargetJob, id(500), alice, at(1))
	addComments(t, b, c)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	deleter := func(i int) openjury.Address { return openjury.MustAddress(fmt.Sprintf("0x%040x", 100+i)) }
	errs := raceN(10, func(i int) error {
		if i%2 == 0 {
			return b.Comments().DeleteComment(ctx, c.ID, deleter(i), at(100+i))
		}
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Comments().DeleteComment(ctx, c.ID, deleter(i), at(100+i))
		})
	})
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
	}
	got := getComment(t, b, c.ID)
	require.NotNil(t, got.DeletedAt)
	winner := int(got.DeletedAt.Sub(at(100)) / time.Millisecond)
	require.True(t, winner >= 0 && winner < 10, "deleted_at %v is no racer's", got.DeletedAt)
	require.Equal(t, deleter(winner), got.DeletedBy, "deleted_at and deleted_by come from one delete")
}

// testRecordsRev: a comment on a job or on one of its submissions bumps
// the job's records rev and carries the new value; deleting it bumps it
// again and records it; a post's comment and a repeated delete bump
// nothing; a rolled-back comment takes its bump with it.
func testRecordsRev(t *testing.T, b Backend) {
	ctx := context.Background()
	voteFixture(t, b)
	addPosts(t, b, newPost(900, alice, base))
	rev := func(job int) int64 { return getJob(t, b, id(job)).RecordsRev }
	require.Zero(t, rev(1))

	onJob := newComment(501, marketplace.TargetJob, id(1), erin, base)
	onSub := newComment(502, marketplace.TargetSubmission, id(102), erin, base)
	onOther := newComment(503, marketplace.TargetJob, id(2), erin, base)
	onPost := newComment(504, marketplace.TargetPost, id(900), erin, base)
	addComments(t, b, onJob, onSub, onOther, onPost)
	require.Equal(t, int64(2), rev(1))
	require.Equal(t, int64(1), rev(2))
	for c, want := range map[*marketplace.Comment]int64{onJob: 1, onSub: 2, onOther: 1, onPost: 0} {
		require.Equal(t, want, c.Rev, "set on the comment")
		require.Equal(t, want, getComment(t, b, c.ID).Rev, "stored")
	}

	require.NoError(t, b.Comments().DeleteComment(ctx, onSub.ID, erin, at(5)))
	require.Equal(t, int64(3), rev(1))
	require.Equal(t, int64(3), getComment(t, b, onSub.ID).DeletedRev)
	require.NoError(t, b.Comments().DeleteComment(ctx, onSub.ID, erin, at(6)))
	require.Equal(t, int64(3), rev(1), "a repeated delete changes nothing")
	require.NoError(t, b.Comments().DeleteComment(ctx, onPost.ID, erin, at(7)))
	require.Zero(t, getComment(t, b, onPost.ID).DeletedRev)
	require.Equal(t, int64(3), rev(1))

	require.Equal(t, errBoom, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		require.NoError(t, tx.Comments().CreateComment(ctx, newComment(505, marketplace.TargetJob, id(1), erin, base)))
		require.NoError(t, tx.Comments().DeleteComment(ctx, onJob.ID, erin, at(8)))
		return errBoom
	}))
	require.Equal(t, int64(3), rev(1), "rolled back with the comment")
	require.Nil(t, getComment(t, b, onJob.ID).DeletedAt)
}

func (s *suite) rateTests() []test {
	return []test{
		{name: "CountsAndWindows", run: testRateWindows},
		{name: "ConcurrentHitsCountEachOnce", run: func(t *testing.T, b Backend) { testRateConcurrent(t, b, false) }},
		{name: "ConcurrentHitsInTxCountEachOnce", run: func(t *testing.T, b Backend) { testRateConcurrent(t, b, true) }},
		{name: "PruneEndedWindows", run: testRatePrune},
	}
}

// hit counts one event on rs and returns the count and window start.
func hit(t *testing.T, rs marketplace.RateStore, key string, now time.Time, window time.Duration) (int64, time.Time) {
	t.Helper()
	n, start, err := rs.Hit(context.Background(), key, now, window)
	require.NoError(t, err, "hit %s at %v", key, now)
	return n, start
}

func testRateWindows(t *testing.T, b Backend) {
	ctx := context.Background()
	const w = time.Minute
	rs := b.Rates()
	ka, kb := "comments:"+alice.String(), "comments:"+bob.String()
	t0 := at(0)
	type result struct {
		n     int64
		start time.Time
	}
	check := func(key string, now time.Time, n int64, start time.Time, msg string) {
		t.Helper()
		gotN, gotStart := hit(t, rs, key, now, w)
		require.Equal(t, result{n, start}, result{gotN, gotStart}, msg)
		require.Equal(t, time.UTC, gotStart.Location())
	}
	check(ka, t0, 1, t0, "first hit starts a window")
	check(ka, t0.Add(time.Millisecond), 2, t0, "")
	check(ka, t0.Add(w-time.Millisecond), 3, t0, "the window's last millisecond")
	check(kb, t0.Add(30*time.Second), 1, t0.Add(30*time.Second), "another key counts apart")
	t1 := t0.Add(w)
	check(ka, t1, 1, t1, "a hit at start+window starts a new window")
	check(ka, t1.Add(time.Millisecond), 2, t1, "")
	check(kb, t1.Add(10*time.Second), 2, t0.Add(30*time.Second), "the other key's window goes on")

	// Inside a transaction hits count the same and stay after commit.
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		for want := int64(3); want <= 4; want++ {
			n, start, err := tx.Rates().Hit(ctx, ka, t1.Add(2*time.Millisecond), w)
			require.NoError(t, err)
			require.Equal(t, result{want, t1}, result{n, start})
		}
		return nil
	}))
	check(ka, t1.Add(3*time.Millisecond), 5, t1, "hits of a committed transaction count")

	t2 := t1.Add(10 * w)
	check(ka, t2, 1, t2, "long after the window")
	check(kb, t2.Add(time.Second), 1, t2.Add(time.Second), "")
}

func testRateConcurrent(t *testing.T, b Backend, inTx bool) {
	const (
		hitters = 30
		w       = time.Minute
	)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	key, now := "comments:"+alice.String(), at(5)
	counts := make([]int64, hitters)
	starts := make([]time.Time, hitters)
	errs := raceN(hitters, func(i int) error {
		if !inTx {
			var err error
			counts[i], starts[i], err = b.Rates().Hit(ctx, key, now, w)
			return err
		}
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			var err error
			counts[i], starts[i], err = tx.Rates().Hit(ctx, key, now, w)
			return err
		})
	})
	for i, err := range errs {
		require.NoError(t, err, "goroutine %d", i)
		require.Equal(t, now, starts[i], "goroutine %d", i)
	}
	want := make([]int64, hitters)
	for i := range want {
		want[i] = int64(i + 1)
	}
	slices.Sort(counts)
	require.Equal(t, want, counts, "each count once: no hit lost or counted twice")
	n, start := hit(t, b.Rates(), key, now.Add(time.Second), w)
	require.Equal(t, int64(hitters+1), n, "the final count was %d", n-1)
	require.Equal(t, now, start)
}

func testRatePrune(t *testing.T, b Backend) {
	ctx := context.Background()
	rs := b.Rates()
	t0 := at(0)
	hit(t, rs, "old", t0, time.Minute)
	hit(t, rs, "old", t0.Add(time.Second), time.Minute)
	hit(t, rs, "new", t0.Add(time.Minute), time.Minute)
	n, err := rs.Prune(ctx, t0)
	require.NoError(t, err)
	require.Equal(t, int64(1), n, "only the counter whose window started at or before the cut")
	n, err = rs.Prune(ctx, t0)
	require.NoError(t, err)
	require.Zero(t, n)
	count, start := hit(t, rs, "new", t0.Add(time.Minute+time.Second), time.Minute)
	require.Equal(t, int64(2), count, "a kept counter keeps counting")
	require.Equal(t, t0.Add(time.Minute), start)
	count, _ = hit(t, rs, "old", t0.Add(2*time.Second), time.Minute)
	require.Equal(t, int64(1), count, "a pruned key starts a new window")
}
