package transport

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/wire"
)

func (s *server) anchorRoutes() []route {
	if s.svc.Anchor == nil {
		return nil // not wired: the routes answer 404 "route not found"
	}
	return []route{
		{pattern: "GET /api/v1/jobs/{job_id}/anchor", op: "getJobAnchor", service: "job_anchor", h: s.getAnchor},
		{pattern: "GET /api/v1/jobs/{job_id}/anchor/snapshot", op: "getJobAnchorSnapshot", service: "job_anchor_snapshot", h: s.getAnchorSnapshot},
		{pattern: "GET /api/v1/jobs/{job_id}/anchor/proof", op: "getJobAnchorProof", service: "job_anchor_proof", h: s.getAnchorProof},
		{pattern: "POST /api/v1/jobs/{job_id}/anchor_receipt", op: "recordAnchorReceipt", service: "record_anchor_receipt", auth: authOperator, h: s.recordAnchorReceipt},
	}
}

func newAnchorBatchJSON(b *anchor.Batch) wire.AnchorBatch {
	ref := newChainRefFields(b.Receipt)
	return wire.AnchorBatch{
		ID:                    b.ID,
		JobID:                 b.JobID,
		SchemaVersion:         int64(b.SchemaVersion),
		Salt:                  b.Salt.String(),
		AnchorRoot:            b.Root.String(),
		AnchorURI:             b.URI,
		CreatedAt:             wire.NewTime(b.CreatedAt),
		AnchorTxHash:          ref.TxHash,
		AnchorChainID:         ref.ChainID,
		AnchorContractAddress: ref.Contract,
		AnchorBlockNumber:     ref.BlockNumber,
		AnchorLogIndex:        ref.LogIndex,
	}
}

func (s *server) getAnchor(w http.ResponseWriter, r *http.Request) error {
	b, err := s.svc.Anchor.Batch(r.Context(), r.PathValue("job_id"))
	if err != nil {
		return err
	}
	return respond(w, newAnchorBatchJSON(b))
}

// snapshotPageTimeout is how long a snapshot download may take for each
// write of a page of records.
const snapshotPageTimeout = time.Minute

// deadlineWriter moves the connection's write deadline on before each
// write.
type deadlineWriter struct{ w http.ResponseWriter }

func (d deadlineWriter) Write(p []byte) (int, error) {
	allowLongWrite(d.w, snapshotPageTimeout)
	return d.w.Write(p)
}

// snapshotCacheControl: a stored document never changes.
const snapshotCacheControl = "public, max-age=86400"

// getAnchorSnapshot streams the stored document byte for byte, a page of
// records at a time (never whole in memory), with its length and a strong
// ETag (from its root, read without the document) for conditional
// requests.
func (s *server) getAnchorSnapshot(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.svc.Anchor.OpenDocument(r.Context(), r.PathValue("job_id"))
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("ETag", doc.ETag)
	h.Set("Cache-Control", snapshotCacheControl)
	if etagMatch(r.Header.Get("If-None-Match"), doc.ETag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	setBodyHeaders(w, contentTypeJSON, int(doc.Size))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	// Each page written moves the write deadline on: a download of any
	// size goes on while the client keeps reading.
	if _, err := doc.Stream(r.Context(), deadlineWriter{w: w}); err != nil {
		// The status is sent: the client sees a short body.
		level := slog.LevelError
		if r.Context().Err() != nil {
			level = slog.LevelDebug // the client went away
		}
		s.logCause(r, level, "snapshot stream failed", err)
	}
	return nil
}

func (s *server) getAnchorProof(w http.ResponseWriter, r *http.Request) error {
	record, err := queryRequired(r, "record")
	if err != nil {
		return err
	}
	p, err := s.svc.Anchor.Proof(r.Context(), r.PathValue("job_id"), record)
	if err != nil {
		return err
	}
	out := wire.AnchorProof{Record: p.Record, Leaf: p.Leaf.String(), Proof: mapEach(p.Proof, openjury.Hash.String), Root: p.Root.String()}
	return respond(w, out)
}

// recordAnchorReceipt: 403 for a non-operator comes before the body is
// read, so even a malformed request for an unknown job gets it.
func (s *server) recordAnchorReceipt(w http.ResponseWriter, r *http.Request) error {
	caller := callerFrom(r.Context()).addr
	if err := s.svc.Anchor.CheckOperator(caller); err != nil {
		return err
	}
	var req wire.RecordAnchorReceiptRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	// A missing part is named by the domain (anchor.ValidateReceipt).
	ref, err := chainRefFields{
		TxHash: given(m, "anchor_tx_hash", &req.AnchorTxHash), ChainID: given(m, "anchor_chain_id", &req.AnchorChainID),
		Contract:    given(m, "anchor_contract_address", &req.AnchorContractAddress),
		BlockNumber: given(m, "anchor_block_number", &req.AnchorBlockNumber), LogIndex: given(m, "anchor_log_index", &req.AnchorLogIndex),
	}.parse("anchor_")
	if err != nil {
		return err
	}
	b, err := s.svc.Anchor.RecordReceipt(r.Context(), caller, r.PathValue("job_id"), ref)
	if err != nil {
		return err
	}
	return respond(w, newAnchorBatchJSON(b))
}
