package transport

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

func (s *server) escrowRoutes() []route {
	if s.svc.Anchor == nil {
		return nil // the proofs come from the anchor service
	}
	return []route{
		{pattern: "GET /api/v1/jobs/{job_id}/payouts", op: "getJobPayouts", service: "job_payouts", cached: true, h: s.getPayouts},
	}
}

// payoutJSON is one payout of GET /api/v1/jobs/{job_id}/payouts: what
// BountyEscrow.claim(job_key, sponsor, recipient, amount_micro_usdc, proof)
// takes, and whether it was claimed.
type payoutJSON struct {
	Recipient       string      `json:"recipient"`
	AmountUSDC      json.Number `json:"amount_usdc"`
	AmountMicroUSDC string      `json:"amount_micro_usdc"`
	Roles           []string    `json:"roles"`
	Leaf            string      `json:"leaf"`
	Proof           []string    `json:"proof"`
	Claimed         bool        `json:"claimed"`
	ClaimTxHash     *string     `json:"claim_tx_hash"`
}

// payoutsResponse is the answer of GET /api/v1/jobs/{job_id}/payouts:
// CONTRACT's {job_id, escrow_status, payouts} plus what a claim or a settle
// needs (additive).
type payoutsResponse struct {
	JobID                 string       `json:"job_id"`
	EscrowStatus          *string      `json:"escrow_status"`
	Payouts               []payoutJSON `json:"payouts"`
	NextCursor            *string      `json:"next_cursor"`
	JobKey                string       `json:"job_key"`
	SponsorAddress        string       `json:"sponsor_address"`
	AnchorRoot            *string      `json:"anchor_root"`
	TotalUSDC             *json.Number `json:"total_usdc"`
	TotalMicroUSDC        *string      `json:"total_micro_usdc"`
	EscrowContractAddress *string      `json:"escrow_contract_address"`
	ChainID               *int64       `json:"chain_id"`
}

func (s *server) getPayouts(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", marketplace.DefaultListLimit, 1, marketplace.MaxListLimit)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	page, err := s.svc.Market.Payouts(r.Context(), r.PathValue("job_id"), marketplace.PayoutsInput{
		Recipient: q.Get("recipient"), Limit: limit, Cursor: q.Get("cursor"),
	})
	if err != nil {
		return err
	}
	job := page.Job
	out := payoutsResponse{
		JobID:          job.ID,
		Payouts:        make([]payoutJSON, 0, len(page.Payouts)),
		NextCursor:     optString(page.NextCursor),
		JobKey:         openjury.HashFromBytes(anchor.JobKey(job.ID)).String(),
		SponsorAddress: job.Sponsor.String(),
	}
	if e := s.svc.Market.EscrowOf(job); e != nil {
		status := string(e.Status)
		out.EscrowStatus = &status
	}
	if esc := s.svc.Market.Config().Escrow; esc.Enabled() {
		chainID := esc.ChainID
		out.EscrowContractAddress, out.ChainID = optAddress(esc.Contract), &chainID
	}
	if job.Anchor != nil {
		root := job.Anchor.Root.String()
		out.AnchorRoot = &root
	}
	if t := job.PayoutTotal; t != nil {
		total, micro := usdcJSON(*t), strconv.FormatInt(int64(*t), 10)
		out.TotalUSDC, out.TotalMicroUSDC = &total, &micro
	}
	for _, p := range page.Payouts {
		proof, err := s.svc.Anchor.Proof(r.Context(), job.ID, anchor.PayoutRecordID(p.Recipient))
		if err != nil {
			return err
		}
		pj := payoutJSON{
			Recipient:       p.Recipient.String(),
			AmountUSDC:      usdcJSON(openjury.MicroUSDC(p.Amount)),
			AmountMicroUSDC: strconv.FormatUint(p.Amount, 10),
			Roles:           orEmpty(p.Roles),
			Leaf:            proof.Leaf.String(),
			Proof:           mapEach(proof.Proof, openjury.Hash.String),
			Claimed:         !p.Claim.IsZero(),
			ClaimTxHash:     optString(p.Claim.TxHash.String()),
		}
		out.Payouts = append(out.Payouts, pj)
	}
	return respond(w, out)
}
