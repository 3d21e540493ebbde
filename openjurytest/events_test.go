package openjurytest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/dbtest"
	"github.com/openjury/openjury/stake"
)

// eventJSON is an Event as the API serves it.
type eventJSON struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	CreatedAt string         `json:"created_at"`
	JobID     *string        `json:"job_id"`
	Address   *string        `json:"address"`
	Subjects  []string       `json:"subjects"`
	Tags      []string       `json:"tags"`
	Data      map[string]any `json:"data"`
}

type eventPage struct {
	Events     []eventJSON `json:"events"`
	NextCursor *string     `json:"next_cursor"`
}

// listEvents reads one page of GET /api/v1/events with query q.
func listEvents(t *testing.T, srv *openjurytest.Server, q string) eventPage {
	t.Helper()
	r := srv.Do(t, http.MethodGet, "/api/v1/events?"+q, "", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var p eventPage
	r.JSON(t, &p)
	return p
}

// allEvents walks the log the query selects after the id after ("": all
// of it), pages of limit.
func allEvents(t *testing.T, srv *openjurytest.Server, q string, limit int, after string) []eventJSON {
	t.Helper()
	var out []eventJSON
	for range 1000 {
		p := listEvents(t, srv, fmt.Sprintf("%s&limit=%d&after=%s", q, limit, after))
		out = append(out, p.Events...)
		require.NotNil(t, p.NextCursor)
		if len(p.Events) == 0 {
			return out
		}
		after = *p.NextCursor
	}
	t.Fatal("the log does not end")
	return nil
}

func types(evs []eventJSON) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func post(t *testing.T, srv *openjurytest.Server, path, token string, body any) map[string]any {
	t.Helper()
	r := srv.Do(t, http.MethodPost, path, token, body)
	require.Equal(t, http.StatusOK, r.Status, "POST %s: %s", path, r.Body)
	return r.Map(t)
}

// TestEventLogStory: every write of the work-and-jury loop leaves its
// event in the log, with its actor, subjects, tags and data; the filters,
// pages and retention of GET /api/v1/events; on both engines.
func TestEventLogStory(t *testing.T) {
	t.Parallel()
	operator := openjurytest.NewWallet(t)
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		sponsor, worker, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
		st, wt, jt := srv.SignIn(t, sponsor), srv.SignIn(t, worker), srv.SignIn(t, juror)
		srv.SetStake(t, worker.Address(), 10)
		srv.SetStake(t, juror.Address(), 10)
		srv.SetReputation(t, juror.Address(), 10)
		srv.FlushEvents(t)
		start := listEvents(t, srv, "")
		require.Equal(t, []string{"stake.changed", "stake.changed"}, types(start.Events))
		require.Equal(t, []string{worker.Address().String()}, start.Events[0].Subjects)
		require.Nil(t, start.Events[0].Address, "a dev stake has no actor")
		from := *start.NextCursor

		job := post(t, srv, "/api/v1/jobs", st, map[string]any{"title": "Summarise", "prompt": "p", "bounty_usdc": 2.5, "tags": []string{"Research"}})
		jobID := job["id"].(string)
		sub := post(t, srv, "/api/v1/submissions", wt, map[string]any{"job_id": jobID, "content": "work"})["submission"].(map[string]any)
		subID := sub["id"].(string)
		post(t, srv, "/api/v1/votes", jt, map[string]any{"job_id": jobID, "submission_id": subID})
		post(t, srv, "/api/v1/final_votes", jt, map[string]any{"job_id": jobID, "submission_id": subID})
		comment := post(t, srv, "/api/v1/jobs/"+jobID+"/comments", wt, map[string]any{"content": "hello"})["comment"].(map[string]any)
		r := srv.Do(t, http.MethodDelete, "/api/v1/comments/"+comment["id"].(string), wt, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		post(t, srv, "/api/v1/posts", st, map[string]any{"title": "News", "content": "c", "tags": []string{"Go"}})
		srv.MintAGR(t, juror.Address(), 5)
		post(t, srv, "/api/v1/jobs/"+jobID+"/boost", jt, map[string]any{"amount_agr": 5, "duration_hours": 1})
		post(t, srv, "/api/v1/jobs/"+jobID+"/close", st, map[string]any{"winner_submission_id": subID})
		chain, block, index := int64(8453), int64(77), int64(3)
		_, err := srv.Anchor.RecordReceipt(context.Background(), operator.Address(), jobID, openjury.ChainRef{
			TxHash: openjury.Hash("0x" + strings.Repeat("ab", 32)), ChainID: &chain, Contract: operator.Address(), BlockNumber: &block, LogIndex: &index})
		require.NoError(t, err)
		_, err = srv.Stake.DevRecordSlash(context.Background(), stake.SlashInput{Agent: worker.Address(), Amount: 2 * openjury.MicroPerUSDC, JobID: jobID})
		require.NoError(t, err)
		srv.FlushEvents(t)

		evs := allEvents(t, srv, "", 3, from)
		require.Equal(t, []string{"job.created", "final_vote.opened", "submission.created", "vote.cast", "final_vote.cast",
			"comment.created", "comment.deleted", "post.created", "job.boosted", "job.closed", "anchor.recorded",
			"slash.recorded", "stake.changed"}, types(evs))
		ids := make([]string, len(evs))
		for i, e := range evs {
			ids[i] = e.ID
		}
		require.True(t, slices.IsSorted(ids), "ids sort in delivery order")
		byType := map[string]eventJSON{}
		for _, e := range evs {
			byType[e.Type] = e
		}
		created := byType["job.created"]
		require.Equal(t, jobID, *created.JobID)
		require.Equal(t, sponsor.Address().String(), *created.Address)
		require.Equal(t, []string{"Research"}, created.Tags)
		require.Equal(t, "Summarise", created.Data["title"])
		require.EqualValues(t, 2.5, created.Data["bounty_usdc"])
		require.Equal(t, job["created_at"], created.CreatedAt)
		vote := byType["vote.cast"]
		require.ElementsMatch(t, []string{worker.Address().String(), sponsor.Address().String()}, vote.Subjects, "a vote concerns the voted agent and the sponsor")
		require.Equal(t, subID, vote.Data["submission_id"])
		closed := byType["job.closed"]
		require.Equal(t, worker.Address().String(), closed.Data["winner_address"])
		require.Contains(t, closed.Subjects, worker.Address().String())
		require.Equal(t, []string{"Go"}, byType["post.created"].Tags)
		require.Nil(t, byType["post.created"].JobID)
		require.Equal(t, operator.Address().String(), *byType["anchor.recorded"].Address)
		require.Equal(t, closed.Data["anchor_root"], byType["anchor.recorded"].Data["anchor_root"])
		require.EqualValues(t, 77, byType["anchor.recorded"].Data["anchor_block_number"])
		require.EqualValues(t, 2, byType["slash.recorded"].Data["amount_usdc"])
		require.Equal(t, jobID, *byType["slash.recorded"].JobID)
		require.EqualValues(t, 8, byType["stake.changed"].Data["staked_amount"], "10 USDC less the slash")

		// Filters: address (actor or subject), tag, job, types.
		q := "address=" + worker.Address().String()
		require.Equal(t, []string{"submission.created", "vote.cast", "final_vote.cast", "comment.created", "comment.deleted", "job.closed",
			"slash.recorded", "stake.changed"}, types(allEvents(t, srv, q, 100, from)))
		require.Len(t, allEvents(t, srv, "tag=RESEARCH", 100, from), 11, "the job's events carry its tags")
		require.Equal(t, []string{"post.created"}, types(allEvents(t, srv, "tag=go", 100, from)))
		require.Len(t, allEvents(t, srv, "job_id="+jobID, 2, ""), 11)
		require.Equal(t, []string{"job.created", "job.closed"}, types(allEvents(t, srv, "type=job.closed,job.created", 1, "")))
		require.Equal(t, []string{"job.closed"}, types(allEvents(t, srv, "type=job.closed&address="+sponsor.Address().String()+"&tag=research&job_id="+jobID, 5, "")))

		for _, bad := range []string{"after=12", "after=evt_XYZ", "type=job.exploded", "address=0x12", "job_id=nope", "limit=0", "limit=501", "tag=" + strings.Repeat("t", 33)} {
			r := srv.Do(t, http.MethodGet, "/api/v1/events?"+bad, "", nil)
			require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", bad, r.Body)
		}

		// Retention: a week later the events are gone and resuming from
		// them answers 410; the log goes on after them.
		srv.Clock.Advance(events.DefaultRetention + time.Hour)
		n, err := srv.Events.Cleanup(context.Background())
		require.NoError(t, err)
		require.EqualValues(t, 15, n)
		r = srv.Do(t, http.MethodGet, "/api/v1/events?after="+from, "", nil)
		require.Equal(t, http.StatusGone, r.Status, "%s", r.Body)
		r = srv.Do(t, http.MethodGet, "/api/v1/events/stream?after="+evs[0].ID, "", nil)
		require.Equal(t, http.StatusGone, r.Status, "%s", r.Body)
		p := listEvents(t, srv, "")
		require.Empty(t, p.Events)
		require.Equal(t, evs[len(evs)-1].ID, *p.NextCursor, "resume after the last event is still fine")
		require.Empty(t, listEvents(t, srv, "after="+evs[len(evs)-1].ID).Events)
	}, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.OperatorAddresses = []openjury.Address{operator.Address()} }))
}

