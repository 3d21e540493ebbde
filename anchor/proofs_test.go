package anchor_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

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

// treeStore is a hand-written anchor.Store over one snapshot, stored the
// way a close stores it: the records' canonical bytes in document order
// and the tree level by level (level 0 the sorted leaves, each with its
// record). It counts the reads of nodes.
type treeStore struct {
	jobID  string
	open   string // a job without a batch
	batch  *anchor.Batch
	bodies [][]byte
	ids    []string
	levels [][]anchor.Node
	// leafOrd maps a level-0 index to its record's place (-1: the salt).
	leafOrd   []int
	nodeReads atomic.Int64
}

func newTreeStore(t *testing.T, jobID string, s *anchor.Snapshot) *treeStore {
	t.Helper()
	d, err := anchor.ParseDocument(s.Document)
	require.NoError(t, err)
	st := &treeStore{jobID: jobID, open: openjury.NewID(), ids: d.IDs}
	type leafAt struct {
		leaf anchor.Node
		ord  int
	}
	var leaves []leafAt
	for i, id := range d.IDs {
		st.bodies = append(st.bodies, d.Records[id])
		leaf, ok := d.Leaf(id)
		require.True(t, ok)
		leaves = append(leaves, leafAt{leaf, i})
	}
	salt := node(t, s.Salt)
	leaves = append(leaves, leafAt{anchor.Leaf(salt[:]), -1})
	slices.SortFunc(leaves, func(a, b leafAt) int { return bytes.Compare(a.leaf[:], b.leaf[:]) })
	level := make([]anchor.Node, len(leaves))
	for i, l := range leaves {
		level[i] = l.leaf
		st.leafOrd = append(st.leafOrd, l.ord)
	}
	st.levels = [][]anchor.Node{level}
	for len(level) > 1 {
		level = anchor.NextLevel(level)
		st.levels = append(st.levels, level)
	}
	st.batch = &anchor.Batch{ID: "b1", JobID: jobID, SchemaVersion: d.SchemaVersion, Root: s.Root, Salt: s.Salt, CreatedAt: fixedTime,
		Records: int64(len(d.IDs)), Size: int64(len(s.Document))}
	return st
}

func (s *treeStore) AnchorBatch(_ context.Context, jobID string) (*anchor.Batch, error) {
	switch jobID {
	case s.jobID:
		return s.batch, nil
	case s.open:
		return nil, openjury.E(openjury.NotFound, "fake", "anchor not found")
	}
	return nil, openjury.E(openjury.NotFound, "fake", "job not found")
}

func (s *treeStore) AnchorRecords(_ context.Context, batchID string, after int64, limit, maxBytes int) ([]anchor.StoredRecord, error) {
	var out []anchor.StoredRecord
	size := 0
	for i := int(after) + 1; batchID == s.batch.ID && i < len(s.bodies) && len(out) < limit && size < maxBytes; i++ {
		out = append(out, anchor.StoredRecord{Ord: int64(i), Body: s.bodies[i]})
		size += len(s.bodies[i])
	}
	return out, nil
}

func (s *treeStore) AnchorLeaves(_ context.Context, batchID string, recordIDs []string) ([]anchor.LeafRef, error) {
	var out []anchor.LeafRef
	for ord := -1; ord < len(s.ids) && len(out) < 2; ord++ {
		id := anchor.SaltRecordID
		if ord >= 0 {
			id = s.ids[ord]
		}
		if batchID != s.batch.ID || !slices.Contains(recordIDs, id) {
			continue
		}
		idx := slices.Index(s.leafOrd, ord)
		out = append(out, anchor.LeafRef{Record: id, Index: int64(idx)})
	}
	return out, nil
}

func (s *treeStore) AnchorNodes(_ context.Context, _ string, at []anchor.NodeAt) (map[anchor.NodeAt]anchor.Node, error) {
	s.nodeReads.Add(1)
	out := map[anchor.NodeAt]anchor.Node{}
	for _, p := range at {
		if p.Level < len(s.levels) && p.Index < int64(len(s.levels[p.Level])) {
			out[p] = s.levels[p.Level][p.Index]
		}
	}
	return out, nil
}

func (s *treeStore) RecordAnchorReceipt(context.Context, string, openjury.ChainRef, openjury.Address, time.Time) (*anchor.Batch, error) {
	return nil, openjury.E(openjury.NotImplemented, "fake", "no receipts")
}

