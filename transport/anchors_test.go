package transport_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/transport"
)

// closedJob closes a voteFixture job with s2 as the winner and returns the
// fixture.
func (e *env) closedJob() voteFixture {
	e.t.Helper()
	f := e.voteFixture()
	r := e.do("POST", "/api/v1/jobs/"+f.jobID+"/close", map[string]any{"winner_submission_id": f.s2}, bearer(f.sponsor.token))
	require.Equal(e.t, http.StatusOK, r.Code, "body: %s", r.Body)
	return f
}

var anchorBatchKeys = []string{
	"id", "job_id", "schema_version", "salt", "anchor_root", "anchor_uri", "created_at",
	"anchor_tx_hash", "anchor_chain_id", "anchor_contract_address", "anchor_block_number", "anchor_log_index",
}

func TestGetAnchor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// 404 unknown job, 404 no snapshot yet (open).
	requireError(t, e.do("GET", "/api/v1/jobs/"+openjury.NewID()+"/anchor", nil), http.StatusNotFound, "job not found")
	requireError(t, e.do("GET", "/api/v1/jobs/nope/anchor", nil), http.StatusNotFound, "job not found")
	open := e.voteFixture()
	requireError(t, e.do("GET", "/api/v1/jobs/"+open.jobID+"/anchor", nil), http.StatusNotFound, "anchor not found")

	f := e.closedJob()
	b := e.get("/api/v1/jobs/" + f.jobID + "/anchor").JSON(t)
	requireKeys(t, b, anchorBatchKeys...)
	require.True(t, openjury.ValidID(b["id"].(string)))
	require.Equal(t, f.jobID, b["job_id"])
	require.Equal(t, float64(1), b["schema_version"])
	require.Equal(t, "https://jury.example.com/api/v1/jobs/"+f.jobID+"/anchor/snapshot", b["anchor_uri"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), b["created_at"])
	requireNulls(t, b, "anchor_tx_hash", "anchor_chain_id", "anchor_contract_address", "anchor_block_number", "anchor_log_index")

	// Job responses carry the anchor_* fields: detail, list and bootstrap.
	for _, job := range []map[string]any{
		e.get("/api/v1/jobs/" + f.jobID).JSON(t),
		findJob(t, e.get("/api/v1/jobs?status=all").JSON(t)["jobs"], f.jobID),
		findJob(t, e.get("/api/v1/agent/bootstrap?status=all").JSON(t)["jobs"], f.jobID),
	} {
		require.Equal(t, b["anchor_root"], job["anchor_root"])
		require.Equal(t, b["anchor_uri"], job["anchor_uri"])
		require.Equal(t, b["salt"], job["anchor_salt"])
		require.Equal(t, float64(1), job["anchor_schema_version"])
		requireNulls(t, job, "anchor_tx_hash", "anchor_chain_id", "anchor_contract_address", "anchor_block_number", "anchor_log_index")
	}
	openJob := findJob(t, e.get("/api/v1/jobs?status=all").JSON(t)["jobs"], open.jobID)
	requireNulls(t, openJob, "anchor_root", "anchor_uri", "anchor_schema_version", "anchor_salt")
}

func findJob(t *testing.T, jobs any, id string) map[string]any {
	t.Helper()
	for _, j := range jobs.([]any) {
		if m := j.(map[string]any); m["id"] == id {
			return m
		}
	}
	require.Failf(t, "job not listed", "%s", id)
	return nil
}

