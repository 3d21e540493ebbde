package anchor_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

// The proofs of a built snapshot are, record by record, what the parsed
// document proves, and each one leads to the root.
func TestSnapshotProofsAreTheDocumentsProofs(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 33, 200} {
		var recs []anchor.Record
		for i := range n {
			recs = append(recs, anchor.Record{ID: fmt.Sprintf("r%03d", i), Type: "t", Fields: map[string]any{"i": i, "s": "café"}})
		}
		s, err := anchor.Build("j", fixedSalt, fixedTime, recs)
		require.NoError(t, err)
		d, err := anchor.ParseDocument(s.Document)
		require.NoError(t, err)
		proofs := s.Proofs()
		require.Len(t, proofs, n+1, "every record and the salt")
		ids := make([]string, len(proofs))
		for i, p := range proofs {
			ids[i] = p.Record
			want, err := d.Prove(p.Record)
			require.NoError(t, err)
			require.Equal(t, want, p, "n=%d %s", n, p.Record)
			require.Equal(t, s.Root, p.Root)
			data := d.Records[p.Record]
			if p.Record == anchor.SaltRecordID {
				data = fixedSalt[:]
			}
			require.NoError(t, anchor.VerifyProof(data, p.Proof, s.Root), "n=%d %s", n, p.Record)
			nodes := make([]anchor.Node, len(p.Proof))
			for i, h := range p.Proof {
				nodes[i] = node(t, h)
			}
			require.Equal(t, node(t, s.Root), anchor.ProcessProof(nodes, anchor.Leaf(data)))
		}
		require.Equal(t, append(d.IDs, anchor.SaltRecordID), ids, "document order, then the salt")
	}
	require.Nil(t, (&anchor.Snapshot{}).Proofs(), "a snapshot not built has none")
}

func TestBuildRefusesIDsJSONWouldChange(t *testing.T) {
	t.Parallel()
	_, err := anchor.Build("j", fixedSalt, fixedTime, []anchor.Record{{ID: "a\xff", Type: "t"}})
	require.True(t, openjury.IsKind(err, openjury.Invalid), "%v", err)
}

// node is the 32 bytes of h.
func node(t *testing.T, h openjury.Hash) anchor.Node {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(string(h), "0x"))
	require.NoError(t, err)
	require.Len(t, b, 32)
	return anchor.Node(b)
}

// proofStore is a hand-written anchor.Store over one snapshot. With
// stored it serves the snapshot's proofs, else only its document (a batch
// stored before proofs were); it counts document reads.
type proofStore struct {
	jobID  string
	open   string // a job without a batch
	snap   *anchor.Snapshot
	stored bool
	docs   atomic.Int64
}

func (s *proofStore) missing(jobID string) error {
	if jobID == s.open {
		return openjury.E(openjury.NotFound, "fake", "anchor not found")
	}
	return openjury.E(openjury.NotFound, "fake", "job not found")
}

func (s *proofStore) AnchorBatch(_ context.Context, jobID string) (*anchor.Batch, error) {
	if jobID != s.jobID {
		return nil, s.missing(jobID)
	}
	return &anchor.Batch{JobID: jobID, Root: s.snap.Root, Salt: s.snap.Salt}, nil
}

func (s *proofStore) AnchorDocument(_ context.Context, jobID string) ([]byte, error) {
	s.docs.Add(1)
	if jobID != s.jobID {
		return nil, s.missing(jobID)
	}
	return s.snap.Document, nil
}

func (s *proofStore) AnchorProof(_ context.Context, jobID, recordID string) (anchor.Proof, bool, error) {
	switch {
	case jobID != s.jobID:
		return anchor.Proof{}, false, s.missing(jobID)
	case !s.stored:
		return anchor.Proof{}, false, nil
	}
	for _, p := range s.snap.Proofs() {
		if p.Record == recordID {
			return p, true, nil
		}
	}
	return anchor.Proof{}, true, openjury.E(openjury.NotFound, "fake", "record not found")
}

func (s *proofStore) RecordAnchorReceipt(context.Context, string, openjury.ChainRef) (*anchor.Batch, error) {
	return nil, openjury.E(openjury.NotImplemented, "fake", "no receipts")
}

// Service.Proof serves a stored proof without reading the document, falls
// back to the document for a batch without stored proofs, and gives the
// same proofs and the same errors, in the same order, either way.
func TestServiceProofStoredAndFromTheDocument(t *testing.T) {
	t.Parallel()
	jobID, open := openjury.NewID(), openjury.NewID()
	s, err := anchor.Build(jobID, fixedSalt, fixedTime, fixedRecords())
	require.NoError(t, err)
	for _, stored := range []bool{true, false} {
		store := &proofStore{jobID: jobID, open: open, snap: s, stored: stored}
		svc := anchor.NewService(store, anchor.Config{})
		for _, want := range s.Proofs() {
			got, err := svc.Proof(context.Background(), jobID, want.Record)
			require.NoError(t, err)
			require.Equal(t, want, got, "stored=%v", stored)
		}
		docs := store.docs.Load()
		if stored {
			require.Zero(t, docs, "a stored proof is served without the document")
		} else {
			require.Equal(t, int64(len(s.Proofs())), docs, "without stored proofs, from the document")
		}
		for _, tc := range []struct {
			job, record string
			kind        openjury.Kind
			detail      string
		}{
			{"", "", openjury.Invalid, "record: is required"},
			{"not-an-id", "salt", openjury.NotFound, "job not found"},
			{openjury.NewID(), "salt", openjury.NotFound, "job not found"},
			{open, "salt", openjury.NotFound, "anchor not found"},
			{jobID, "job:nope", openjury.NotFound, "record not found"},
		} {
			_, err := svc.Proof(context.Background(), tc.job, tc.record)
			require.True(t, openjury.IsKind(err, tc.kind), "stored=%v %+v: %v", stored, tc, err)
			require.Equal(t, tc.detail, openjury.DetailOf(err), "stored=%v %+v", stored, tc)
		}
	}
}
