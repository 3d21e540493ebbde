package server_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/openjury/openjury/server"
)

// Build the whole service from its settings and serve it in your own
// server, next to your own routes.
func Example_embedding() {
	cfg := server.Defaults()                 // or server.Load(os.Getenv) for the SERVICE_* variables
	cfg.DatabaseURL = "sqlite::memory:"      // or postgres://..., or a file path
	cfg.BaseURL = "https://jury.example.com" // the public URL: its host is the sign-in domain
	ctx := context.Background()
	jury, err := server.New(ctx, cfg, server.WithLogger(slog.New(slog.DiscardHandler))) // or your own logger
	if err != nil {
		log.Fatal(err) // a *server.ConfigError lists every problem
	}
	defer jury.Close()
	// Background work: search indexing, cleanup, the stake-vault sync.
	if err := jury.Start(ctx); err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.Handle("/", jury.Handler()) // the API and the web app, at their full paths
	mux.HandleFunc("GET /hello", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "your own route")
	})
	srv := httptest.NewServer(mux) // or your own http.Server
	defer srv.Close()

	for _, path := range []string{"/api/v1/jobs", "/hello"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, strings.TrimSpace(string(body)))
	}
	// Output:
	// 200 {"jobs":[],"next_cursor":null}
	// 200 your own route
}
