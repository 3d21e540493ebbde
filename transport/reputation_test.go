package transport_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
)

var reputationKeys = []string{"address", "score", "level", "wins", "losses", "last_updated_at", "badges"}

func TestReputationUnknownAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	e.clock.Advance(time.Hour)

	// The zero record; last_updated_at is the time of the answer.
	r := e.get("/api/v1/reputation/" + w.addr)
	require.JSONEq(t, fmt.Sprintf(`{"address":%q,"score":0,"level":1,"wins":0,"losses":0,"last_updated_at":%q,"badges":[]}`,
		w.lower(), openjury.FormatTime(e.clock.Now())), string(r.Body))

	// Nothing was written: the leaderboard stays empty.
	require.JSONEq(t, `{"entries":[],"next_cursor":null}`, string(e.get("/api/v1/reputation/leaderboard").Body))

	for _, a := range []string{"0x12", "nope", mixedBadChecksum(w), "%20"} {
		r := e.do("GET", "/api/v1/reputation/"+a, nil)
		require.Equal(t, http.StatusBadRequest, r.Code, "%s: %s", a, r.Body)
	}
	requireError(t, e.do("GET", "/api/v1/reputation/0x12", nil), http.StatusBadRequest, "address: must be 0x followed by 40 hex digits")
}

func TestReputationDevSet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	r := e.do("POST", "/api/v1/reputation/dev_set", map[string]any{"address": w.addr, "score": 250}, devHeader())
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	m := r.JSON(t)
	requireKeys(t, m, reputationKeys...)
	require.Equal(t, map[string]any{
		"address": w.lower(), "score": float64(250), "level": float64(3), "wins": float64(0), "losses": float64(0),
		"last_updated_at": openjury.FormatTime(e.clock.Now()), "badges": []any{},
	}, m)

	// The stored time, not the time of the read.
	e.clock.Advance(time.Hour)
	require.Equal(t, m, e.get("/api/v1/reputation/"+w.lower()).JSON(t))

	for _, tc := range []struct {
		body   any
		detail string
	}{
		{map[string]any{"score": 1}, "address: is required"},
		{map[string]any{"address": w.addr}, "score: is required"},
		{map[string]any{"address": w.addr, "score": -1}, "score: must be between 0 and 1000000000"},
		{map[string]any{"address": w.addr, "score": 1000000001}, "score: must be between 0 and 1000000000"},
		{map[string]any{"address": w.addr, "score": 1.5}, "score: must be an integer"},
		{map[string]any{"address": "0x", "score": 1}, "address: must be 0x followed by 40 hex digits"},
	} {
		requireError(t, e.do("POST", "/api/v1/reputation/dev_set", tc.body, devHeader()), http.StatusBadRequest, tc.detail)
	}
}

func TestReputationBadges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := e.voteFixture()
	juror := e.agent(minStake, minRep)
	e.vote(juror.token, f.jobID, f.s1)
	rep := e.get("/api/v1/reputation/" + juror.lower()).JSON(t)
	require.Equal(t, []any{"juror"}, rep["badges"])
	require.EqualValues(t, minRep, rep["score"])
	rep = e.get("/api/v1/reputation/" + f.w1.lower()).JSON(t)
	require.Equal(t, []any{"first_submission"}, rep["badges"])
	require.EqualValues(t, 1, rep["score"])
}

func TestLeaderboard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Scores with a tie; order: score desc, then address asc.
	scores := map[string]int64{addr20(0x05): 50, addr20(0x01): 300, addr20(0x09): 50, addr20(0x03): 0, addr20(0x07): 120}
	for a, s := range scores {
		e.setRep(a, s)
	}
	want := make([]string, 0, len(scores))
	for a := range scores {
		want = append(want, a)
	}
	sort.Slice(want, func(i, j int) bool {
		if scores[want[i]] != scores[want[j]] {
			return scores[want[i]] > scores[want[j]]
		}
		return want[i] < want[j]
	})

	m := e.get("/api/v1/reputation/leaderboard").JSON(t)
	requireKeys(t, m, "entries", "next_cursor")
	require.Nil(t, m["next_cursor"])
	entries := m["entries"].([]any)
	require.Len(t, entries, len(want))
	for i, it := range entries {
		en := it.(map[string]any)
		requireKeys(t, en, "address", "score", "level")
		require.Equal(t, want[i], en["address"])
		require.EqualValues(t, scores[want[i]], en["score"])
		require.EqualValues(t, scores[want[i]]/100+1, en["level"])
	}

	// Pages of two follow the same order.
	var all []string
	query := "?limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 4)
		m := e.get("/api/v1/reputation/leaderboard" + query).JSON(t)
		for _, it := range m["entries"].([]any) {
			all = append(all, it.(map[string]any)["address"].(string))
		}
		if m["next_cursor"] == nil {
			break
		}
		query = "?limit=2&cursor=" + url.QueryEscape(m["next_cursor"].(string))
	}
	require.Equal(t, want, all)

	for _, tc := range []struct{ query, detail string }{
		{"?limit=0", "limit: must be between 1 and 200"},
		{"?limit=201", "limit: must be between 1 and 200"},
		{"?limit=two", "limit: must be an integer"},
		{"?cursor=abc", "cursor: not a cursor from this list"},
	} {
		requireError(t, e.do("GET", "/api/v1/reputation/leaderboard"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
}
