package bunstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
)

// Open a SQLite file (created with its directory and migrated) and use
// it as the marketplace's database.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "openjury-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	db, err := bunstore.Open(ctx, "sqlite:"+filepath.Join(dir, "data", "openjury.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	market := marketplace.NewService(db, openjury.SystemClock{}, marketplace.Config{})
	job, err := market.CreateJob(ctx, openjury.MustAddress("0x1111111111111111111111111111111111111111"),
		marketplace.CreateJobInput{Title: "Summarise a paper", Prompt: "Summarise arXiv:1706.03762.", Tags: []string{"NLP", "nlp", "papers"}})
	if err != nil {
		log.Fatal(err)
	}
	got, err := market.Job(ctx, job.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(db.Dialect(), got.Title, got.Tags)
	// Output: sqlite Summarise a paper [NLP papers]
}

// Make OpenJury's writes part of the embedder's own transaction.
func ExampleDB_WithTx() {
	ctx := context.Background()
	db, err := bunstore.Open(ctx, ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Bun().ExecContext(ctx, "CREATE TABLE audit (note TEXT)"); err != nil {
		log.Fatal(err)
	}

	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tx, err := db.Bun().BeginTx(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer tx.Rollback() // no-op after Commit
	err = db.WithTx(tx).Jobs().CreateJob(ctx, &marketplace.Job{
		ID: openjury.NewID(), Title: "t", Prompt: "p", Status: marketplace.StatusOpen,
		Sponsor:   openjury.MustAddress("0x1111111111111111111111111111111111111111"),
		CreatedAt: now, FinalVoteStartsAt: now, FinalVoteEndsAt: now.Add(time.Hour),
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO audit (note) VALUES ('job posted')"); err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		log.Fatal(err)
	}

	jobs, err := db.Jobs().ListJobs(ctx, marketplace.JobFilter{Ref: now, Limit: 10})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(jobs), "job committed with the audit row")
	// Output: 1 job committed with the audit row
}
