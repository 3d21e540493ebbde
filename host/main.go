package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/openjury/openjury/internal/gcfloor"
	"github.com/openjury/openjury/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ce *server.ConfigError
		if errors.As(err, &ce) {
			os.Exit(2) // run listed the problems
		}
		fmt.Fprintln(os.Stderr, "openjury:", err)
		os.Exit(1)
	}
}

// run reads the configuration, serves until ctx is cancelled and shuts down
// gracefully. It returns a *server.ConfigError (after printing every
// problem to stderr) when the configuration is invalid or the chain node
// serves another chain, nil after a clean shutdown. Logs go to stderr;
// stdout gets what a person starting the host wants to see (see
// server.WithOutput).
func run(ctx context.Context, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := server.Load(getenv)
	if err == nil {
		err = serve(ctx, cfg, stdout, stderr)
	}
	var ce *server.ConfigError
	if errors.As(err, &ce) {
		fmt.Fprintln(stderr, "openjury: invalid configuration:")
		for _, p := range ce.Problems {
			fmt.Fprintf(stderr, "  - %s\n", p)
		}
	}
	return err
}

// serve builds the server of cfg, starts it (the search index loaded)
// and runs it until ctx ends, with the garbage collector's heap floor of
// cfg (gcfloor) from the end of the start: the index's load runs at Go's
// own pace, so its garbage does not stay resident in a replica whose index
// is large.
func serve(ctx context.Context, cfg server.Config, stdout, stderr io.Writer) error {
	srv, err := server.New(ctx, cfg, server.WithOutput(stdout, stderr))
	if err != nil {
		return err
	}
	defer srv.Close() // logs a database that fails to close
	// As Run would: the background work outlives ctx until the requests
	// in flight are done (Run stops it).
	if err := srv.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	defer gcfloor.Start(uint64(cfg.GCHeapFloorMB) << 20)()
	return srv.Run(ctx)
}
