package transport_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

// Open the store, build the services and mount the handler in your own
// server, next to your own routes.
func Example_embedding() {
	ctx := context.Background()
	db, err := bunstore.Open(ctx, "sqlite::memory:") // or postgres://..., or a file path
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	clock := openjury.SystemClock{}
	authSvc := auth.NewService(db, clock, auth.Config{
		Domain:       "jury.example.com",
		URI:          "https://jury.example.com",
		ChainID:      8453,
		ChallengeTTL: 5 * time.Minute,
		TokenTTL:     24 * time.Hour,
	}, nil)
	minStake := openjury.MicroUSDC(10 * openjury.MicroPerUSDC)
	market := marketplace.NewService(db, clock, marketplace.Config{
		DefaultFinalVoteWindow: 24 * time.Hour,
		MinStake:               minStake,
		MinRepScoreToVote:      10,
		AGRMintPerWin:          50,
	})
	stakeSvc := stake.NewService(db.Stake(), clock, stake.Config{MinStake: minStake, Network: "base", ChainID: 8453})
	api := transport.NewHandler(transport.Services{
		Auth:   authSvc,
		Market: market,
		Stake:  stakeSvc,
		AGR:    agr.NewService(db.AGR(), clock),
		Ready:  db.Ping,
	}, transport.Options{BaseURL: "https://jury.example.com"})

	mux := http.NewServeMux()
	mux.Handle("/api/", api) // OpenJury's routes keep their full paths
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "your own route")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/api/v1/jobs")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, strings.TrimSpace(string(body)))
	// Output: 200 {"jobs":[],"next_cursor":null}
}
