package openjurytest_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/transport"
)

// Odd values a careless or hostile client may send.
var (
	oddSegments = []string{"x", "%FF%FE", strings.Repeat("a", 3000), "0x" + strings.Repeat("g", 40),
		"00000000-0000-7000-8000-000000000000", "..%2F..%2Fetc", "%E2%80%AE", "-1"}
	oddQueries = []string{"", "%FF", "-1", "0", "99999999999999999999999", strings.Repeat("z", 3000), "%E2%80%AE", "1e3", "open",
		// Crafted cursors: well-formed base64 JSON carrying a NUL id.
		base64.RawURLEncoding.EncodeToString([]byte(`{"t":1,"i":"x\u0000"}`)),
		base64.RawURLEncoding.EncodeToString([]byte(`{"r":0,"c":1,"i":"x\u0000","t":1}`)),
		base64.RawURLEncoding.EncodeToString([]byte(`{"s":1,"a":"x\u0000"}`))}
	oddBodies = []string{"", "{}", "[]", "null", `{"a":`, `"text"`, "12", `{"title":123,"content":[],"job_id":{}}`,
		`{"job_id":"00000000-0000-7000-8000-000000000000","submission_id":"x","content":"c","title":"t","prompt":"p","bounty_usdc":1e400}`,
		`{"address":"0x0000000000000000000000000000000000000001","amount":9223372036854775807,"score":-5,"staked_amount":-1,"amount_usdc":1e-9}`,
		`{"amount_agr":0,"duration_hours":99999,"winner_submission_id":"","evidence":[{"confidence":2,"source_url":"ftp://x"}]}`}
)

// sendHostile sends one request as a signed-in caller holding the dev
// secret and requires an answer below 500 that matches the OpenAPI document
// (redirects aside).
func sendHostile(t testing.TB, srv *openjurytest.Server, token, method, path string, body io.Reader) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, body)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(transport.HeaderDevSecret, openjurytest.DevSecret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.HTTP.Client().Do(req)
	require.NoError(t, err)
	var raw []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// A stream never ends: its first frame is enough.
		raw, err = readFrame(resp.Body)
	} else {
		raw, err = io.ReadAll(resp.Body)
	}
	_ = resp.Body.Close()
	require.NoError(t, err)
	require.Less(t, resp.StatusCode, 500, "%s %s: %d %s", method, path, resp.StatusCode, raw)
	if resp.StatusCode != http.StatusTemporaryRedirect && resp.StatusCode != http.StatusMovedPermanently {
		openjurytest.ValidateResponse(t, req, resp.StatusCode, resp.Header, bytes.Clone(raw))
	}
}

// readFrame reads a Server-Sent Events stream up to the end of its first
// frame (a blank line).
func readFrame(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 512)
	for !bytes.Contains(out, []byte("\n\n")) {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// TestHostileInputNever5xx sends odd path segments, query values and bodies
// to every documented operation, signed in and with the dev secret: no
// answer may be a 5xx, and every answer must match the OpenAPI document.
func TestHostileInputNever5xx(t *testing.T) {
	t.Parallel()
	doc, err := openapi3.NewLoader().LoadFromData(transport.OpenAPIDocument(""))
	require.NoError(t, err)
	onEachBackend(t, func(t *testing.T, srv *openjurytest.Server) {
		token := srv.SignIn(t, openjurytest.NewWallet(t))
		sent := 0
		send := func(method, path, body string) {
			t.Helper()
			sent++
			var rd io.Reader
			if body != "" {
				rd = strings.NewReader(body)
			}
			sendHostile(t, srv, token, method, path, rd)
		}
		paths := make([]string, 0, len(doc.Paths.Map()))
		for p := range doc.Paths.Map() {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			for method, op := range doc.Paths.Value(p).Operations() {
				for _, seg := range oddSegments {
					path := pathParam.ReplaceAllString(p, seg)
					var q []string
					for _, prm := range op.Parameters {
						if prm.Value.In == "query" {
							q = append(q, url.QueryEscape(prm.Value.Name)+"="+oddQueries[len(q)%len(oddQueries)])
						}
					}
					if len(q) > 0 {
						path += "?" + strings.Join(q, "&")
					}
					if method == http.MethodGet || method == http.MethodDelete || method == http.MethodHead {
						send(method, path, "")
						continue
					}
					for _, b := range oddBodies {
						send(method, path, b)
					}
				}
				// Every query value on its own, against the plain path.
				for _, prm := range op.Parameters {
					if prm.Value.In != "query" {
						continue
					}
					for _, v := range oddQueries {
						send(method, pathParam.ReplaceAllString(p, "x")+"?"+prm.Value.Name+"="+v, "{}")
					}
				}
			}
		}
		require.Greater(t, sent, 2000, "the sweep must actually send requests")
	})
}
