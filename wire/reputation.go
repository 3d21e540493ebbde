package wire

// Reputation is an address's reputation record; Badges is [] when there
// are none.
type Reputation struct {
	Address       string   `json:"address"`
	Score         int64    `json:"score"`
	Level         int64    `json:"level"`
	Wins          int64    `json:"wins"`
	Losses        int64    `json:"losses"`
	LastUpdatedAt Time     `json:"last_updated_at"`
	Badges        []string `json:"badges"`
}

// DevSetReputationRequest sets a reputation score (dev endpoint).
type DevSetReputationRequest struct {
	Address string `json:"address"`
	Score   int64  `json:"score"`
}

// LeaderboardEntry is one row of the leaderboard.
type LeaderboardEntry struct {
	Address string `json:"address"`
	Score   int64  `json:"score"`
	Level   int64  `json:"level"`
}

// LeaderboardResponse is one page of the leaderboard.
type LeaderboardResponse struct {
	Entries    []LeaderboardEntry `json:"entries"`
	NextCursor *string            `json:"next_cursor"`
}
