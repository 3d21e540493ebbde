package anchor

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/events"
)

// Batch is the snapshot batch of one closed job, with its onchain receipt
// once recorded.
type Batch struct {
	ID            string
	JobID         string
	SchemaVersion int
	Root          openjury.Hash
	Salt          openjury.Hash
	// URI is where the document is served:
	// {BASE_URL}/api/v1/jobs/{job_id}/anchor/snapshot.
	URI       string
	CreatedAt time.Time
	// Records is how many records the document holds (the salt not
	// counted: the tree has Records+1 leaves); Size is the document's
	// length in bytes.
	Records int64
	Size    int64
	// Receipt is the transaction that posted Root; zero until recorded.
	Receipt openjury.ChainRef
}

// URI returns the snapshot URI of a job under baseURL (no trailing slash).
func URI(baseURL, jobID string) string {
	return strings.TrimRight(baseURL, "/") + "/api/v1/jobs/" + jobID + "/anchor/snapshot"
}

// StoredRecord is one record of a stored batch: its place in the
// document (Ord, from 0) and its canonical bytes.
type StoredRecord struct {
	Ord  int64
	Body []byte
}

// LeafRef is where a record's leaf is in a stored tree: the record's id
// and the leaf's index among the sorted leaves (level 0).
type LeafRef struct {
	Record string
	Index  int64
}

// Store keeps the batches: each one's records (canonical bytes, in
// document order) and Merkle tree (level by level), written when the job
// closed. The marketplace writes them; this package reads them and
// records receipts.
type Store interface {
	// AnchorBatch returns the batch of a job. Errors: NotFound with detail
	// "job not found" or "anchor not found" (the job has no snapshot).
	AnchorBatch(ctx context.Context, jobID string) (*Batch, error)
	// AnchorRecords returns records of a batch in document order: those
	// with Ord > after, at most limit of them, ending early with the one
	// that brings their bodies to maxBytes or more (so at least one while
	// any is left). None after the last.
	AnchorRecords(ctx context.Context, batchID string, after int64, limit, maxBytes int) ([]StoredRecord, error)
	// AnchorLeaves finds where the leaves of records of a batch are: of
	// the records whose id is one of recordIDs (SaltRecordID: the salt),
	// at most two, in document order (the salt first). None: an empty
	// list.
	AnchorLeaves(ctx context.Context, batchID string, recordIDs []string) ([]LeafRef, error)
	// AnchorNodes returns the stored nodes of a batch's tree at the given
	// positions (those that exist), in one read.
	AnchorNodes(ctx context.Context, batchID string, at []NodeAt) (map[NodeAt]Node, error)
	// RecordAnchorReceipt sets the receipt of a job's batch unless one is
	// recorded already (a conditional update: of racing calls exactly one
	// stores its receipt), appending, when it stored it, the batch's
	// RecordedEvent(b, by, at) to the event log in the same transaction,
	// and returns the batch as it is then stored, with whichever receipt
	// won. Errors: NotFound as AnchorBatch.
	RecordAnchorReceipt(ctx context.Context, jobID string, ref openjury.ChainRef, by openjury.Address, at time.Time) (*Batch, error)
}

// ReceiptChecker checks a receipt against the chain before it is
// recorded: the transaction exists and succeeded, its log at
// ref.LogIndex (the block-level log index) was emitted by ref.Contract (the
// anchor registry) and is AnchorPosted with the batch's root and salt, and
// the block number and chain id match. Errors: Invalid whose detail names
// what differs (also for an unknown transaction); Unavailable when the
// chain cannot be reached. It makes no database call.
type ReceiptChecker interface {
	CheckAnchorReceipt(ctx context.Context, b *Batch, ref openjury.ChainRef) error
}

// Config holds the anchor settings.
type Config struct {
	// Operators may record receipts.
	Operators []openjury.Address
	// Checker checks receipts on chain; nil stores them as given.
	Checker ReceiptChecker
	// Clock dates the anchor.recorded events; nil means
	// openjury.SystemClock.
	Clock openjury.Clock
}

