package wire

// CloseJobRequest closes a job as its sponsor, with the optional receipt
// of the onchain close.
type CloseJobRequest struct {
	WinnerSubmissionID   string  `json:"winner_submission_id"`
	CloseTxHash          *string `json:"close_tx_hash,omitempty"`
	CloseChainID         *int64  `json:"close_chain_id,omitempty"`
	CloseContractAddress *string `json:"close_contract_address,omitempty"`
	CloseBlockNumber     *int64  `json:"close_block_number,omitempty"`
	CloseLogIndex        *int64  `json:"close_log_index,omitempty"`
}

// CloseJobResponse is a closed job with its winner and jury tallies.
type CloseJobResponse struct {
	Job                Job              `json:"job"`
	WinnerSubmissionID string           `json:"winner_submission_id"`
	VotingSummary      JobVotingSummary `json:"voting_summary"`
}