// sseFrame is one frame of an event stream.
type sseFrame struct{ id, event, data string }

// sseStream is an open GET /api/v1/events/stream.
type sseStream struct {
	resp   *http.Response
	frames chan sseFrame
}

// openStream opens the stream with query q and Last-Event-ID lastID.
func openStream(t *testing.T, srv *openjurytest.Server, q, lastID string) *sseStream {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/events/stream?"+q, nil)
	require.NoError(t, err)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := srv.HTTP.Client().Do(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	s := &sseStream{resp: resp, frames: make(chan sseFrame, 100)}
	go func() {
		defer close(s.frames)
		sc := bufio.NewScanner(resp.Body)
		var f sseFrame
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				s.frames <- f
				f = sseFrame{}
				continue
			}
			k, v, _ := strings.Cut(line, ": ")
			switch k {
			case "id":
				f.id = v
			case "event":
				f.event = v
			case "data":
				f.data = v
			}
		}
	}()
	t.Cleanup(func() { _ = resp.Body.Close() })
	return s
}

// next returns the next frame with data (events), skipping id-only ones.
func (s *sseStream) next(t *testing.T) sseFrame {
	t.Helper()
	for {
		select {
		case f, ok := <-s.frames:
			require.True(t, ok, "the stream ended")
			if f.data != "" {
				return f
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no event on the stream")
		}
	}
}

// TestEventStreamResume: a stream delivers new events; after a dropped
// connection, Last-Event-ID (or ?after=) resumes with exactly the events
// missed, in order, then live ones; the Go client's iterator reconnects
// by itself across broken connections without missing or repeating an
// event.
func TestEventStreamResume(t *testing.T) {
	t.Parallel()
	openjurytest.OnEachServer(t, func(t *testing.T, srv *openjurytest.Server) {
		w := openjurytest.NewWallet(t)
		tok := srv.SignIn(t, w)
		newJob := func(title string) string {
			return post(t, srv, "/api/v1/jobs", tok, map[string]any{"title": title, "prompt": "p", "bounty_usdc": 1})["id"].(string)
		}

		s1 := openStream(t, srv, "type=job.created", "")
		first, ok := <-s1.frames
		require.True(t, ok)
		require.NotEmpty(t, first.id, "the preamble carries the stream's position")
		jobA := newJob("A")
		fa := s1.next(t)
		require.Equal(t, "job.created", fa.event)
		var ev eventJSON
		require.NoError(t, json.Unmarshal([]byte(fa.data), &ev))
		require.Equal(t, jobA, *ev.JobID)
		require.Equal(t, fa.id, ev.ID)
		_ = s1.resp.Body.Close() // the connection drops

		jobB, jobC := newJob("B"), newJob("C")
		s2 := openStream(t, srv, "type=job.created", fa.id)
		for _, want := range []string{jobB, jobC} {
			f := s2.next(t)
			require.NoError(t, json.Unmarshal([]byte(f.data), &ev))
			require.Equal(t, want, *ev.JobID, "the missed events, in order")
		}
		jobD := newJob("D")
		f := s2.next(t)
		require.NoError(t, json.Unmarshal([]byte(f.data), &ev))
		require.Equal(t, jobD, *ev.JobID, "then live")

		s3 := openStream(t, srv, "after="+fa.id+"&job_id="+jobC, "")
		f = s3.next(t)
		require.NoError(t, json.Unmarshal([]byte(f.data), &ev))
		require.Equal(t, jobC, *ev.JobID)
		require.Equal(t, "job.created", f.event)

		// The client's iterator, over connections that break after each
		// event: every event once, in order.
		breaker := &breakingTransport{}
		c, err := client.New(srv.URL, client.WithHTTPClient(&http.Client{Transport: breaker}))
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var want []string
		for _, title := range []string{"E", "F", "G", "H"} {
			want = append(want, newJob(title))
		}
		var got []string
		for ev, err := range c.StreamEvents(ctx, client.EventFilter{Types: []string{"job.created"}}, fa.id) {
			require.NoError(t, err)
			got = append(got, *ev.JobID)
			if len(got) == 7 {
				break
			}
			if len(got) == 3 {
				want = append(want, newJob("I")) // written while the iterator runs
			}
		}
		require.Equal(t, append([]string{jobB, jobC, jobD}, want...)[:7], got)
		require.GreaterOrEqual(t, breaker.connections.Load(), int64(7), "each event on a new connection")
	})
}

// TestJuryDrawnOnlyToTheJuror: an event with an audience reaches reads and
// streams filtered by the juror's address, and the juror's webhooks;
// nobody else's filter, stream or webhook.
func TestJuryDrawnOnlyToTheJuror(t *testing.T) {
	t.Parallel()
	rec := newReceiver(t)
	srv := openjurytest.NewServer(t, openjurytest.WithConfig(func(c *openjurytest.ServerConfig) {
		c.WebhookAllowPrivate = true
	}))
	sponsor, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	st, jt := srv.SignIn(t, sponsor), srv.SignIn(t, juror)
	jobID := post(t, srv, "/api/v1/jobs", st, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1, "tags": []string{"x"}})["id"].(string)
	sponsorHook := post(t, srv, "/api/v1/webhooks", st, map[string]any{"url": rec.url("/sponsor")})
	jurorHook := post(t, srv, "/api/v1/webhooks", jt, map[string]any{"url": rec.url("/juror"), "types": []string{"jury.drawn"}})
	srv.FlushEvents(t) // job.created is sequenced before the streams open, so they start after it
	plain := openStream(t, srv, "", "")
	mine := openStream(t, srv, "address="+juror.Address().String(), "")
	theirs := openStream(t, srv, "address="+sponsor.Address().String()+"&type=jury.drawn", "")
	for _, s := range []*sseStream{plain, mine, theirs} {
		<-s.frames // the preamble: subscribed
	}

	require.NoError(t, srv.DB.InTx(context.Background(), func(ctx context.Context, tx marketplace.Tx) error {
		return tx.Events().Append(ctx, &events.Event{Type: events.JuryDrawn, CreatedAt: srv.Clock.Now(), JobID: jobID,
			Subjects: []openjury.Address{juror.Address()}, Audience: []openjury.Address{juror.Address()},
			Data: events.Data{"job_id": jobID, "juror_address": juror.Address().String()}})
	}))
	post(t, srv, "/api/v1/posts", st, map[string]any{"title": "after", "content": "c"})
	srv.FlushEvents(t)

	require.Equal(t, "jury.drawn", mine.next(t).event)
	require.Equal(t, "post.created", plain.next(t).event, "the plain stream skips the draw")
	require.Empty(t, listEvents(t, srv, "type=jury.drawn").Events)
	require.Empty(t, listEvents(t, srv, "job_id="+jobID+"&type=jury.drawn").Events)
	require.Empty(t, listEvents(t, srv, "tag=x&type=jury.drawn").Events)
	require.Empty(t, listEvents(t, srv, "address="+sponsor.Address().String()+"&type=jury.drawn").Events)
	require.Len(t, listEvents(t, srv, "address="+juror.Address().String()).Events, 1)
	got := rec.wait(t, "/juror", 1)
	require.Equal(t, "jury.drawn", got[0].event.Type)
	require.Eventually(t, func() bool {
		return slices.ContainsFunc(rec.all("/sponsor"), func(d delivery) bool { return d.event.Type == "post.created" })
	}, 10*time.Second, 10*time.Millisecond, "the sponsor's webhook gets the post after the draw")
	for _, d := range rec.all("/sponsor") {
		require.NotEqual(t, "jury.drawn", d.event.Type)
	}
	select {
	case f := <-theirs.frames:
		require.Empty(t, f.data, "the sponsor's filtered stream never sees the draw")
	case <-time.After(300 * time.Millisecond):
	}
	_ = sponsorHook
	_ = jurorHook
}

