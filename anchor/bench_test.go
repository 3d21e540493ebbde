package anchor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openjury/openjury/anchor"
)

// benchRecords is a job-sized snapshot: n records of about 1 KiB.
func benchRecords(n int) []anchor.Record {
	recs := make([]anchor.Record, n)
	for i := range recs {
		recs[i] = anchor.Record{ID: fmt.Sprintf("submission:%d", i), Type: "submission", Fields: map[string]any{
			"content": strings.Repeat("work ", 200), "evidence": []any{map[string]any{"confidence": 0.75, "quote": "q"}},
		}}
	}
	return recs
}

// BenchmarkBuild builds the snapshot of 1000 records (the work a close
// adds to its transaction).
func BenchmarkBuild(b *testing.B) {
	recs := benchRecords(1000)
	for b.Loop() {
		if _, err := anchor.Build("job", fixedSalt, fixedTime, recs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProofs builds the snapshot of 1000 records and all their
// proofs (what a close computes and stores in its transaction; GET
// .../anchor/proof then reads one stored proof).
func BenchmarkProofs(b *testing.B) {
	recs := benchRecords(1000)
	for b.Loop() {
		s, err := anchor.Build("job", fixedSalt, fixedTime, recs)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Proofs()) != 1001 {
			b.Fatal("missing proofs")
		}
	}
}

// BenchmarkProve parses a stored 1000-record document and proves one
// record (the work of GET .../anchor/proof for a batch stored without
// proofs, before they were stored).
func BenchmarkProve(b *testing.B) {
	s, err := anchor.Build("job", fixedSalt, fixedTime, benchRecords(1000))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		d, err := anchor.ParseDocument(s.Document)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Prove("submission:500"); err != nil {
			b.Fatal(err)
		}
	}
}
