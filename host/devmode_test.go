package main

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// listeningLines finds every "listening on" line run prints.
var listeningLines = regexp.MustCompile(`(?m)^listening on http://(\S+)$`)

// TestLocalDevModeServes: in local development mode the host listens on
// loopback only, names itself http://localhost:PORT (sign-in domain
// included), says so at start with its migration progress, and its dev
// endpoints answer without a secret.
func TestLocalDevModeServes(t *testing.T) {
	t.Parallel()
	base, stdout, stderr, stop := startHostOut(t, map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "127.0.0.1:0"})
	_, port, err := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)

	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "OpenJury is running at") }, 10*time.Second, 10*time.Millisecond)
	out := stdout.String()
	require.Contains(t, out, "OpenJury: opening the database sqlite:")
	require.Regexp(t, `OpenJury: applying \d+ database migrations\n`, out)
	require.Regexp(t, `OpenJury:   1/\d+ 20261121000001_init \(`, out)
	require.Regexp(t, `OpenJury: database ready \(\d+ migrations applied\) in `, out)
	require.Contains(t, out, "OpenJury is running at http://localhost:"+port+"/\n")
	require.Contains(t, out, "Local development mode: listening on this machine only")
	require.Contains(t, out, "SERVICE_DEV_MODE=0")
	lines := listeningLines.FindAllStringSubmatch(out, -1)
	require.NotEmpty(t, lines)
	for _, l := range lines {
		host, p, err := net.SplitHostPort(l[1])
		require.NoError(t, err)
		require.True(t, netip.MustParseAddr(host).IsLoopback(), "listens on %s", l[1])
		require.Equal(t, port, p)
	}
	require.NotContains(t, out, `{"time"`, "logs stay on stderr")
	require.Contains(t, stderr.String(), `"local_dev":true`)

	// The dev endpoints need no secret.
	code, body := callJSON(t, http.MethodPost, base+"/api/v1/stake/dev_set", "", map[string]any{"address": addrA, "staked_amount": 10})
	require.Equal(t, http.StatusOK, code, "%v", body)
	require.Equal(t, true, body["is_eligible"])

	// The sign-in names the URL run printed.
	code, ch := callJSON(t, http.MethodPost, base+"/api/v1/agents/auth/challenge", "", map[string]any{"address": addrA})
	require.Equal(t, http.StatusOK, code)
	msg := ch["message_to_sign"].(string)
	require.True(t, strings.HasPrefix(msg, "localhost:"+port+" wants you to sign in"), msg)
	require.Contains(t, msg, "\nURI: http://localhost:"+port+"\n")

	// DNS rebinding: a request for another name is refused.
	require.Equal(t, http.StatusForbidden, postWithHost(t, base+"/api/v1/stake/dev_set", "rebind.example:"+port))
	require.Equal(t, http.StatusOK, postWithHost(t, base+"/api/v1/stake/dev_set", "[::1]:"+port))
	stop()
}

// TestOutsideDevModeDevEndpointsOff: with SERVICE_ADDR set the host is not
// in local development mode: no such line at start, and a dev endpoint
// says it is off and how to turn it on.
func TestOutsideDevModeDevEndpointsOff(t *testing.T) {
	t.Parallel()
	base, stdout, _, _ := startHostOut(t, nil)
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "OpenJury is running at") }, 10*time.Second, 10*time.Millisecond)
	code, body := callJSON(t, http.MethodPost, base+"/api/v1/stake/dev_set", "", map[string]any{"address": addrA, "staked_amount": 10})
	require.Equal(t, http.StatusUnauthorized, code)
	require.Equal(t, "dev endpoints disabled: set SERVICE_DEV_SECRET (or run locally with the defaults for local development mode)", body["detail"])
	require.Equal(t, http.StatusUnauthorized, postWithHost(t, base+"/api/v1/stake/dev_set", "jury.example.com"), "any Host outside local development mode")
	out := stdout.String()
	require.Contains(t, out, "OpenJury is running at http://localhost:8080/\n")
	require.NotContains(t, out, "Local development mode")
	u, err := url.Parse(base)
	require.NoError(t, err)
	require.Len(t, listeningLines.FindAllStringSubmatch(out, -1), 1, "one listener: %s", u.Host)
}

// postWithHost posts a stake to rawURL with the given Host header and
// returns the status.
func postWithHost(t *testing.T, rawURL, host string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rawURL, strings.NewReader(`{"address":"`+addrB+`","staked_amount":1}`))
	require.NoError(t, err)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}
