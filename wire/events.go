package wire

import "encoding/json"

// Event is one entry of the event log (GET /api/v1/events, the stream's
// data lines, the body of a webhook delivery). Data is a JSON object
// whose members depend on Type.
type Event struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt Time            `json:"created_at"`
	JobID     *string         `json:"job_id"`
	Address   *string         `json:"address"`
	Subjects  []string        `json:"subjects"`
	Tags      []string        `json:"tags"`
	Data      json.RawMessage `json:"data"`
}

// ListEventsResponse is a page of the event log.
type ListEventsResponse struct {
	Events     []Event `json:"events"`
	NextCursor *string `json:"next_cursor"`
}
