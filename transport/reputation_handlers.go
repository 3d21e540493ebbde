package transport

import (
	"net/http"
	"time"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
)

func (s *server) reputationRoutes() []route {
	// The literal segment is more specific than {address}, so ServeMux
	// sends /api/v1/reputation/leaderboard here, never to reputation.
	return []route{
		{pattern: "GET /api/v1/reputation/leaderboard", op: "getLeaderboard", service: "leaderboard", cached: true, h: s.leaderboard},
		{pattern: "GET /api/v1/reputation/{address}", op: "getReputation", service: "reputation", cached: true, h: s.reputation},
		{pattern: "POST /api/v1/reputation/dev_set", op: "devSetReputation", auth: authDev, h: s.reputationDevSet},
	}
}

// newReputationJSON converts a record. last_updated_at is required by the
// spec, but an address with no record (the zero record of
// docs/rules.md#reputation) has never been updated: it then carries now,
// the time of the answer.
func newReputationJSON(r marketplace.Reputation, now time.Time) wire.Reputation {
	updated := r.UpdatedAt
	if updated.IsZero() {
		updated = now
	}
	return wire.Reputation{
		Address:       r.Address.String(),
		Score:         r.Score,
		Level:         marketplace.Level(r.Score),
		Wins:          r.Wins,
		Losses:        r.Losses,
		LastUpdatedAt: wire.NewTime(updated),
		Badges:        marketplace.Badges(r),
	}
}

func (s *server) reputation(w http.ResponseWriter, r *http.Request) error {
	addr, err := parseAddress("address", r.PathValue("address"))
	if err != nil {
		return err
	}
	rep, err := s.svc.Market.Reputation(r.Context(), addr.String())
	if err != nil {
		return err
	}
	// A store may leave the address of a zero record empty.
	rep.Address = addr
	return respond(w, newReputationJSON(rep, s.clock.Now()))
}

func (s *server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", marketplace.DefaultLeaderboardLimit, 1, marketplace.MaxLeaderboardLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Market.Leaderboard(r.Context(), marketplace.LeaderboardInput{Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		return err
	}
	entries := mapEach(page.Entries, func(e marketplace.Reputation) wire.LeaderboardEntry {
		return wire.LeaderboardEntry{Address: e.Address.String(), Score: e.Score, Level: marketplace.Level(e.Score)}
	})
	return respond(w, wire.LeaderboardResponse{Entries: entries, NextCursor: optString(page.NextCursor)})
}

func (s *server) reputationDevSet(w http.ResponseWriter, r *http.Request) error {
	var req wire.DevSetReputationRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("address", "score"); err != nil {
		return err
	}
	addr, err := parseAddress("address", req.Address)
	if err != nil {
		return err
	}
	rep, err := s.svc.Market.DevSetReputation(r.Context(), addr, req.Score)
	if err != nil {
		return err
	}
	return respond(w, newReputationJSON(rep, s.clock.Now()))
}
