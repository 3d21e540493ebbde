package transport

import (
	"net/http"
	"strconv"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) escrowRoutes() []route {
	if s.svc.Anchor == nil {
		return nil // the proofs come from the anchor service
	}
	return []route{
		{pattern: "GET /api/v1/jobs/{job_id}/payouts", op: "getJobPayouts", service: "job_payouts", cached: true, h: s.getPayouts},
	}
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
	out := wire.JobPayouts{
		JobID:          job.ID,
		Payouts:        make([]wire.Payout, 0, len(page.Payouts)),
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
		pj := wire.Payout{
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
