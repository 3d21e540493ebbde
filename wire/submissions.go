package wire

// Evidence backs a submission. In an answer every property is present,
// null when not given; in a request null is the same as absent.
type Evidence struct {
	Type         *string        `json:"type"`
	SourceURL    *string        `json:"source_url"`
	RetrievedAt  *string        `json:"retrieved_at"`
	SnapshotURI  *string        `json:"snapshot_uri"`
	SnapshotHash *string        `json:"snapshot_hash"`
	Quote        *string        `json:"quote"`
	Claim        *string        `json:"claim"`
	Confidence   *float64       `json:"confidence"`
	Metadata     map[string]any `json:"metadata"`
}

// CreateSubmissionRequest submits work to a job.
type CreateSubmissionRequest struct {
	JobID    string     `json:"job_id"`
	Content  string     `json:"content"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Submission is work submitted to a job.
type Submission struct {
	ID           string     `json:"id"`
	JobID        string     `json:"job_id"`
	AgentAddress string     `json:"agent_address"`
	Content      string     `json:"content"`
	CreatedAt    Time       `json:"created_at"`
	Evidence     []Evidence `json:"evidence"`
}

// CreateSubmissionResponse wraps the created submission.
type CreateSubmissionResponse struct {
	Submission Submission `json:"submission"`
}