// Service serves batches, documents and proofs, and records receipts.
type Service struct {
	store Store
	cfg   Config
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) *Service {
	cfg.Operators = slices.Clone(cfg.Operators)
	if cfg.Clock == nil {
		cfg.Clock = openjury.SystemClock{}
	}
	return &Service{store: store, cfg: cfg}
}

// notFound is the error of a job id that cannot exist.
func notFound(op string) error { return openjury.E(openjury.NotFound, op, "job not found") }

// Batch returns the batch of a job. Errors: NotFound (job, anchor).
func (s *Service) Batch(ctx context.Context, jobID string) (*Batch, error) {
	const op = "anchor.Batch"
	if !openjury.ValidID(jobID) {
		return nil, notFound(op)
	}
	b, err := s.store.AnchorBatch(ctx, jobID)
	return b, openjury.Wrap(op, err)
}

// Bounds of one read of a document's records while it is written out:
// the memory a download holds at a time.
const (
	documentPageRows  = 256
	documentPageBytes = 1 << 20
)

// DocumentStream is a stored snapshot document ready to be written out
// (Stream) a page of records at a time, never whole in memory.
type DocumentStream struct {
	// Batch is the document's batch.
	Batch *Batch
	// Size is the document's length in bytes.
	Size int64
	// ETag is a strong entity tag of the document, from its batch (its
	// root): a job has one document, which never changes.
	ETag string

	store          Store
	prefix, suffix []byte
}

