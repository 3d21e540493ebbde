package anchor

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/openjury/openjury"
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
	// Receipt is the transaction that posted Root; zero until recorded.
	Receipt openjury.ChainRef
}

// URI returns the snapshot URI of a job under baseURL (no trailing slash).
func URI(baseURL, jobID string) string {
	return strings.TrimRight(baseURL, "/") + "/api/v1/jobs/" + jobID + "/anchor/snapshot"
}

// Store keeps the batches. The marketplace writes them when a job closes;
// this package reads them and records receipts.
type Store interface {
	// AnchorBatch returns the batch of a job. Errors: NotFound with detail
	// "job not found" or "anchor not found" (the job has no snapshot).
	AnchorBatch(ctx context.Context, jobID string) (*Batch, error)
	// AnchorDocument returns the stored document of a job's batch, byte for
	// byte. Errors: NotFound as AnchorBatch.
	AnchorDocument(ctx context.Context, jobID string) ([]byte, error)
	// AnchorProof returns the stored proof of one record of a job's batch
	// (SaltRecordID for the salt), with the batch's root. stored is false,
	// with no error, when the batch has no stored proofs at all (a batch
	// written before proofs were stored); the caller then proves from the
	// document. Errors: NotFound as AnchorBatch, and "record not found"
	// when the batch has stored proofs but none of recordID.
	AnchorProof(ctx context.Context, jobID, recordID string) (p Proof, stored bool, err error)
	// RecordAnchorReceipt sets the receipt of a job's batch unless one is
	// recorded already (a conditional update: of racing calls exactly one
	// stores its receipt), and returns the batch as it is then stored, with
	// whichever receipt won. Errors: NotFound as AnchorBatch.
	RecordAnchorReceipt(ctx context.Context, jobID string, ref openjury.ChainRef) (*Batch, error)
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
}

// Service serves batches, documents and proofs, and records receipts.
type Service struct {
	store Store
	cfg   Config
}

// NewService returns a Service over store.
func NewService(store Store, cfg Config) *Service {
	cfg.Operators = slices.Clone(cfg.Operators)
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

// Document returns the stored snapshot document of a job, byte for byte.
// Errors: NotFound (job, anchor).
func (s *Service) Document(ctx context.Context, jobID string) ([]byte, error) {
	const op = "anchor.Document"
	if !openjury.ValidID(jobID) {
		return nil, notFound(op)
	}
	doc, err := s.store.AnchorDocument(ctx, jobID)
	return doc, openjury.Wrap(op, err)
}

// Proof returns the Merkle proof of one record of a job's snapshot
// (SaltRecordID for the salt). It is the proof stored with the batch when
// the job closed (one primary-key read, whatever the job's size); a batch
// stored without proofs is proved from its document instead. Errors:
// Invalid (empty record id), NotFound (job, anchor, record).
func (s *Service) Proof(ctx context.Context, jobID, recordID string) (Proof, error) {
	const op = "anchor.Proof"
	if recordID == "" {
		return Proof{}, openjury.E(openjury.Invalid, op, "record: is required")
	}
	if !openjury.ValidID(jobID) {
		return Proof{}, notFound(op)
	}
	p, stored, err := s.store.AnchorProof(ctx, jobID, recordID)
	if err != nil || stored {
		return p, openjury.Wrap(op, err)
	}
	return s.proveFromDocument(ctx, jobID, recordID)
}

// proveFromDocument proves a record from the stored document of a job's
// batch: it parses the document and rebuilds the tree (the path of
// batches stored without proofs). Errors: NotFound (job, anchor, record).
func (s *Service) proveFromDocument(ctx context.Context, jobID, recordID string) (Proof, error) {
	const op = "anchor.Proof"
	doc, err := s.Document(ctx, jobID)
	if err != nil {
		return Proof{}, openjury.Wrap(op, err)
	}
	d, err := ParseDocument(doc)
	if err != nil {
		return Proof{}, openjury.Wrap(op, err)
	}
	p, err := d.Prove(recordID)
	return p, openjury.Wrap(op, err)
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
	b, err = s.store.RecordAnchorReceipt(ctx, b.JobID, ref)
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return sameReceipt(op, b, ref)
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
