package wire

// Error is the body of every failure: {"detail": "..."}.
type Error struct {
	Detail string `json:"detail"`
}