// OpenDocument returns the stored snapshot document of a job, to be
// written out with DocumentStream.Stream. Errors: NotFound (job, anchor).
func (s *Service) OpenDocument(ctx context.Context, jobID string) (*DocumentStream, error) {
	const op = "anchor.Document"
	b, err := s.Batch(ctx, jobID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	prefix, suffix, err := DocumentFrame(b.SchemaVersion, b.JobID, b.CreatedAt, b.Salt, b.Root)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return &DocumentStream{Batch: b, Size: b.Size, ETag: `"` + strings.TrimPrefix(string(b.Root), "0x") + `"`,
		store: s.store, prefix: prefix, suffix: suffix}, nil
}

// Stream writes the document to w byte for byte: the frame around the
// stored records, read in pages of at most documentPageRows records or
// about documentPageBytes. It returns the bytes written. Errors: the
// store's, w's, and Internal when the stored records do not make
// d.Size bytes.
func (d *DocumentStream) Stream(ctx context.Context, w io.Writer) (int64, error) {
	const op = "anchor.Document"
	cw := &countWriter{w: w}
	if _, err := cw.Write(d.prefix); err != nil {
		return cw.n, err
	}
	after, first := int64(-1), true
	for {
		page, err := d.store.AnchorRecords(ctx, d.Batch.ID, after, documentPageRows, documentPageBytes)
		if err != nil {
			return cw.n, openjury.Wrap(op, err)
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			if !first {
				if _, err := cw.Write(comma); err != nil {
					return cw.n, err
				}
			}
			first = false
			if _, err := cw.Write(r.Body); err != nil {
				return cw.n, err
			}
			after = r.Ord
		}
	}
	if _, err := cw.Write(d.suffix); err != nil {
		return cw.n, err
	}
	if cw.n != d.Size {
		return cw.n, openjury.Errorf(openjury.Internal, op, "the stored document of job %s is %d bytes, its batch says %d", d.Batch.JobID, cw.n, d.Size)
	}
	return cw.n, nil
}

var comma = []byte{','}

// countWriter counts what it writes to w.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Document returns the stored snapshot document of a job, byte for byte,
// whole in memory: for tests and tools on small snapshots. A server writes
// it out with OpenDocument instead. Errors: NotFound (job, anchor).
func (s *Service) Document(ctx context.Context, jobID string) ([]byte, error) {
	d, err := s.OpenDocument(ctx, jobID)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(min(d.Size, 64<<20)))
	if _, err := d.Stream(ctx, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Proof returns the Merkle proof of one record of a job's snapshot,
// named by its record id, SaltRecordID for the salt, or a bare object id
// (the part after "<type>:") that exactly one record carries; the proof
// names the record by its record id. It reads the record's leaf and the
// O(log n) sibling nodes from the stored tree, whatever the job's size,
// and checks that they lead to the batch's root. Errors: Invalid (empty
// record, a bare id several records carry), NotFound (job, anchor,
// record).
func (s *Service) Proof(ctx context.Context, jobID, recordID string) (Proof, error) {
	const op = "anchor.Proof"
	if recordID == "" {
		return Proof{}, openjury.E(openjury.Invalid, op, "record: is required")
	}
	b, err := s.Batch(ctx, jobID)
	if err != nil {
		return Proof{}, openjury.Wrap(op, err)
	}
	if strings.ContainsRune(recordID, 0) || !utf8.ValidString(recordID) {
		// Never stored: no record has such an id.
		return Proof{}, openjury.E(openjury.NotFound, op, "record not found")
	}
	refs, err := s.store.AnchorLeaves(ctx, b.ID, recordKeys(recordID))
	switch {
	case err != nil:
		return Proof{}, openjury.Wrap(op, err)
	case len(refs) == 0:
		return Proof{}, openjury.E(openjury.NotFound, op, "record not found")
	case len(refs) > 1:
		return Proof{}, openjury.E(openjury.Invalid, op, "record: several records carry this id; give the record id (<type>:<id>)")
	}
	ref := refs[0]
	at := NodeAt{Level: 0, Index: ref.Index}
	path := ProofPath(ref.Index, b.Records+1)
	nodes, err := s.store.AnchorNodes(ctx, b.ID, append([]NodeAt{at}, path...))
	if err != nil {
		return Proof{}, openjury.Wrap(op, err)
	}
	missing := func(at NodeAt) error {
		return openjury.Errorf(openjury.Internal, op, "the stored tree of job %s has no node at level %d index %d", b.JobID, at.Level, at.Index)
	}
	leaf, ok := nodes[at]
	if !ok {
		return Proof{}, missing(at)
	}
	p := Proof{Record: ref.Record, Leaf: openjury.HashFromBytes(leaf), Proof: make([]openjury.Hash, len(path)), Root: b.Root}
	proof := make([]Node, len(path))
	for i, at := range path {
		n, ok := nodes[at]
		if !ok {
			return Proof{}, missing(at)
		}
		proof[i], p.Proof[i] = n, openjury.HashFromBytes(n)
	}
	if got := openjury.HashFromBytes(ProcessProof(proof, leaf)); got != b.Root {
		return Proof{}, openjury.Errorf(openjury.Internal, op, "the stored tree of job %s leads %s to %s, not its root", b.JobID, ref.Record, got)
	}
	return p, nil
}

// RecordTypes are the record types of schema versions 1 and 2, the
// "<type>:" prefixes of record ids (see the package doc).
var RecordTypes = []string{"job", "submission", "vote", "final_vote", "comment", PayoutRecordType}

// recordKeys are the record ids a proof's record parameter may name: a
// record id or the salt's as given, or, for a bare object id (no ":"),
// that id under every record type.
func recordKeys(record string) []string {
	if record == SaltRecordID || strings.Contains(record, ":") {
		return []string{record}
	}
	keys := make([]string, len(RecordTypes))
	for i, t := range RecordTypes {
		keys[i] = t + ":" + record
	}
	return keys
}

// IsOperator reports whether addr is an operator.
func (s *Service) IsOperator(addr openjury.Address) bool {
	return !addr.IsZero() && slices.Contains(s.cfg.Operators, addr)
}

// CheckOperator returns Forbidden unless caller is an operator; it is the
// first check of RecordReceipt.
func (s *Service) CheckOperator(caller openjury.Address) error {
	if !s.IsOperator(caller) {
		return openjury.E(openjury.Forbidden, "anchor.RecordReceipt", "only an operator may record an anchor receipt")
	}
	return nil
}

// ValidateReceipt checks that every part of a receipt is given and in
// range; details name the anchor_* field.
func ValidateReceipt(op string, ref openjury.ChainRef) error {
	switch {
	case ref.TxHash == "":
		return openjury.E(openjury.Invalid, op, "anchor_tx_hash: is required")
	case ref.ChainID == nil:
		return openjury.E(openjury.Invalid, op, "anchor_chain_id: is required")
	case *ref.ChainID <= 0:
		return openjury.E(openjury.Invalid, op, "anchor_chain_id: must be positive")
	case ref.Contract == "":
		return openjury.E(openjury.Invalid, op, "anchor_contract_address: is required")
	case ref.BlockNumber == nil:
		return openjury.E(openjury.Invalid, op, "anchor_block_number: is required")
	case *ref.BlockNumber < 0:
		return openjury.E(openjury.Invalid, op, "anchor_block_number: must be at least 0")
	case ref.LogIndex == nil:
		return openjury.E(openjury.Invalid, op, "anchor_log_index: is required")
	case *ref.LogIndex < 0:
		return openjury.E(openjury.Invalid, op, "anchor_log_index: must be at least 0")
	}
	return nil
}

// RecordReceipt records the onchain receipt of a job's batch, once.
// Errors, in this order: Forbidden (caller not an operator), Invalid (a
// missing or malformed part), NotFound (job, anchor), Conflict (a
// different receipt is recorded; no chain check then), then the checker's
// Invalid or Unavailable. The same receipt again returns the batch.
func (s *Service) RecordReceipt(ctx context.Context, caller openjury.Address, jobID string, ref openjury.ChainRef) (*Batch, error) {
	const op = "anchor.RecordReceipt"
	if err := s.CheckOperator(caller); err != nil {
		return nil, err
	}
	if err := ValidateReceipt(op, ref); err != nil {
		return nil, err
	}
	b, err := s.Batch(ctx, jobID)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if !b.Receipt.IsZero() {
		return sameReceipt(op, b, ref)
	}
	if s.cfg.Checker != nil {
		if err := s.cfg.Checker.CheckAnchorReceipt(ctx, b, ref); err != nil {
			return nil, openjury.Wrap(op, err)
		}
	}
	b, err = s.store.RecordAnchorReceipt(ctx, b.JobID, ref, caller, openjury.Truncate(s.cfg.Clock.Now()))
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return sameReceipt(op, b, ref)
}

// RecordedEvent is the anchor.recorded event of b's receipt, recorded by
// an operator at `at` (docs/rules.md#events).
func RecordedEvent(b *Batch, by openjury.Address, at time.Time) *events.Event {
	d := events.Data{"job_id": b.JobID, "anchor_root": b.Root.String(), "anchor_uri": b.URI,
		"anchor_tx_hash": b.Receipt.TxHash.String(), "anchor_chain_id": nil, "anchor_contract_address": nil,
		"anchor_block_number": nil, "anchor_log_index": nil}
	if r := b.Receipt; r.ChainID != nil {
		d["anchor_chain_id"] = *r.ChainID
	}
	if !b.Receipt.Contract.IsZero() {
		d["anchor_contract_address"] = b.Receipt.Contract.String()
	}
	if r := b.Receipt; r.BlockNumber != nil {
		d["anchor_block_number"] = *r.BlockNumber
	}
	if r := b.Receipt; r.LogIndex != nil {
		d["anchor_log_index"] = *r.LogIndex
	}
	return &events.Event{Type: events.AnchorRecorded, CreatedAt: at, JobID: b.JobID, Actor: by, Data: d}
}

// sameReceipt returns b when its receipt is ref, else Conflict.
func sameReceipt(op string, b *Batch, ref openjury.ChainRef) (*Batch, error) {
	if !SameRef(b.Receipt, ref) {
		return nil, openjury.E(openjury.Conflict, op, "a different anchor receipt is already recorded")
	}
	return b, nil
}

// SameRef reports whether two chain references have equal parts.
func SameRef(a, b openjury.ChainRef) bool {
	eq := func(x, y *int64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.TxHash == b.TxHash && a.Contract == b.Contract &&
		eq(a.ChainID, b.ChainID) && eq(a.BlockNumber, b.BlockNumber) && eq(a.LogIndex, b.LogIndex)
}
