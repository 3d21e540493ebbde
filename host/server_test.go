package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRunCutsOffSlowHeaders: a client that sends its headers a byte at a
// time, slower than SERVICE_READ_HEADER_TIMEOUT_SECONDS allows, is cut off
// before it has sent them all, and gets no answer; a normal client on the
// same server is served (and there is no Server banner). Oversized
// headers (SERVICE_MAX_HEADER_BYTES) get 431.
func TestRunCutsOffSlowHeaders(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, map[string]string{
		"SERVICE_READ_HEADER_TIMEOUT_SECONDS": "1",
		"SERVICE_READ_TIMEOUT_SECONDS":        "2",
		"SERVICE_MAX_HEADER_BYTES":            "4096",
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()

	// The reader reports what the server sent once it closes the
	// connection.
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(conn)
		got <- string(b)
	}()
	// 40 bytes at one per 100 ms take 4 s: four times the header timeout.
	request := "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("a", 40) + "\r\n\r\n"
	sent, closed := 0, ""
	cutOff := false
	for sent < len(request) && !cutOff {
		if _, err := conn.Write([]byte{request[sent]}); err != nil {
			break // the server closed the connection: a reset
		}
		sent++
		select {
		case closed = <-got:
			cutOff = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	if !cutOff {
		select {
		case closed = <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("the server kept a slow client's connection open")
		}
	}
	require.Less(t, sent, len(request), "cut off before the headers were complete")
	require.NotContains(t, closed, "200 OK", "a slow client gets no answer")

	// A normal client is served, on a fresh and on a kept-alive connection.
	client := &http.Client{Transport: &http.Transport{}}
	for range 2 {
		resp, err := client.Get(base + "/healthz")
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Empty(t, resp.Header.Get("Server"), "no version banner")
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	}

	req, err := http.NewRequest(http.MethodGet, base+"/healthz", nil)
	require.NoError(t, err)
	req.Header.Set("X-Big", strings.Repeat("b", 8192))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
}

// TestRunCORS: the host passes SERVICE_CORS_ORIGINS and the companion
// app's origin to the handler.
func TestRunCORS(t *testing.T) {
	t.Parallel()
	base, _, _ := startHost(t, map[string]string{
		"SERVICE_CORS_ORIGINS": "https://tools.example.com",
		"SERVICE_APP_URL":      "https://app.example.com",
	})
	for origin, want := range map[string]string{
		"https://tools.example.com": "https://tools.example.com",
		"https://app.example.com":   "https://app.example.com",
		"https://evil.example.com":  "",
	} {
		req, err := http.NewRequest(http.MethodOptions, base+"/api/v1/jobs", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,idempotency-key") // as browsers send it
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, want, resp.Header.Get("Access-Control-Allow-Origin"), origin)
	}
}
