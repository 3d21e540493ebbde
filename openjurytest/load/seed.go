package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

// The seeded data set. Job i (0-based, oldest first) carries the tags
// seedTagAll (every job, so a tag list can go deepPages deep at any size),
// "t<i%10>" and "k<i%97>"; every seedBoostEvery-th job has a boost (active
// or expired, alternately), every seedClosedEvery-th job is closed, every
// seedWorkEvery-th open job has two submissions and a jury vote, and every
// seedCommentEvery-th job a comment.
const (
	seedTagAll       = "bench"
	seedBoostEvery   = 1000
	seedClosedEvery  = 10
	seedWorkEvery    = 5
	seedCommentEvery = 10
	// seedBatch jobs are written per transaction.
	seedBatch = 500
	// seedAgents is the number of seed wallets (sponsors, submitters,
	// voters, commenters); they never sign in.
	seedAgents = 64
)

// seedTags returns the tags of job i.
func seedTags(i int) []string {
	return []string{seedTagAll, fmt.Sprintf("t%d", i%10), fmt.Sprintf("k%d", i%97)}
}

// seedAddress is the i-th seed wallet: a fixed address no key signs for.
func seedAddress(i int) openjury.Address {
	var b [20]byte
	b[0] = 0x5e
	b[1] = 0xed
	b[19] = byte(i % seedAgents)
	return openjury.AddressFromBytes(b)
}

// seeder fills a database with jobs through the store ports (bunstore.Open
// and DB.InTx), never raw SQL, so it follows the schema wherever it goes.
type seeder struct {
	db      *bunstore.DB
	now     time.Time
	total   int
	writers int
	out     io.Writer
	every   time.Duration
	// searchDocs newest jobs are queued for the search index, the way a
	// marketplace write queues its document; newestIndexed is the id of
	// the newest of them.
	searchDocs    int
	newestIndexed string
}

// seedStats counts what a seed wrote.
type seedStats struct {
	jobs, submissions, votes, comments atomic.Int64
}

// add adds to st what b counted (a transaction that committed).
func (st *seedStats) add(b *seedStats) {
	st.jobs.Add(b.jobs.Load())
	st.submissions.Add(b.submissions.Load())
	st.votes.Add(b.votes.Load())
	st.comments.Add(b.comments.Load())
}

// seed writes jobs [0, s.total), seedBatch per transaction, with s.writers
// concurrent transactions (1 on SQLite: it has one writer), printing
// progress every s.every.
func (s *seeder) seed(ctx context.Context) (*seedStats, error) {
	st := &seedStats{}
	start := time.Now()
	next := atomic.Int64{}
	stop := make(chan struct{})
	var progress sync.WaitGroup
	progress.Go(func() {
		t := time.NewTicker(s.every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				n := st.jobs.Load()
				fmt.Fprintf(s.out, "seed: %d/%d jobs (%.0f jobs/s)\n", n, s.total, float64(n)/time.Since(start).Seconds())
			}
		}
	})
	// The progress printer is stopped before any other line is written to
	// s.out (the final one below), so the two never write at once.
	var stopOnce sync.Once
	stopProgress := func() {
		stopOnce.Do(func() {
			close(stop)
			progress.Wait()
		})
	}
	defer stopProgress()
	errs := make(chan error, s.writers)
	var wg sync.WaitGroup
	for range s.writers {
		wg.Go(func() {
			for {
				from := int(next.Add(seedBatch)) - seedBatch
				if from >= s.total || ctx.Err() != nil {
					return
				}
				to := min(from+seedBatch, s.total)
				var batch *seedStats
				if err := s.db.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
					batch = &seedStats{} // InTx may run this again: only a committed run counts
					for i := from; i < to; i++ {
						if err := s.seedJob(ctx, tx, i, batch); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					errs <- fmt.Errorf("seed jobs %d..%d: %w", from, to, err)
					return
				}
				batch.jobs.Add(int64(to - from))
				st.add(batch)
			}
		})
	}
	wg.Wait()
	stopProgress()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fmt.Fprintf(s.out, "seed: %d jobs, %d submissions, %d votes, %d comments in %s\n",
		st.jobs.Load(), st.submissions.Load(), st.votes.Load(), st.comments.Load(), time.Since(start).Round(time.Millisecond))
	return st, nil
}

// seedJob writes job i and its submissions, vote and comment.
func (s *seeder) seedJob(ctx context.Context, tx marketplace.Tx, i int, st *seedStats) error {
	created := s.now.Add(-time.Duration(s.total-i) * time.Second).UTC()
	j := &marketplace.Job{
		ID:                openjury.NewID(),
		Title:             fmt.Sprintf("Seeded job %d", i),
		Prompt:            "Summarise the attached source in one paragraph, with citations. Seeded for the benchmark.",
		Bounty:            openjury.MicroUSDC(int64(1+i%100) * openjury.MicroPerUSDC),
		Tags:              seedTags(i),
		Status:            marketplace.StatusOpen,
		Sponsor:           seedAddress(i),
		CreatedAt:         created,
		FinalVoteStartsAt: s.now.Add(30 * 24 * time.Hour).UTC(),
		FinalVoteEndsAt:   s.now.Add(31 * 24 * time.Hour).UTC(),
	}
	if i%seedBoostEvery == seedBoostEvery-1 {
		until := s.now.Add(time.Hour).UTC()
		if (i/seedBoostEvery)%2 == 1 {
			until = s.now.Add(-time.Hour).UTC()
		}
		j.FeaturedScore, j.FeaturedUntil = int64(1+i%50), &until
	}
	if i%seedClosedEvery == seedClosedEvery-1 {
		closed := created.Add(time.Minute)
		j.Status, j.ClosedAt = marketplace.StatusClosed, &closed
	}
	if err := tx.Jobs().CreateJob(ctx, j); err != nil {
		return err
	}
	if i >= s.total-s.searchDocs {
		if err := tx.Search().Enqueue(ctx, marketplace.DocJob, j.ID, created); err != nil {
			return err
		}
		if i == s.total-1 {
			s.newestIndexed = j.ID
		}
	}
	if j.Status == marketplace.StatusOpen && i%seedWorkEvery == 0 {
		var first string
		for k := 1; k <= 2; k++ {
			sub := &marketplace.Submission{
				JobID:     j.ID,
				Agent:     seedAddress(i + k),
				Content:   "A seeded answer: the source says what it says, with a quote.",
				Evidence:  []marketplace.Evidence{{Type: "url", SourceURL: "https://example.org/source", Quote: "what it says"}},
				CreatedAt: created.Add(time.Duration(k) * time.Second),
			}
			if err := tx.Submissions().CreateSubmission(ctx, sub); err != nil {
				return err
			}
			if first == "" {
				first = sub.ID
			}
			st.submissions.Add(1)
		}
		v := &marketplace.Vote{JobID: j.ID, SubmissionID: first, Voter: seedAddress(i + 3), Weight: 1, CreatedAt: created.Add(3 * time.Second)}
		if err := tx.Votes().PutVote(ctx, v); err != nil {
			return err
		}
		st.votes.Add(1)
	}
	if i%seedCommentEvery == 0 {
		c := &marketplace.Comment{ID: openjury.NewID(), Target: marketplace.TargetJob, TargetID: j.ID,
			Author: seedAddress(i + 4), Content: "Seeded comment.", CreatedAt: created.Add(4 * time.Second)}
		if err := tx.Comments().CreateComment(ctx, c); err != nil {
			return err
		}
		st.comments.Add(1)
	}
	return nil
}
