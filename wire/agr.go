package wire

// AgrStatus is an address's AGR balance.
type AgrStatus struct {
	Address string `json:"address"`
	Balance int64  `json:"balance"`
	Earned  int64  `json:"earned"`
	Spent   int64  `json:"spent"`
}

// AgrLedgerEntry is one AGR ledger entry.
type AgrLedgerEntry struct {
	ID        string  `json:"id"`
	Address   string  `json:"address"`
	Delta     int64   `json:"delta"`
	Reason    string  `json:"reason"`
	CreatedAt Time    `json:"created_at"`
	JobID     *string `json:"job_id"`
}

// ListAgrLedgerResponse is one page of an address's AGR ledger.
type ListAgrLedgerResponse struct {
	Address    string           `json:"address"`
	Entries    []AgrLedgerEntry `json:"entries"`
	Count      int64            `json:"count"`
	NextCursor *string          `json:"next_cursor"`
}

// DevMintRequest credits AGR (dev endpoint).
type DevMintRequest struct {
	Address string `json:"address"`
	Amount  int64  `json:"amount"`
}

// BoostJobRequest spends AGR to feature a job.
type BoostJobRequest struct {
	AmountAGR     int64 `json:"amount_agr"`
	DurationHours int64 `json:"duration_hours"`
}

// BoostJobResponse is a job's featuring after a boost.
type BoostJobResponse struct {
	JobID         string `json:"job_id"`
	FeaturedScore int64  `json:"featured_score"`
	FeaturedUntil *Time  `json:"featured_until"`
}
