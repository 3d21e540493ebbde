package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/marketplace"
)

func (s *server) agrRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/agr/status", op: "getAgrStatus", service: "agr_status", h: s.agrStatus},
		{pattern: "GET /api/v1/agr/ledger", op: "listAgrLedger", service: "agr_ledger", h: s.agrLedger},
		{pattern: "POST /api/v1/agr/dev_mint", op: "devMintAgr", auth: authDev, h: s.agrDevMint},
		{pattern: "POST /api/v1/jobs/{job_id}/boost", op: "boostJob", service: "boost_job", auth: authBearer, h: s.boostJob},
	}
}

// agrStatusJSON is AgrStatus.
type agrStatusJSON struct {
	Address string `json:"address"`
	Balance int64  `json:"balance"`
	Earned  int64  `json:"earned"`
	Spent   int64  `json:"spent"`
}

func newAgrStatusJSON(st agr.Status) agrStatusJSON {
	return agrStatusJSON{Address: st.Address.String(), Balance: st.Balance, Earned: st.Earned, Spent: st.Spent}
}

// agrLedgerEntryJSON is AgrLedgerEntry.
type agrLedgerEntryJSON struct {
	ID        string  `json:"id"`
	Address   string  `json:"address"`
	Delta     int64   `json:"delta"`
	Reason    string  `json:"reason"`
	CreatedAt string  `json:"created_at"`
	JobID     *string `json:"job_id"`
}

func newAgrLedgerEntryJSON(e agr.Entry) agrLedgerEntryJSON {
	return agrLedgerEntryJSON{
		ID:        e.ID,
		Address:   e.Address.String(),
		Delta:     e.Delta,
		Reason:    string(e.Reason),
		CreatedAt: openjury.FormatTime(e.CreatedAt),
		JobID:     optString(e.JobID),
	}
}

// listAgrLedgerResponse is ListAgrLedgerResponse plus the cursor of the
// next page. count is the number of entries in this page.
type listAgrLedgerResponse struct {
	Address    string               `json:"address"`
	Entries    []agrLedgerEntryJSON `json:"entries"`
	Count      int                  `json:"count"`
	NextCursor *string              `json:"next_cursor"`
}

// devMintRequest is the body of POST /api/v1/agr/dev_mint.
type devMintRequest struct {
	Address *string `json:"address"`
	Amount  *int64  `json:"amount"`
}

// boostJobRequest is BoostJobRequest.
type boostJobRequest struct {
	AmountAGR     *int64 `json:"amount_agr"`
	DurationHours *int64 `json:"duration_hours"`
}

// boostJobResponse is BoostJobResponse.
type boostJobResponse struct {
	JobID         string  `json:"job_id"`
	FeaturedScore int64   `json:"featured_score"`
	FeaturedUntil *string `json:"featured_until"`
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
	return respond(w, listAgrLedgerResponse{
		Address:    page.Address.String(),
		Entries:    entries,
		Count:      len(entries),
		NextCursor: optString(page.NextCursor),
	})
}

func (s *server) agrDevMint(w http.ResponseWriter, r *http.Request) error {
	var req devMintRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.Address == nil:
		return required("address")
	case req.Amount == nil:
		return required("amount")
	}
	addr, err := parseAddress("address", *req.Address)
	if err != nil {
		return err
	}
	st, err := s.svc.AGR.DevMint(r.Context(), addr, *req.Amount)
	if err != nil {
		return err
	}
	st.Address = addr
	return respond(w, newAgrStatusJSON(st))
}

func (s *server) boostJob(w http.ResponseWriter, r *http.Request) error {
	var req boostJobRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.AmountAGR == nil:
		return required("amount_agr")
	case req.DurationHours == nil:
		return required("duration_hours")
	}
	job, err := s.svc.Market.Boost(r.Context(), callerFrom(r.Context()).addr, r.PathValue("job_id"), marketplace.BoostInput{
		AmountAGR:     *req.AmountAGR,
		DurationHours: *req.DurationHours,
	})
	if err != nil {
		return err
	}
	return respond(w, boostJobResponse{JobID: job.ID, FeaturedScore: job.FeaturedScore, FeaturedUntil: optTimePtr(job.FeaturedUntil)})
}