func TestGetAnchorSnapshotAndProof(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	snapshot := func(id string, headers ...header) response {
		return e.do("GET", "/api/v1/jobs/"+id+"/anchor/snapshot", nil, headers...)
	}
	proof := func(id, query string) response {
		return e.do("GET", "/api/v1/jobs/"+id+"/anchor/proof"+query, nil)
	}
	open := e.voteFixture()
	requireError(t, snapshot(openjury.NewID()), http.StatusNotFound, "job not found")
	requireError(t, snapshot(open.jobID), http.StatusNotFound, "anchor not found")

	f := e.closedJob()
	root := e.get("/api/v1/jobs/" + f.jobID + "/anchor").JSON(t)["anchor_root"].(string)
	r := snapshot(f.jobID)
	require.Equal(t, http.StatusOK, r.Code)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	stored, err := e.svc.Anchor.Document(t.Context(), f.jobID)
	require.NoError(t, err)
	require.Equal(t, stored, r.Body, "byte for byte")
	require.NoError(t, anchor.VerifyDocument(r.Body, openjury.Hash(root)))
	etag := r.Header.Get("ETag")
	require.True(t, strings.HasPrefix(etag, `"`) && !strings.HasPrefix(etag, "W/"), "strong ETag: %s", etag)
	nm := snapshot(f.jobID, header{"If-None-Match", etag})
	require.Equal(t, http.StatusNotModified, nm.Code)
	require.Empty(t, nm.Body)
	require.Equal(t, http.StatusOK, snapshot(f.jobID, header{"If-None-Match", `"other"`}).Code)

	// Proofs: 400 without record; 404 job, anchor, record; 200 for every
	// record and the salt, each verifying against the root.
	requireError(t, proof(f.jobID, ""), http.StatusBadRequest, "record: is required")
	requireError(t, proof(f.jobID, "?record=%20"), http.StatusBadRequest, "record: is required")
	requireError(t, proof(openjury.NewID(), "?record=salt"), http.StatusNotFound, "job not found")
	requireError(t, proof(open.jobID, "?record=salt"), http.StatusNotFound, "anchor not found")
	requireError(t, proof(f.jobID, "?record=submission:"+openjury.NewID()), http.StatusNotFound, "record not found")

	var doc struct {
		Salt    string            `json:"salt"`
		Records []json.RawMessage `json:"records"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &doc))
	require.Len(t, doc.Records, 3, "the job and two submissions")
	ids := []string{anchor.SaltRecordID}
	for _, raw := range doc.Records {
		var rec struct{ ID string }
		require.NoError(t, json.Unmarshal(raw, &rec))
		ids = append(ids, rec.ID)
	}
	require.Contains(t, ids, "submission:"+f.s1)
	for i, id := range ids {
		p := e.get("/api/v1/jobs/" + f.jobID + "/anchor/proof?record=" + url.QueryEscape(id)).JSON(t)
		requireKeys(t, p, "record", "leaf", "proof", "root")
		require.Equal(t, id, p["record"])
		require.Equal(t, root, p["root"])
		var nodes []openjury.Hash
		for _, n := range p["proof"].([]any) {
			nodes = append(nodes, openjury.Hash(n.(string)))
		}
		data := []byte(nil)
		if i == 0 {
			salt, err := hexBytes(doc.Salt)
			require.NoError(t, err)
			data = salt
		} else {
			data = doc.Records[i-1]
		}
		require.NoError(t, anchor.VerifyProof(data, nodes, openjury.Hash(root)), id)
	}

	// A bare object id proves the one record that carries it, named by
	// its record id; an unknown one is 404.
	byID := e.get("/api/v1/jobs/" + f.jobID + "/anchor/proof?record=" + url.QueryEscape("submission:"+f.s1)).JSON(t)
	bare := e.get("/api/v1/jobs/" + f.jobID + "/anchor/proof?record=" + f.s1).JSON(t)
	require.Equal(t, byID, bare)
	require.Equal(t, "submission:"+f.s1, bare["record"])
	requireError(t, proof(f.jobID, "?record="+openjury.NewID()), http.StatusNotFound, "record not found")

	// The document is the same with its length, and HEAD has no body.
	require.Equal(t, strconv.Itoa(len(r.Body)), r.Header.Get("Content-Length"))
	head := e.do("HEAD", "/api/v1/jobs/"+f.jobID+"/anchor/snapshot", nil)
	require.Equal(t, http.StatusOK, head.Code)
	require.Empty(t, head.Body)
	require.Equal(t, etag, head.Header.Get("ETag"))
}

func TestRecordAnchorReceipt(t *testing.T) {
	t.Parallel()
	op := newWallet(t)
	e := newEnv(t, withOperators(op.addr))
	opTok := e.signIn(op)
	f := e.closedJob()
	other := e.agent(0, 0)
	post := func(tok, jobID string, body any) response {
		return e.do("POST", "/api/v1/jobs/"+jobID+"/anchor_receipt", body, bearer(tok))
	}
	good := map[string]any{
		"anchor_tx_hash": hash32(0xab), "anchor_chain_id": 8453, "anchor_contract_address": addr20(0xcc),
		"anchor_block_number": 1234, "anchor_log_index": 3,
	}

	r := e.do("POST", "/api/v1/jobs/"+f.jobID+"/anchor_receipt", good)
	requireError(t, r, http.StatusUnauthorized, "missing bearer token")

	// 403 before anything else, even for an unknown job or a bad body.
	const forbidden = "only an operator may record an anchor receipt"
	requireError(t, post(other.token, f.jobID, good), http.StatusForbidden, forbidden)
	requireError(t, post(other.token, openjury.NewID(), good), http.StatusForbidden, forbidden)
	requireError(t, post(f.sponsor.token, f.jobID, "{not json"), http.StatusForbidden, forbidden)

	// 400 malformed fields, naming the field.
	for _, tc := range []struct {
		body   any
		detail string
	}{
		{withoutField(good, "anchor_tx_hash"), "anchor_tx_hash: is required"},
		{withField(good, "anchor_tx_hash", "0x12"), "anchor_tx_hash: must be 0x followed by 64 hex digits"},
		{withoutField(good, "anchor_chain_id"), "anchor_chain_id: is required"},
		{withField(good, "anchor_chain_id", 0), "anchor_chain_id: must be positive"},
		{withField(good, "anchor_chain_id", "1"), "anchor_chain_id: must be an integer"},
		{withoutField(good, "anchor_contract_address"), "anchor_contract_address: is required"},
		{withField(good, "anchor_contract_address", "0xabc"), "anchor_contract_address: must be 0x followed by 40 hex digits"},
		{withField(good, "anchor_block_number", nil), "anchor_block_number: is required"},
		{withField(good, "anchor_block_number", -1), "anchor_block_number: must be at least 0"},
		{withoutField(good, "anchor_log_index"), "anchor_log_index: is required"},
		{withField(good, "anchor_log_index", -1), "anchor_log_index: must be at least 0"},
		{"", "request body is required"},
	} {
		requireError(t, post(opTok, f.jobID, tc.body), http.StatusBadRequest, tc.detail)
	}

	// 404 job, 404 anchor.
	requireError(t, post(opTok, openjury.NewID(), good), http.StatusNotFound, "job not found")
	open := e.newJob(f.sponsor.token)
	requireError(t, post(opTok, open, good), http.StatusNotFound, "anchor not found")

	// Recorded once: 200, the same values again 200, different 409.
	r = post(opTok, f.jobID, good)
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	b := r.JSON(t)
	requireKeys(t, b, anchorBatchKeys...)
	require.Equal(t, hash32(0xab), b["anchor_tx_hash"])
	require.Equal(t, float64(8453), b["anchor_chain_id"])
	require.Equal(t, addr20(0xcc), b["anchor_contract_address"])
	require.Equal(t, float64(1234), b["anchor_block_number"])
	require.Equal(t, float64(3), b["anchor_log_index"])
	again := post(opTok, f.jobID, withField(good, "anchor_contract_address", strings.ToUpper(addr20(0xcc)[2:])))
	requireError(t, again, http.StatusBadRequest, "anchor_contract_address: must be 0x followed by 40 hex digits")
	again = post(opTok, f.jobID, good)
	require.Equal(t, http.StatusOK, again.Code, "body: %s", again.Body)
	require.Equal(t, b, again.JSON(t))
	requireError(t, post(opTok, f.jobID, withField(good, "anchor_log_index", 4)), http.StatusConflict, "a different anchor receipt is already recorded")

	job := e.get("/api/v1/jobs/" + f.jobID).JSON(t)
	require.Equal(t, hash32(0xab), job["anchor_tx_hash"])
	require.Equal(t, float64(3), job["anchor_log_index"])
	require.Equal(t, b, e.get("/api/v1/jobs/"+f.jobID+"/anchor").JSON(t))
}

// hexBytes decodes 0x-prefixed hex.
func hexBytes(s string) ([]byte, error) {
	h, err := openjury.ParseHash("salt", s)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 32)
	for i := range out {
		var v byte
		for _, c := range h[2+2*i : 4+2*i] {
			v <<= 4
			if c >= 'a' {
				v |= byte(c-'a') + 10
			} else {
				v |= byte(c - '0')
			}
		}
		out[i] = v
	}
	return out, nil
}

// checkerFunc is an anchor.ReceiptChecker from a function.
type checkerFunc func(ctx context.Context, b *anchor.Batch, ref openjury.ChainRef) error

func (f checkerFunc) CheckAnchorReceipt(ctx context.Context, b *anchor.Batch, ref openjury.ChainRef) error {
	return f(ctx, b, ref)
}

// TestRecordAnchorReceiptChainCheck: with a chain check, a mismatch is 400
// naming what differs and an unreachable chain 503; once recorded, a
// different receipt is 409 without a check.
func TestRecordAnchorReceiptChainCheck(t *testing.T) {
	t.Parallel()
	op := newWallet(t)
	var answer atomic.Pointer[error]
	var calls atomic.Int64
	checker := checkerFunc(func(_ context.Context, b *anchor.Batch, ref openjury.ChainRef) error {
		calls.Add(1)
		if e := answer.Load(); e != nil {
			return *e
		}
		return nil
	})
	e := newEnv(t, withOperators(op.addr), func(e *env) {
		e.svc.Anchor = anchor.NewService(e.store, anchor.Config{Operators: []openjury.Address{openjury.MustAddress(op.addr)}, Checker: checker})
		e.h = transport.NewHandler(e.svc, e.opts)
	})
	opTok := e.signIn(op)
	f := e.closedJob()
	post := func(body any) response {
		return e.do("POST", "/api/v1/jobs/"+f.jobID+"/anchor_receipt", body, bearer(opTok))
	}
	good := map[string]any{
		"anchor_tx_hash": hash32(0xab), "anchor_chain_id": 8453, "anchor_contract_address": addr20(0xcc),
		"anchor_block_number": 1234, "anchor_log_index": 3,
	}
	setAnswer := func(err error) { answer.Store(&err) }

	setAnswer(openjury.E(openjury.Invalid, "chain", "anchor_tx_hash: transaction not found"))
	requireError(t, post(good), http.StatusBadRequest, "anchor_tx_hash: transaction not found")
	setAnswer(openjury.E(openjury.Invalid, "chain", "anchor_log_index: the log is not AnchorPosted with this root and salt"))
	requireError(t, post(good), http.StatusBadRequest, "anchor_log_index: the log is not AnchorPosted with this root and salt")
	setAnswer(openjury.E(openjury.Unavailable, "chain", "chain unavailable"))
	requireError(t, post(good), http.StatusServiceUnavailable, "chain unavailable")
	requireNulls(t, e.get("/api/v1/jobs/"+f.jobID+"/anchor").JSON(t), "anchor_tx_hash")

	setAnswer(nil)
	require.Equal(t, http.StatusOK, post(good).Code)
	n := calls.Load()
	require.Equal(t, int64(4), n)
	requireError(t, post(withField(good, "anchor_block_number", 1235)), http.StatusConflict, "a different anchor receipt is already recorded")
	require.Equal(t, http.StatusOK, post(good).Code)
	require.Equal(t, n, calls.Load(), "no chain check once recorded")
}