// Service.Proof serves, from the stored tree in one read of nodes, the
// proof anchor.Build gives of every record and of the salt, also by a
// bare object id; a bare id two records carry is Invalid; the errors come
// in their order.
func TestServiceProofFromTheStoredTree(t *testing.T) {
	t.Parallel()
	jobID := openjury.NewID()
	recs := append(fixedRecords(), anchor.Record{ID: "vote:s2", Type: "vote"}) // "s2" is carried twice
	for i := range 300 {
		recs = append(recs, anchor.Record{ID: fmt.Sprintf("comment:c%03d", i), Type: "comment", Fields: map[string]any{"i": i}})
	}
	s, err := anchor.Build(jobID, fixedSalt, fixedTime, recs)
	require.NoError(t, err)
	store := newTreeStore(t, jobID, s)
	svc := anchor.NewService(store, anchor.Config{})
	ctx := context.Background()
	for _, want := range s.Proofs() {
		got, err := svc.Proof(ctx, jobID, want.Record)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	require.Equal(t, int64(len(s.Proofs())), store.nodeReads.Load(), "one read of nodes a proof")
	byBare, err := svc.Proof(ctx, jobID, "c123")
	require.NoError(t, err)
	byID, err := svc.Proof(ctx, jobID, "comment:c123")
	require.NoError(t, err)
	require.Equal(t, byID, byBare, "a bare id names its record")
	for _, tc := range []struct {
		job, record string
		kind        openjury.Kind
		detail      string
	}{
		{"", "", openjury.Invalid, "record: is required"},
		{"not-an-id", "salt", openjury.NotFound, "job not found"},
		{openjury.NewID(), "salt", openjury.NotFound, "job not found"},
		{store.open, "salt", openjury.NotFound, "anchor not found"},
		{jobID, "job:nope", openjury.NotFound, "record not found"},
		{jobID, "nope", openjury.NotFound, "record not found"},
		{jobID, "x\x00y", openjury.NotFound, "record not found"},
		{jobID, "s2", openjury.Invalid, "record: several records carry this id; give the record id (<type>:<id>)"},
	} {
		_, err := svc.Proof(ctx, tc.job, tc.record)
		require.True(t, openjury.IsKind(err, tc.kind), "%+v: %v", tc, err)
		require.Equal(t, tc.detail, openjury.DetailOf(err), "%+v", tc)
	}

	// A stored tree that does not lead to the root is an internal error,
	// never a wrong proof.
	store.levels[1][0][0] ^= 1
	var bad int
	for _, p := range s.Proofs() {
		if _, err := svc.Proof(ctx, jobID, p.Record); err != nil {
			require.True(t, openjury.IsKind(err, openjury.Internal), "%v", err)
			bad++
		}
	}
	require.Positive(t, bad)
}

// The document streams out of the stored records byte for byte as
// anchor.Build made it, over several pages; a store that lost a record is
// an internal error, not a silently shorter document.
func TestDocumentStreamsAsBuilt(t *testing.T) {
	t.Parallel()
	jobID := openjury.NewID()
	recs := fixedRecords()
	for i := range 700 {
		recs = append(recs, anchor.Record{ID: fmt.Sprintf("comment:c%03d", i), Type: "comment", Fields: map[string]any{"text": strings.Repeat("é", i%50)}})
	}
	for _, n := range []int{0, 1, len(recs)} {
		s, err := anchor.Build(jobID, fixedSalt, fixedTime, recs[:n])
		require.NoError(t, err)
		store := newTreeStore(t, jobID, s)
		svc := anchor.NewService(store, anchor.Config{})
		d, err := svc.OpenDocument(context.Background(), jobID)
		require.NoError(t, err)
		require.Equal(t, int64(len(s.Document)), d.Size)
		require.Equal(t, `"`+strings.TrimPrefix(string(s.Root), "0x")+`"`, d.ETag)
		var buf bytes.Buffer
		written, err := d.Stream(context.Background(), &buf)
		require.NoError(t, err)
		require.Equal(t, d.Size, written)
		require.Equal(t, string(s.Document), buf.String(), "n=%d", n)
		if n > 1 {
			store.bodies = store.bodies[:n-1]
			_, err = d.Stream(context.Background(), io.Discard)
			require.True(t, openjury.IsKind(err, openjury.Internal), "%v", err)
		}
	}
	_, err := anchor.NewService(newTreeStore(t, jobID, mustBuild(t, jobID, recs[:1])), anchor.Config{}).OpenDocument(context.Background(), openjury.NewID())
	require.Equal(t, "job not found", openjury.DetailOf(err))
}

func mustBuild(t *testing.T, jobID string, recs []anchor.Record) *anchor.Snapshot {
	t.Helper()
	s, err := anchor.Build(jobID, fixedSalt, fixedTime, recs)
	require.NoError(t, err)
	return s
}

// VerifyReader checks a document as a stream, with the ids and leaves of
// its records in document order, and refuses what VerifyDocument refuses:
// a tampered record, a repeated id, a wrong root, bytes after the
// document, another schema version.
func TestVerifyReaderStreams(t *testing.T) {
	t.Parallel()
	s := mustBuild(t, "j1", fixedRecords())
	d, err := anchor.ParseDocument(s.Document)
	require.NoError(t, err)
	var ids []string
	h, n, err := anchor.VerifyReader(iotest.OneByteReader(bytes.NewReader(s.Document)), s.Root, func(id string, leaf anchor.Node) {
		ids = append(ids, id)
		require.Equal(t, anchor.Leaf(d.Records[id]), leaf)
	})
	require.NoError(t, err)
	require.Equal(t, d.IDs, ids)
	require.Equal(t, len(d.IDs), n)
	require.Equal(t, &anchor.DocumentHeader{SchemaVersion: 1, JobID: "j1", CreatedAt: d.CreatedAt, Root: s.Root, Salt: s.Salt}, h)

	first := d.Records[d.IDs[0]]
	dup := bytes.Replace(s.Document, d.Records[d.IDs[1]], first, 1)
	for name, doc := range map[string][]byte{
		"tampered":   bytes.Replace(s.Document, []byte("Find the bug"), []byte("Find the bus"), 1),
		"repeated":   dup,
		"trailing":   append(bytes.Clone(s.Document), []byte(`{}`)...),
		"version":    bytes.Replace(s.Document, []byte(`"schema_version":1`), []byte(`"schema_version":2`), 1),
		"not json":   s.Document[:len(s.Document)-1],
		"no records": []byte(`{"root":"` + string(s.Root) + `","salt":"` + string(s.Salt) + `","schema_version":1}`),
	} {
		_, _, err := anchor.VerifyReader(bytes.NewReader(doc), s.Root, nil)
		require.True(t, openjury.IsKind(err, openjury.Invalid), "%s: %v", name, err)
		require.Error(t, anchor.VerifyDocument(doc, s.Root), name)
	}
	_, _, err = anchor.VerifyReader(bytes.NewReader(s.Document), flip(s.Root), nil)
	require.Error(t, err)
}
