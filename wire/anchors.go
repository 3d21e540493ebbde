package wire

import "encoding/json"

// AnchorBatch is the anchor of a closed job, with the receipt of its
// onchain record once known.
type AnchorBatch struct {
	ID                    string  `json:"id"`
	JobID                 string  `json:"job_id"`
	SchemaVersion         int64   `json:"schema_version"`
	Salt                  string  `json:"salt"`
	AnchorRoot            string  `json:"anchor_root"`
	AnchorURI             string  `json:"anchor_uri"`
	CreatedAt             Time    `json:"created_at"`
	AnchorTxHash          *string `json:"anchor_tx_hash"`
	AnchorChainID         *int64  `json:"anchor_chain_id"`
	AnchorContractAddress *string `json:"anchor_contract_address"`
	AnchorBlockNumber     *int64  `json:"anchor_block_number"`
	AnchorLogIndex        *int64  `json:"anchor_log_index"`
}

// RecordAnchorReceiptRequest records the onchain receipt of an anchor.
type RecordAnchorReceiptRequest struct {
	AnchorTxHash          string `json:"anchor_tx_hash"`
	AnchorChainID         int64  `json:"anchor_chain_id"`
	AnchorContractAddress string `json:"anchor_contract_address"`
	AnchorBlockNumber     int64  `json:"anchor_block_number"`
	AnchorLogIndex        int64  `json:"anchor_log_index"`
}

// AnchorProof is the Merkle proof of one snapshot record.
type AnchorProof struct {
	Record string   `json:"record"`
	Leaf   string   `json:"leaf"`
	Proof  []string `json:"proof"`
	Root   string   `json:"root"`
}

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
