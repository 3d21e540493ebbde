package main

import (
	"context"
	"net"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// startHost runs the binary's run() on a free port and a fresh SQLite file
// with the given extra settings, and returns its base URL on 127.0.0.1. It
// is stopped when the test ends (and must then return nil). stderr is what
// it logged.
func startHost(t *testing.T, settings map[string]string) (base string, stderr *openjurytest.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	vars := map[string]string{
		"SERVICE_ADDR":         "127.0.0.1:0",
		"SERVICE_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "openjury.db"),
	}
	for k, v := range settings {
		vars[k] = v
	}
	var stdout openjurytest.Buffer
	stderr = &openjurytest.Buffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, env(vars), &stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(20 * time.Second):
			t.Errorf("run did not return after cancel")
		}
	})
	require.Eventually(t, func() bool {
		select {
		case err := <-done:
			t.Fatalf("run returned early: %v\nstderr: %s", err, stderr.String())
		default:
		}
		m := listeningRE.FindStringSubmatch(stdout.String())
		if m == nil {
			return false
		}
		base = m[1]
		return true
	}, 20*time.Second, 10*time.Millisecond)
	u, err := url.Parse(base)
	require.NoError(t, err)
	_, port, err := net.SplitHostPort(u.Host)
	require.NoError(t, err)
	return "http://" + net.JoinHostPort("127.0.0.1", port), stderr
}
