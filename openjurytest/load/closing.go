package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/marketplace"
)

// The close scenario (-scenarios close) measures closing at any size
// (docs/rules.md): two jobs of -close-records records totalling about
// -close-bytes are seeded straight through the store; with the target
// running, the sponsor closes the first and a final voter finalizes the
// second (its final-vote window ended) while -c workers keep writing to
// other jobs (submissions, jury votes, comments) at -close-write-rate
// requests a second. It reports each close's
// duration, the target's resident memory (VmRSS from /proc every 50 ms,
// and VmHWM) above its idle level, the other writes' p50/p99, then
// streams the first snapshot through anchor.VerifyReader against the
// job's root and checks a sample of proofs with anchor.Verify.
const closeScenario = "close"

// rssEvery is how often the close scenario samples the target's VmRSS.
const rssEvery = 50 * time.Millisecond

// closeTimeout bounds one close, finalize or snapshot download.
const closeTimeout = 30 * time.Minute

// closeFixture is what the close scenario seeded: the two big jobs, a
// submission of the first (the winner), and the keys of the sponsor and
// of the final voter who finalizes the second.
type closeFixture struct {
	closeJob, finalizeJob, winner string
	sponsor, finalizer            *ecdsa.PrivateKey
	records                       int
	bytes                         int64
}

// closeMix is how the records of a big job are made: subs submissions
// (five per agent), as many jury votes and final votes (one per voter),
// comments for the rest; content is the text size of submissions and
// comments.
type closeMix struct {
	subs, votes, finals, comments int
	content                       int
}

// newCloseMix spreads records (job included) totalling about bytes.
func newCloseMix(records int, bytes int64) (closeMix, error) {
	if records < 10 {
		return closeMix{}, errors.New("need -close-records >= 10")
	}
	m := closeMix{subs: min(1000, records/10)}
	m.votes, m.finals = m.subs, m.subs
	m.comments = records - 1 - m.subs - m.votes - m.finals
	// About 300 bytes of each submission or comment record are not its
	// text; votes are small.
	m.content = max(1, min(marketplace.MaxPromptChars, int(bytes/int64(m.subs+m.comments))-300))
	return m, nil
}

// closeAddress is the i-th voter or agent of a big job: a fixed address
// no key signs for.
func closeAddress(i int) openjury.Address {
	var b [20]byte
	b[0], b[1] = 0xc1, 0x05
	for k := 0; k < 4; k++ {
		b[19-k] = byte(i >> (8 * k))
	}
	return openjury.AddressFromBytes(b)
}

// text is n characters of plain text that differ with i.
func text(i, n int) string {
	var b strings.Builder
	b.Grow(n + 32)
	for b.Len() < n {
		b.WriteString("record ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" of the closing benchmark; ")
	}
	return b.String()[:n]
}

// seedClosing seeds the two big jobs of the close scenario into dsn.
func seedClosing(ctx context.Context, dsn string, c config, out io.Writer) (*closeFixture, error) {
	mix, err := newCloseMix(c.closeRecords, c.closeBytes)
	if err != nil {
		return nil, err
	}
	f := &closeFixture{records: c.closeRecords}
	if f.sponsor, err = crypto.GenerateKey(); err != nil {
		return nil, err
	}
	if f.finalizer, err = crypto.GenerateKey(); err != nil {
		return nil, err
	}
	db, err := bunstore.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", redact(dsn), err)
	}
	defer db.Close()
	now := time.Now().UTC()
	start := time.Now()
	for k := range 2 {
		j := &marketplace.Job{
			ID: openjury.NewID(), Title: fmt.Sprintf("Closing benchmark job %d", k), Prompt: "A job with many large records.",
			Bounty: 100 * openjury.MicroPerUSDC, Tags: []string{"closing"}, Status: marketplace.StatusOpen,
			Sponsor:   openjury.AddressFromBytes([20]byte(crypto.PubkeyToAddress(f.sponsor.PublicKey))),
			CreatedAt: now.Add(-2 * time.Hour), FinalVoteStartsAt: now.Add(-2 * time.Hour), FinalVoteEndsAt: now.Add(24 * time.Hour),
		}
		if k == 1 {
			j.FinalVoteEndsAt = now.Add(-time.Hour) // finalize: the window has ended
		}
		winner, size, err := seedBigJob(ctx, db, j, mix, f, k == 1)
		if err != nil {
			return nil, fmt.Errorf("seed the closing job %d: %w", k, err)
		}
		f.bytes = size
		if k == 0 {
			f.closeJob, f.winner = j.ID, winner
		} else {
			f.finalizeJob = j.ID
		}
		fmt.Fprintf(out, "close: seeded job %s: %d records, %s of text, in %s\n", j.ID, c.closeRecords, mb(size), time.Since(start).Round(time.Second))
	}
	return f, nil
}

