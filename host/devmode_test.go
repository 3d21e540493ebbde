package main

import (
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLocalDevModeDecision: local development mode is on only with
// nothing set (or SERVICE_DEV_MODE=1), and only ever on loopback.
func TestLocalDevModeDecision(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		vars     map[string]string
		localDev bool
		addr     string
		base     string
		problem  string
	}{
		{name: "nothing set", localDev: true, addr: LocalDevAddr, base: ""},
		{name: "auto spelled out", vars: map[string]string{"SERVICE_DEV_MODE": "AUTO"}, localDev: true, addr: LocalDevAddr},
		{name: "blank values are unset", vars: map[string]string{"SERVICE_ADDR": " ", "SERVICE_BASE_URL": " "}, localDev: true, addr: LocalDevAddr},
		{name: "addr set", vars: map[string]string{"SERVICE_ADDR": "127.0.0.1:9000"}, addr: "127.0.0.1:9000", base: "http://localhost:8080"},
		{name: "addr set to all interfaces", vars: map[string]string{"SERVICE_ADDR": ":8080"}, addr: ":8080", base: "http://localhost:8080"},
		{name: "base url set", vars: map[string]string{"SERVICE_BASE_URL": "https://jury.example.com"}, addr: ":8080", base: "https://jury.example.com"},
		{name: "dev secret set", vars: map[string]string{"SERVICE_DEV_SECRET": "s"}, addr: ":8080", base: "http://localhost:8080"},
		{name: "off", vars: map[string]string{"SERVICE_DEV_MODE": "0"}, addr: ":8080", base: "http://localhost:8080"},
		{name: "off as false", vars: map[string]string{"SERVICE_DEV_MODE": "false"}, addr: ":8080", base: "http://localhost:8080"},
		{name: "forced on a free loopback port", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "127.0.0.1:0"}, localDev: true, addr: "127.0.0.1:0"},
		{name: "forced on IPv6 loopback", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "[::1]:9000"}, localDev: true, addr: "[::1]:9000"},
		{name: "forced on localhost", vars: map[string]string{"SERVICE_DEV_MODE": "true", "SERVICE_ADDR": "localhost:9000"}, localDev: true, addr: "localhost:9000"},
		{name: "forced with a base url", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_BASE_URL": "http://localhost:9999"}, localDev: true, addr: LocalDevAddr, base: "http://localhost:9999"},
		{name: "forced with a dev secret", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_DEV_SECRET": "s"}, localDev: true, addr: LocalDevAddr},
		{name: "forced on all interfaces", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": ":8080"}, localDev: true, addr: ":8080",
			problem: `SERVICE_DEV_MODE: local development mode listens on loopback only: SERVICE_ADDR must be 127.0.0.1:PORT, [::1]:PORT or localhost:PORT, got ":8080"`},
		{name: "forced on a public address", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "192.0.2.1:8080"}, localDev: true, addr: "192.0.2.1:8080",
			problem: `got "192.0.2.1:8080"`},
		{name: "forced on 0.0.0.0", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "0.0.0.0:8080"}, localDev: true, addr: "0.0.0.0:8080", problem: "loopback only"},
		{name: "forced on [::]", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "[::]:8080"}, localDev: true, addr: "[::]:8080", problem: "loopback only"},
		{name: "forced on a name", vars: map[string]string{"SERVICE_DEV_MODE": "1", "SERVICE_ADDR": "localhost.example.com:8080"}, localDev: true, addr: "localhost.example.com:8080", problem: "loopback only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := loadConfig(env(tc.vars))
			if tc.problem != "" {
				require.ErrorContains(t, err, tc.problem)
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, tc.localDev, c.LocalDev)
			require.Equal(t, tc.addr, c.Addr)
			if tc.problem == "" {
				require.Equal(t, tc.base, c.BaseURL)
			}
		})
	}

	_, err := loadConfig(env(map[string]string{"SERVICE_DEV_MODE": "yes"}))
	require.ErrorContains(t, err, `SERVICE_DEV_MODE: must be auto, 0 or 1, got "yes"`)
	c := Defaults()
	c.BaseURL = ""
	require.ErrorContains(t, c.Validate(), "SERVICE_BASE_URL: must be an absolute http(s) URL", "an empty base URL only in local development mode")
	c.LocalDev, c.DevMode = true, DevModeOff
	require.ErrorContains(t, c.Validate(), "SERVICE_DEV_MODE: is 0 but local development mode is on")
}

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
		require.True(t, loopbackHost(host), "listens on %s", l[1])
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
