package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openjury/openjury/marketplace"
	"github.com/stretchr/testify/require"
)

func TestPctScalesToTotalWeight(t *testing.T) {
	bars := pct([]marketplace.Tally{{SubmissionID: "a", Weight: 3}, {SubmissionID: "b", Weight: 1}})
	require.Equal(t, 75, bars[0].Percent)
	require.Equal(t, 25, bars[1].Percent)
	require.Equal(t, 0, pct([]marketplace.Tally{{Weight: 0}})[0].Percent)
}

func TestPanicBecomesA500Page(t *testing.T) {
	h := secure(cspFor(""), recoverPanics(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	require.Contains(t, rec.Body.String(), "Something went wrong")
	require.NotContains(t, rec.Body.String(), "boom")
	require.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
}
