package transport

import (
	"encoding/json"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

// jobJSON converts a domain job with the escrow state it shows
// (marketplace.Service.EscrowOf).
func (s *server) jobJSON(j *marketplace.Job) wire.Job {
	out := newJobJSON(j)
	setEscrow(&out, s.svc.Market.EscrowOf(j))
	return out
}

// setEscrow fills the escrow_* fields from e (all null for nil).
func setEscrow(out *wire.Job, e *marketplace.JobEscrow) {
	if e == nil {
		return
	}
	status, amount, mismatch := string(e.Status), usdcJSON(e.Amount), e.Mismatch
	ref := newChainRefFields(e.Ref)
	out.EscrowStatus, out.EscrowAmountUSDC, out.EscrowMismatch = &status, &amount, &mismatch
	out.EscrowRefundAfter = optTimePtr(e.RefundAfter)
	out.EscrowTxHash, out.EscrowChainID, out.EscrowContractAddress = ref.TxHash, ref.ChainID, ref.Contract
	out.EscrowBlockNumber, out.EscrowLogIndex = ref.BlockNumber, ref.LogIndex
}

// newJobJSON converts a domain job to the Job resource: every field always
// present, optional ones null when unknown (docs/rules.md#jobs). The
// anchor_* fields are null until the job has a snapshot; the escrow_*
// fields are null (server.jobJSON sets them).
func newJobJSON(j *marketplace.Job) wire.Job {
	closeRef := newChainRefFields(j.Close)
	out := wire.Job{
		ID:                   j.ID,
		Title:                j.Title,
		Prompt:               j.Prompt,
		BountyUSDC:           usdcJSON(j.Bounty),
		Tags:                 orEmpty(j.Tags),
		Status:               string(j.Status),
		SponsorAddress:       optString(j.Sponsor.String()),
		CreatedAt:            wire.NewTime(j.CreatedAt),
		WinnerSubmissionID:   optString(j.WinnerSubmissionID),
		ClosedAt:             optTimePtr(j.ClosedAt),
		CloseTxHash:          closeRef.TxHash,
		CloseChainID:         closeRef.ChainID,
		CloseContractAddress: closeRef.Contract,
		CloseBlockNumber:     closeRef.BlockNumber,
		CloseLogIndex:        closeRef.LogIndex,
		FinalVoteStartsAt:    optTime(j.FinalVoteStartsAt),
		FinalVoteEndsAt:      optTime(j.FinalVoteEndsAt),
		FeaturedScore:        j.FeaturedScore,
		FeaturedUntil:        optTimePtr(j.FeaturedUntil),
		JuryMode:             j.JuryMode.Name(),
		JurySize:             optSize(j.JurySize),
		JuryCommitEndsAt:     optTimePtr(j.JuryCommitEndsAt),
		JuryRevealEndsAt:     optTimePtr(j.JuryRevealEndsAt),
	}
	if b := j.Anchor; b != nil {
		a := newAnchorBatchJSON(b)
		out.AnchorRoot, out.AnchorURI, out.AnchorSchemaVersion, out.AnchorSalt = &a.AnchorRoot, &a.AnchorURI, &a.SchemaVersion, &a.Salt
		out.AnchorTxHash, out.AnchorChainID, out.AnchorContractAddress = a.AnchorTxHash, a.AnchorChainID, a.AnchorContractAddress
		out.AnchorBlockNumber, out.AnchorLogIndex = a.AnchorBlockNumber, a.AnchorLogIndex
	}
	return out
}

// optSize is nil for 0, else n.
func optSize(n int) *int64 {
	if n == 0 {
		return nil
	}
	v := int64(n)
	return &v
}

// mapEach converts every element of s with f. The result is never nil, so
// an empty list is encoded as [], not null.
func mapEach[E, T any](s []E, f func(E) T) []T {
	out := make([]T, len(s))
	for i, e := range s {
		out[i] = f(e)
	}
	return out
}

// orEmpty is s, or an empty slice (encoded as []) for nil.
func orEmpty[E any](s []E) []E {
	if s == nil {
		return []E{}
	}
	return s
}

// usdcJSON renders an amount as an exact JSON number, e.g. 12.5.
func usdcJSON(m openjury.MicroUSDC) json.Number { return json.Number(m.String()) }

// optString is nil for "", else a pointer to s.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// deref is *p, or "" for nil: the inverse of optString.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// optTime is t on the wire, or nil for the zero time.
func optTime(t time.Time) *wire.Time {
	if t.IsZero() {
		return nil
	}
	return &wire.Time{Time: t}
}

// optTimePtr is *t on the wire, or nil for nil.
func optTimePtr(t *time.Time) *wire.Time {
	if t == nil {
		return nil
	}
	return optTime(*t)
}