// seedBigJob writes job j and its records (mix) in transactions of about
// 500 records; with finalVoter, the finalizer casts the last final vote.
// It returns a submission's id and the bytes of text written.
func seedBigJob(ctx context.Context, db *bunstore.DB, j *marketplace.Job, mix closeMix, f *closeFixture, finalVoter bool) (string, int64, error) {
	if err := db.Jobs().CreateJob(ctx, j); err != nil {
		return "", 0, err
	}
	var (
		subs []string
		size int64
	)
	at := func(i int) time.Time { return j.CreatedAt.Add(time.Duration(i) * time.Millisecond) }
	batch := func(n int, write func(tx marketplace.Tx, i int) error) error {
		for from := 0; from < n; from += 500 {
			keep, kept := len(subs), size
			if err := db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
				// InTx may run this again: only a committed run counts.
				subs, size = subs[:keep], kept
				for i := from; i < min(from+500, n); i++ {
					if err := write(tx, i); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	}
	err := batch(mix.subs, func(tx marketplace.Tx, i int) error {
		conf := 0.5
		s := &marketplace.Submission{ID: openjury.NewID(), JobID: j.ID, Agent: closeAddress(i / marketplace.MaxSubmissionsPerAgent),
			Content: text(i, mix.content), CreatedAt: at(i),
			Evidence: []marketplace.Evidence{{Type: "url", SourceURL: "https://example.org/" + strconv.Itoa(i), Quote: "quoted", Confidence: &conf}}}
		subs = append(subs, s.ID)
		size += int64(mix.content)
		return tx.Submissions().CreateSubmission(ctx, s)
	})
	if err == nil {
		err = batch(mix.votes, func(tx marketplace.Tx, i int) error {
			return tx.Votes().PutVote(ctx, &marketplace.Vote{JobID: j.ID, SubmissionID: subs[i%len(subs)], Voter: closeAddress(1_000_000 + i),
				Weight: 1 + int64(i%5), Review: map[string]any{"checked": true, "note": "vote " + strconv.Itoa(i)}, CreatedAt: at(i)})
		})
	}
	if err == nil {
		err = batch(mix.finals, func(tx marketplace.Tx, i int) error {
			voter := closeAddress(2_000_000 + i)
			if finalVoter && i == mix.finals-1 {
				voter = openjury.AddressFromBytes([20]byte(crypto.PubkeyToAddress(f.finalizer.PublicKey)))
			}
			return tx.FinalVotes().PutFinalVote(ctx, &marketplace.FinalVote{JobID: j.ID, SubmissionID: subs[(i*7)%len(subs)], Voter: voter, CreatedAt: at(i)})
		})
	}
	if err == nil {
		err = batch(mix.comments, func(tx marketplace.Tx, i int) error {
			target, targetID := marketplace.TargetJob, j.ID
			if i%4 == 0 {
				target, targetID = marketplace.TargetSubmission, subs[i%len(subs)]
			}
			size += int64(mix.content)
			return tx.Comments().CreateComment(ctx, &marketplace.Comment{Target: target, TargetID: targetID,
				Author: closeAddress(3_000_000 + i%5000), Content: text(i, mix.content), CreatedAt: at(i)})
		})
	}
	return subs[0], size, err
}

// mb formats bytes in MB.
func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// rss reads a value in kB (VmRSS, VmHWM) of /proc/<pid>/status, in bytes;
// 0 when unknown.
func rss(pid int, field string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// rssPeak samples pid's VmRSS every rssEvery until stop and returns the
// highest.
func rssPeak(pid int, stop <-chan struct{}) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		peak := rss(pid, "VmRSS")
		t := time.NewTicker(rssEvery)
		defer t.Stop()
		for {
			select {
			case <-stop:
				out <- max(peak, rss(pid, "VmRSS"))
				return
			case <-t.C:
				peak = max(peak, rss(pid, "VmRSS"))
			}
		}
	}()
	return out
}

// runClose runs the close scenario on the target.
func runClose(ctx context.Context, t *target, fix *fixtures, cf *closeFixture, c config, out io.Writer) error {
	long := &http.Client{Timeout: closeTimeout, Transport: t.http.Transport}
	login := func(key *ecdsa.PrivateKey) (*client.Client, error) {
		cl, err := client.New(t.base, client.WithHTTPClient(long), client.WithoutRetries(), client.WithSigner(client.NewKeySigner(key)))
		if err != nil {
			return nil, err
		}
		_, err = cl.Login(ctx)
		return cl, err
	}
	sponsor, err := login(cf.sponsor)
	if err != nil {
		return fmt.Errorf("close: sponsor sign-in: %w", err)
	}
	finalizer, err := login(cf.finalizer)
	if err != nil {
		return fmt.Errorf("close: final voter sign-in: %w", err)
	}
	// The other jobs' writes must not touch the big ones.
	others := *fix
	others.jobs = slices.DeleteFunc(slices.Clone(fix.jobs), func(j string) bool { return j == cf.closeJob || j == cf.finalizeJob })
	others.pairs = slices.DeleteFunc(slices.Clone(fix.pairs), func(p votePair) bool { return p.job == cf.closeJob || p.job == cf.finalizeJob })
	if len(others.jobs) == 0 || len(others.pairs) == 0 {
		return errors.New("close: no other jobs to write to while closing: seed some (-seed N)")
	}
	rep := &report{out: out}
	for _, step := range []struct {
		name, job string
		do        func() error
	}{
		{"close", cf.closeJob, func() error {
			_, err := sponsor.CloseJob(ctx, cf.closeJob, client.CloseJobRequest{WinnerSubmissionID: cf.winner})
			return err
		}},
		{"finalize", cf.finalizeJob, func() error {
			_, err := finalizer.FinalizeJob(ctx, cf.finalizeJob)
			return err
		}},
	} {
		if err := closeStep(t, &others, c, cf, rep, step.name, step.job, step.do, out); err != nil {
			return err
		}
	}
	return verifySnapshot(ctx, t, long, cf, out)
}

// closeStep measures one close (do) of job: the target's idle RSS for a
// second, then do with the writers running, its duration, the target's
// peak RSS during it, and the writers' latencies.
func closeStep(t *target, fix *fixtures, c config, cf *closeFixture, rep *report, name, job string, do func() error, out io.Writer) error {
	idle := int64(0)
	if t.pid != 0 {
		stopIdle := make(chan struct{})
		idlePeak := rssPeak(t.pid, stopIdle)
		time.Sleep(time.Second)
		close(stopIdle)
		idle = <-idlePeak
	}
	stop := make(chan struct{})
	var peak <-chan int64
	if t.pid != 0 {
		peak = rssPeak(t.pid, stop)
	}
	writes := newResult()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var seq atomic.Int64
	// The writes come at a steady rate (-close-write-rate): each new
	// submission or comment also grows the target's in-memory search
	// index for good, which an unbounded stream would make the figure
	// of, not the close.
	tokens := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second / time.Duration(c.closeWriteRate))
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				select {
				case tokens <- struct{}{}:
				default: // every worker busy: the write is skipped
				}
			}
		}
	}()
	started := time.Now()
	for range c.workers {
		wg.Go(func() {
			res := newResult()
			for {
				select {
				case <-stop:
					mu.Lock()
					writes.merge(res)
					mu.Unlock()
					return
				case <-tokens:
				}
				s := seq.Add(1) - 1
				part := []string{"submit", "vote", "comment"}[s%3]
				rq, ok := singles[part](fix, s/3)
				if !ok {
					rq, _ = singles["submit"](fix, s/3)
				}
				t0 := time.Now()
				err := rq.call(context.WithValue(context.Background(), opKey{}, rq.op), t.clients)
				res.record(rq.op, time.Since(t0), err)
			}
		})
	}
	err := do()
	took := time.Since(started)
	close(stop)
	wg.Wait()
	writes.elapsed = time.Since(started)
	if err != nil {
		return fmt.Errorf("%s of job %s: %w", name, job, err)
	}
	line := fmt.Sprintf("%s: job %s (%d records, %s of text) in %s", name, job, cf.records, mb(cf.bytes), took.Round(10*time.Millisecond))
	if peak != nil {
		p := <-peak
		line += fmt.Sprintf("; RSS of %s: idle %s, peak %s (%s above idle), VmHWM %s", t.rssOf, mb(idle), mb(p), mb(p-idle), mb(rss(t.pid, "VmHWM")))
	}
	fmt.Fprintln(out, line)
	fmt.Fprintf(out, "%s: other jobs' writes meanwhile:\n", name)
	rep.header = false
	rep.scenario(name, nil, writes)
	return nil
}