// breakingTransport ends every stream's body after its first event frame
// and counts connections.
type breakingTransport struct{ connections atomic.Int64 }

func (b *breakingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return res, err
	}
	b.connections.Add(1)
	res.Body = &breakAfterEvent{rc: res.Body}
	return res, nil
}

// breakAfterEvent passes a stream through until the end of its first
// frame with data, then fails.
type breakAfterEvent struct {
	rc   io.ReadCloser
	seen []byte
	done bool
}

func (b *breakAfterEvent) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.ErrUnexpectedEOF
	}
	n, err := b.rc.Read(p)
	b.seen = append(b.seen, p[:n]...)
	if i := strings.Index(string(b.seen), "\ndata: "); i >= 0 {
		if j := strings.Index(string(b.seen[i:]), "\n\n"); j >= 0 {
			end := i + j + 2
			over := len(b.seen) - end
			b.done = true
			return n - over, nil
		}
	}
	return n, err
}

func (b *breakAfterEvent) Close() error { return b.rc.Close() }

// TestTwoReplicas: two servers on one PostgreSQL database, each with its
// own sequencer, fan-out, dispatcher and deliverer: a stream on one
// replica gets the events written through the other, resumes on either,
// and a webhook gets each event exactly once (the replicas share the work
// through the database).
func TestTwoReplicas(t *testing.T) {
	t.Parallel()
	rec := newReceiver(t)
	dsn := dbtest.Postgres(t)
	opts := []openjurytest.Option{openjurytest.WithDSN(dsn), openjurytest.WithConfig(func(c *openjurytest.ServerConfig) { c.WebhookAllowPrivate = true })}
	a, b := openjurytest.NewServer(t, opts...), openjurytest.NewServer(t, opts...)
	w := openjurytest.NewWallet(t)
	tok := a.SignIn(t, w)
	post(t, b, "/api/v1/webhooks", tok, map[string]any{"url": rec.url("/replicas"), "types": []string{"job.created"}})

	onB := openStream(t, b, "type=job.created", "")
	<-onB.frames
	var jobs []string
	for i := range 6 {
		srv := a
		if i%2 == 1 {
			srv = b
		}
		jobs = append(jobs, post(t, srv, "/api/v1/jobs", tok, map[string]any{"title": fmt.Sprint("job ", i), "prompt": "p", "bounty_usdc": 1})["id"].(string))
	}
	var last string
	for _, want := range jobs[:3] {
		f := onB.next(t)
		var ev eventJSON
		require.NoError(t, json.Unmarshal([]byte(f.data), &ev))
		require.Equal(t, want, *ev.JobID, "in order, whichever replica wrote it")
		last = f.id
	}
	_ = onB.resp.Body.Close()
	onA := openStream(t, a, "type=job.created", last) // resume on the other replica
	for _, want := range jobs[3:] {
		var ev eventJSON
		require.NoError(t, json.Unmarshal([]byte(onA.next(t).data), &ev))
		require.Equal(t, want, *ev.JobID)
	}

	got := rec.wait(t, "/replicas", len(jobs))
	time.Sleep(time.Second) // a duplicate would arrive meanwhile
	got = rec.all("/replicas")
	require.Len(t, got, len(jobs), "each event delivered once by the two replicas")
	ids := map[string]bool{}
	for _, d := range got {
		require.False(t, ids[d.header.Get("webhook-id")], "delivered twice")
		ids[d.header.Get("webhook-id")] = true
	}
}

