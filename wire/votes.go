package wire

// CreateVoteRequest casts (or replaces) a jury vote: SubmissionID on an
// open-mode job, Commitment on a commit-reveal job.
type CreateVoteRequest struct {
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id,omitempty"`
	Commitment   string         `json:"commitment,omitempty"`
	Review       map[string]any `json:"review,omitempty"`
}

// Vote is a jury vote; Review is null when absent.
type Vote struct {
	ID           string         `json:"id"`
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id"`
	VoterAddress string         `json:"voter_address"`
	Weight       int64          `json:"weight"`
	CreatedAt    Time           `json:"created_at"`
	Review       map[string]any `json:"review"`
}

// CreateVoteResponse wraps a jury vote.
type CreateVoteResponse struct {
	Vote Vote `json:"vote"`
}

// JuryCommitment is a hidden jury vote: it does not say which submission
// it is for.
type JuryCommitment struct {
	ID           string `json:"id"`
	JobID        string `json:"job_id"`
	VoterAddress string `json:"voter_address"`
	Commitment   string `json:"commitment"`
	CreatedAt    Time   `json:"created_at"`
}

// CreateCommitmentResponse wraps a commitment (POST /api/v1/votes with a
// commitment).
type CreateCommitmentResponse struct {
	Commitment JuryCommitment `json:"commitment"`
}

// RevealVoteRequest reveals a commitment: the submission and the salt.
type RevealVoteRequest struct {
	JobID        string         `json:"job_id"`
	SubmissionID string         `json:"submission_id"`
	Salt         string         `json:"salt"`
	Review       map[string]any `json:"review,omitempty"`
}

// VoteTally is the jury tally of one submission; EarliestVoteAt, the time
// of its earliest current vote, is the second sort key.
type VoteTally struct {
	SubmissionID   string `json:"submission_id"`
	WeightedVotes  int64  `json:"weighted_votes"`
	Voters         int64  `json:"voters"`
	EarliestVoteAt *Time  `json:"earliest_vote_at"`
}

// JobVotingSummary is the jury tally of an open-mode job.
type JobVotingSummary struct {
	JobID   string      `json:"job_id"`
	Tallies []VoteTally `json:"tallies"`
}

// CommitRevealVotingSummary is the jury tally of a commit-reveal job: no
// tallies until its reveal window ends, the number of commitments
// instead.
type CommitRevealVotingSummary struct {
	JobID         string      `json:"job_id"`
	Tallies       []VoteTally `json:"tallies"`
	Commitments   int64       `json:"commitments"`
	TalliesHidden bool        `json:"tallies_hidden"`
}

// CreateFinalVoteRequest casts (or replaces) a final decision vote.
type CreateFinalVoteRequest struct {
	JobID        string `json:"job_id"`
	SubmissionID string `json:"submission_id"`
}

// FinalVote is a final decision vote.
type FinalVote struct {
	ID           string `json:"id"`
	JobID        string `json:"job_id"`
	SubmissionID string `json:"submission_id"`
	VoterAddress string `json:"voter_address"`
	CreatedAt    Time   `json:"created_at"`
}

// CreateFinalVoteResponse wraps a final vote.
type CreateFinalVoteResponse struct {
	Vote FinalVote `json:"vote"`
}

// FinalVoteTally is the final-vote tally of one submission.
type FinalVoteTally struct {
	SubmissionID   string `json:"submission_id"`
	Votes          int64  `json:"votes"`
	Voters         int64  `json:"voters"`
	EarliestVoteAt *Time  `json:"earliest_vote_at"`
}

// JobFinalDecisionSummary is a job's final-vote tallies.
type JobFinalDecisionSummary struct {
	JobID   string           `json:"job_id"`
	Tallies []FinalVoteTally `json:"tallies"`
}
