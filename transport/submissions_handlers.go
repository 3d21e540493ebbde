package transport

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) submissionRoutes() []route {
	return []route{
		{pattern: "POST /api/v1/submissions", op: "createSubmission", service: "create_submission", auth: authBearer, count: countSubmission, h: s.createSubmission},
		{pattern: "GET /api/v1/jobs/{job_id}/submissions", op: "listJobSubmissions", service: "list_submissions", cached: true, h: s.listSubmissions},
	}
}

func newSubmissionJSON(sub *marketplace.Submission) wire.Submission {
	return wire.Submission{
		ID:           sub.ID,
		JobID:        sub.JobID,
		AgentAddress: sub.Agent.String(),
		Content:      sub.Content,
		CreatedAt:    wire.NewTime(sub.CreatedAt),
		Evidence:     mapEach(sub.Evidence, newEvidenceJSON),
	}
}

func newEvidenceJSON(e marketplace.Evidence) wire.Evidence {
	return wire.Evidence{
		Type:         optString(e.Type),
		SourceURL:    optString(e.SourceURL),
		RetrievedAt:  optString(e.RetrievedAt),
		SnapshotURI:  optString(e.SnapshotURI),
		SnapshotHash: optString(e.SnapshotHash),
		Quote:        optString(e.Quote),
		Claim:        optString(e.Claim),
		Confidence:   e.Confidence,
		Metadata:     e.Metadata,
	}
}

// decodeEvidence decodes the raw evidence array of a submission. Absent or
// null is no evidence.
func decodeEvidence(raw json.RawMessage) ([]marketplace.EvidenceInput, error) {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, openjury.E(openjury.Invalid, opDecode, "evidence: must be an array of objects")
	}
	if len(items) > marketplace.MaxEvidence {
		return nil, openjury.Errorf(openjury.Invalid, opDecode, "evidence: must have at most %d items", marketplace.MaxEvidence)
	}
	out := make([]marketplace.EvidenceInput, len(items))
	for i, item := range items {
		var e wire.Evidence
		if err := decodeAt(fmt.Sprintf("evidence[%d]", i), item, &e); err != nil {
			return nil, err
		}
		out[i] = marketplace.EvidenceInput{
			Type:         deref(e.Type),
			SourceURL:    deref(e.SourceURL),
			RetrievedAt:  deref(e.RetrievedAt),
			SnapshotURI:  deref(e.SnapshotURI),
			SnapshotHash: deref(e.SnapshotHash),
			Quote:        deref(e.Quote),
			Claim:        deref(e.Claim),
			Confidence:   e.Confidence,
			Metadata:     e.Metadata,
		}
	}
	return out, nil
}

// submissionBody is CreateSubmissionRequest as the server reads it: the
// evidence items are decoded one by one, so that an error names the item
// ("evidence[2].confidence: must be a number").
type submissionBody struct {
	wire.CreateSubmissionRequest
	Evidence json.RawMessage `json:"evidence"`
}

func (s *server) createSubmission(w http.ResponseWriter, r *http.Request) error {
	var req submissionBody
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("job_id", "content"); err != nil {
		return err
	}
	evidence, err := decodeEvidence(req.Evidence)
	if err != nil {
		return err
	}
	sub, err := s.svc.Market.Submit(r.Context(), callerFrom(r.Context()).addr, marketplace.SubmitInput{
		JobID:    req.JobID,
		Content:  req.Content,
		Evidence: evidence,
	})
	if err != nil {
		return err
	}
	return respond(w, wire.CreateSubmissionResponse{Submission: newSubmissionJSON(sub)})
}

// listSubmissions serves a page of a job's submissions, oldest first: a
// bare array (spec) with the next page's cursor in the X-Next-Cursor
// header, absent on the last page (CONTRACT "Conventions").
func (s *server) listSubmissions(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", marketplace.DefaultListLimit, 1, marketplace.MaxListLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Market.Submissions(r.Context(), r.PathValue("job_id"), marketplace.ListInput{
		Limit:  limit,
		Cursor: r.URL.Query().Get("cursor"),
	})
	if err != nil {
		return err
	}
	if page.NextCursor != "" {
		w.Header().Set(headerNextCursor, page.NextCursor)
	}
	return respond(w, mapEach(page.Submissions, newSubmissionJSON))
}

// headerNextCursor carries the next page's cursor of a list that is a bare
// array.
const headerNextCursor = "X-Next-Cursor"
