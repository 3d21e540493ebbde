package wire

import "encoding/json"

// Payout is one payout of a closed funded job: what the escrow's
// claim(job_key, sponsor, recipient, amount_micro_usdc, proof) takes.
type Payout struct {
	Recipient       string      `json:"recipient"`
	AmountUSDC      json.Number `json:"amount_usdc"`
	AmountMicroUSDC string      `json:"amount_micro_usdc"`
	Roles           []string    `json:"roles"`
	Leaf            string      `json:"leaf"`
	Proof           []string    `json:"proof"`
	Claimed         bool        `json:"claimed"`
	ClaimTxHash     *string     `json:"claim_tx_hash"`
}

// JobPayouts is a page of a job's payouts with what a settle and a claim
// send.
type JobPayouts struct {
	JobID                 string       `json:"job_id"`
	EscrowStatus          *string      `json:"escrow_status"`
	Payouts               []Payout     `json:"payouts"`
	NextCursor            *string      `json:"next_cursor"`
	JobKey                string       `json:"job_key"`
	SponsorAddress        string       `json:"sponsor_address"`
	AnchorRoot            *string      `json:"anchor_root"`
	TotalUSDC             *json.Number `json:"total_usdc"`
	TotalMicroUSDC        *string      `json:"total_micro_usdc"`
	EscrowContractAddress *string      `json:"escrow_contract_address"`
	ChainID               *int64       `json:"chain_id"`
}
