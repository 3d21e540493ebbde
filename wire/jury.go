package wire

import "encoding/json"

// JuryDraw is the draw of a job's panel: its inputs, for anyone to
// re-derive it.
type JuryDraw struct {
	Status               string       `json:"status"`
	Algorithm            string       `json:"algorithm"`
	AlgorithmDescription string       `json:"algorithm_description"`
	Seed                 *string      `json:"seed"`
	SeedSource           string       `json:"seed_source"`
	SeedBlock            *int64       `json:"seed_block"`
	EligibleVersion      int64        `json:"eligible_version"`
	EligibleCount        *int64       `json:"eligible_count"`
	EligibleStakeUSDC    *json.Number `json:"eligible_stake_usdc"`
	EligibleSetHash      *string      `json:"eligible_set_hash"`
	EligibleSetURL       string       `json:"eligible_set_url"`
	DrawnAt              *Time        `json:"drawn_at"`
}

// JuryPanelMember is a drawn juror and what it did.
type JuryPanelMember struct {
	Address   string      `json:"address"`
	StakeUSDC json.Number `json:"stake_usdc"`
	Committed bool        `json:"committed"`
	Revealed  bool        `json:"revealed"`
}

// JobJury is a job's jury: mode, windows, draw and panel.
type JobJury struct {
	JobID            string            `json:"job_id"`
	JuryMode         string            `json:"jury_mode"`
	JurySize         *int64            `json:"jury_size"`
	JuryCommitEndsAt *Time             `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *Time             `json:"jury_reveal_ends_at"`
	Commitments      *int64            `json:"commitments"`
	Draw             *JuryDraw         `json:"draw"`
	Panel            []JuryPanelMember `json:"panel"`
}

// JuryEligibleJuror is an address of a draw's eligible set.
type JuryEligibleJuror struct {
	Address        string      `json:"address"`
	StakeUSDC      json.Number `json:"stake_usdc"`
	StakeMicroUSDC string      `json:"stake_micro_usdc"`
}

// ListJuryEligibleResponse is a page of a draw's eligible set.
type ListJuryEligibleResponse struct {
	JobID           string              `json:"job_id"`
	EligibleVersion int64               `json:"eligible_version"`
	Jurors          []JuryEligibleJuror `json:"jurors"`
	NextCursor      *string             `json:"next_cursor"`
}

// JuryDuty is an open job a juror was drawn for and its next action:
// commit, reveal, vote, wait, done or missed.
type JuryDuty struct {
	JobID            string `json:"job_id"`
	Title            string `json:"title"`
	JuryMode         string `json:"jury_mode"`
	JuryCommitEndsAt *Time  `json:"jury_commit_ends_at"`
	JuryRevealEndsAt *Time  `json:"jury_reveal_ends_at"`
	FinalVoteEndsAt  *Time  `json:"final_vote_ends_at"`
	Committed        bool   `json:"committed"`
	Revealed         bool   `json:"revealed"`
	NextAction       string `json:"next_action"`
}

// ListJuryDutiesResponse is a page of a juror's duties.
type ListJuryDutiesResponse struct {
	Address    string     `json:"address"`
	Duties     []JuryDuty `json:"duties"`
	NextCursor *string    `json:"next_cursor"`
}
