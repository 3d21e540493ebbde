package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// env turns a map into a getenv function.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// Addresses with valid EIP-55 checksums.
const (
	addrA = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	addrB = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

// listeningRE finds the address run prints on stdout once it listens.
var listeningRE = regexp.MustCompile(`listening on (http://\S+)`)

// startHost runs the binary's run() on a free port of 127.0.0.1 and a fresh
// SQLite file, with settings added to (or replacing) those, and returns its
// base URL on 127.0.0.1 and what it logged to stderr. stop cancels run and
// requires it to return nil within 20 s; it runs when the test ends if the
// test has not called it, and a second call does nothing.
func startHost(t *testing.T, settings map[string]string) (base string, stderr *openjurytest.Buffer, stop func()) {
	t.Helper()
	base, _, stderr, stop = startHostOut(t, settings)
	return base, stderr, stop
}

// startHostOut is startHost also returning what run printed on stdout.
func startHostOut(t *testing.T, settings map[string]string) (base string, stdout, stderr *openjurytest.Buffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	vars := map[string]string{
		"SERVICE_ADDR":         "127.0.0.1:0",
		"SERVICE_DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "openjury.db"),
	}
	maps.Copy(vars, settings)
	stdout, stderr = &openjurytest.Buffer{}, &openjurytest.Buffer{}
	exited := make(chan struct{})
	var runErr error // written before exited is closed
	go func() {
		defer close(exited)
		runErr = run(ctx, env(vars), stdout, stderr)
	}()
	var once sync.Once
	stop = func() {
		t.Helper()
		once.Do(func() {
			cancel()
			select {
			case <-exited:
				require.NoError(t, runErr, "stderr: %s", stderr.String())
			case <-time.After(20 * time.Second):
				t.Fatal("run did not return after cancel")
			}
		})
	}
	t.Cleanup(stop)

	// The condition runs on another goroutine, so it only reports; the
	// verdict is given here.
	require.Eventually(t, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		return listeningRE.MatchString(stdout.String())
	}, 20*time.Second, 10*time.Millisecond)
	select {
	case <-exited:
		t.Fatalf("run returned early: %v\nstderr: %s", runErr, stderr.String())
	default:
	}

	// The printed address is the bound one (":0" became a real port);
	// connect through the loopback interface.
	u, err := url.Parse(listeningRE.FindStringSubmatch(stdout.String())[1])
	require.NoError(t, err)
	_, port, err := net.SplitHostPort(u.Host)
	require.NoError(t, err)
	require.NotEqual(t, "0", port)
	return "http://" + net.JoinHostPort("127.0.0.1", port), stdout, stderr, stop
}

// callJSON sends a request to rawURL, with body marshalled to JSON unless
// nil and token as a bearer credential unless empty, and returns the
// status and the response body decoded as a JSON object.
func callJSON(t *testing.T, method, rawURL, token string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, rawURL, rd)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m), "%s", raw)
	return resp.StatusCode, m
}

// signIn signs w in on the host at base and returns the bearer token.
func signIn(t *testing.T, base string, w *openjurytest.Wallet) string {
	t.Helper()
	code, ch := callJSON(t, "POST", base+"/api/v1/agents/auth/challenge", "", map[string]any{"address": w.Address().String()})
	require.Equal(t, http.StatusOK, code, "%v", ch)
	code, v := callJSON(t, "POST", base+"/api/v1/agents/auth/verify", "", map[string]any{
		"address":   w.Address().String(),
		"signature": w.Sign(t, ch["message_to_sign"].(string)),
	})
	require.Equal(t, http.StatusOK, code, "%v", v)
	return v["access_token"].(string)
}
