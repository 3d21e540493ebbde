package wire

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