// verifySnapshot streams the closed job's snapshot through
// anchor.VerifyReader against the job's root and checks the proofs of
// about 100 records spread over it, of the salt and of a bare id.
func verifySnapshot(ctx context.Context, t *target, long *http.Client, cf *closeFixture, out io.Writer) error {
	anon, err := client.New(t.base, client.WithHTTPClient(long), client.WithoutRetries())
	if err != nil {
		return err
	}
	a, err := anon.GetJobAnchor(ctx, cf.closeJob)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	root, err := openjury.ParseHash("anchor_root", a.AnchorRoot)
	if err != nil {
		return err
	}
	started := time.Now()
	body, err := anon.OpenJobAnchorSnapshot(ctx, cf.closeJob)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	defer body.Close()
	counted := &countingReader{r: body}
	every := max(1, cf.records/100)
	sample := map[string]anchor.Node{}
	n := 0
	h, records, err := anchor.VerifyReader(counted, root, func(id string, leaf anchor.Node) {
		if n < 2 || n%every == 0 { // the job, the first submission (the winner), a spread
			sample[id] = leaf
		}
		n++
	})
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	took := time.Since(started)
	if records != cf.records {
		return fmt.Errorf("snapshot: %d records, seeded %d", records, cf.records)
	}
	salt, err := anchor.NodeOf(h.Salt)
	if err != nil {
		return err
	}
	sample[anchor.SaltRecordID] = anchor.Leaf(salt[:])
	rootNode, err := anchor.NodeOf(root)
	if err != nil {
		return err
	}
	proofStart := time.Now()
	check := func(record string, leaf anchor.Node) error {
		p, err := anon.GetJobAnchorProof(ctx, cf.closeJob, record)
		if err != nil {
			return fmt.Errorf("proof of %s: %w", record, err)
		}
		nodes := make([]anchor.Node, len(p.Proof))
		for i, s := range p.Proof {
			if nodes[i], err = anchor.NodeOf(openjury.Hash(s)); err != nil {
				return err
			}
		}
		if p.Leaf != openjury.HashFromBytes(leaf).String() || !anchor.Verify(nodes, rootNode, leaf) {
			return fmt.Errorf("proof of %s: does not lead from its leaf to the root", record)
		}
		return nil
	}
	for id, leaf := range sample {
		if err := check(id, leaf); err != nil {
			return err
		}
	}
	// The winner by its bare id.
	if err := check(cf.winner, sample["submission:"+cf.winner]); err != nil {
		return err
	}
	fmt.Fprintf(out, "snapshot: %s streamed and verified against the root in %s (%d records); %d proofs verified in %s\n",
		mb(counted.n), took.Round(10*time.Millisecond), records, len(sample)+1, time.Since(proofStart).Round(time.Millisecond))
	return nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
