package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) agrRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/agr/status", op: "getAgrStatus", service: "agr_status", h: s.agrStatus},
		{pattern: "GET /api/v1/agr/ledger", op: "listAgrLedger", service: "agr_ledger", h: s.agrLedger},
		{pattern: "POST /api/v1/agr/dev_mint", op: "devMintAgr", auth: authDev, h: s.agrDevMint},
		{pattern: "POST /api/v1/jobs/{job_id}/boost", op: "boostJob", service: "boost_job", auth: authBearer, h: s.boostJob},
	}
}

func newAgrStatusJSON(st agr.Status) wire.AgrStatus {
	return wire.AgrStatus{Address: st.Address.String(), Balance: st.Balance, Earned: st.Earned, Spent: st.Spent}
}

func newAgrLedgerEntryJSON(e agr.Entry) wire.AgrLedgerEntry {
	return wire.AgrLedgerEntry{
		ID:        e.ID,
		Address:   e.Address.String(),
		Delta:     e.Delta,
		Reason:    string(e.Reason),
		CreatedAt: wire.NewTime(e.CreatedAt),
		JobID:     optString(e.JobID),
	}
}

func (s *server) agrStatus(w http.ResponseWriter, r *http.Request) error {
	q, err := queryRequired(r, "address")
	if err != nil {
		return err
	}
	addr, err := openjury.ParseAddress("address", q)
	if err != nil {
		return err
	}
	st, err := s.svc.AGR.Status(r.Context(), addr.String())
	if err != nil {
		return err
	}
	// A store may leave the address of an empty account empty.
	st.Address = addr
	return respond(w, newAgrStatusJSON(st))
}

func (s *server) agrLedger(w http.ResponseWriter, r *http.Request) error {
	addr, err := queryRequired(r, "address")
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", agr.DefaultLedgerLimit, 1, agr.MaxLedgerLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.AGR.Ledger(r.Context(), agr.LedgerInput{Address: addr, Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		return err
	}
	entries := mapEach(page.Entries, newAgrLedgerEntryJSON)
	return respond(w, wire.ListAgrLedgerResponse{
		Address:    page.Address.String(),
		Entries:    entries,
		Count:      int64(len(entries)),
		NextCursor: optString(page.NextCursor),
	})
}

func (s *server) agrDevMint(w http.ResponseWriter, r *http.Request) error {
	var req wire.DevMintRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("address", "amount"); err != nil {
		return err
	}
	addr, err := parseAddress("address", req.Address)
	if err != nil {
		return err
	}
	st, err := s.svc.AGR.DevMint(r.Context(), addr, req.Amount)
	if err != nil {
		return err
	}
	st.Address = addr
	return respond(w, newAgrStatusJSON(st))
}

func (s *server) boostJob(w http.ResponseWriter, r *http.Request) error {
	var req wire.BoostJobRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("amount_agr", "duration_hours"); err != nil {
		return err
	}
	job, err := s.svc.Market.Boost(r.Context(), callerFrom(r.Context()).addr, r.PathValue("job_id"), marketplace.BoostInput{
		AmountAGR:     req.AmountAGR,
		DurationHours: req.DurationHours,
	})
	if err != nil {
		return err
	}
	return respond(w, wire.BoostJobResponse{JobID: job.ID, FeaturedScore: job.FeaturedScore, FeaturedUntil: optTimePtr(job.FeaturedUntil)})
}