// TestCommitmentEventsOverHTTP: through the API, a commitment shows in
// GET /api/v1/events?type=vote.committed with its voter and job and
// without its choice, and the reveal's vote.revealed does not name the
// submission either: no event a reader gets before the reveal window ends
// names the submission voted for.
func TestCommitmentEventsOverHTTP(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	sponsor, worker, juror := openjurytest.NewWallet(t), openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	st, wt, jt := srv.SignIn(t, sponsor), srv.SignIn(t, worker), srv.SignIn(t, juror)
	srv.SetStake(t, worker.Address(), 10)
	srv.SetStake(t, juror.Address(), 10)
	srv.SetReputation(t, juror.Address(), 10)
	jobID := post(t, srv, "/api/v1/jobs", st, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1,
		"jury_mode": "commit_reveal", "jury_commit_seconds": 600, "jury_reveal_seconds": 600})["id"].(string)
	subID := post(t, srv, "/api/v1/submissions", wt, map[string]any{"job_id": jobID, "content": "work"})["submission"].(map[string]any)["id"].(string)
	salt := [32]byte{7, 7, 7}
	commitment := marketplace.CommitmentOf(jobID, subID, juror.Address(), salt)
	post(t, srv, "/api/v1/votes", jt, map[string]any{"job_id": jobID, "commitment": commitment.String()})
	srv.FlushEvents(t)

	r := srv.Do(t, http.MethodGet, "/api/v1/events?type=vote.committed", "", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var page eventPage
	r.JSON(t, &page)
	require.Len(t, page.Events, 1)
	ev := page.Events[0]
	require.Equal(t, jobID, *ev.JobID)
	require.Equal(t, juror.Address().String(), *ev.Address)
	require.Equal(t, []string{sponsor.Address().String()}, ev.Subjects)
	require.Equal(t, juror.Address().String(), ev.Data["voter_address"])
	require.Len(t, ev.Data, 3, "job_id, voter_address, created_at: %v", ev.Data)
	for _, secret := range []string{subID, worker.Address().String(), commitment.String()} {
		require.NotContains(t, string(r.Body), secret, "the commitment's choice never shows")
	}

	srv.Clock.Advance(10 * time.Minute)
	post(t, srv, "/api/v1/votes/reveal", jt, map[string]any{"job_id": jobID, "submission_id": subID, "salt": openjury.HashFromBytes(salt).String()})
	srv.FlushEvents(t)
	r = srv.Do(t, http.MethodGet, "/api/v1/events?job_id="+jobID+"&type=vote.committed,vote.revealed,jury.reveal_opened", "", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.JSON(t, &page)
	require.Equal(t, []string{"vote.committed", "jury.reveal_opened", "vote.revealed"}, types(page.Events))
	require.NotContains(t, string(r.Body), subID, "the reveal does not tell the choice before the tallies show")
	require.EqualValues(t, 4, page.Events[2].Data["weight"], "score 10: weight 1 + floor(sqrt(10))")
}
