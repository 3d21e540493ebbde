package server

import (
	"testing"

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
			c, err := Load(env(tc.vars))
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

	_, err := Load(env(map[string]string{"SERVICE_DEV_MODE": "yes"}))
	require.ErrorContains(t, err, `SERVICE_DEV_MODE: must be auto, 0 or 1, got "yes"`)
	c := Defaults()
	c.BaseURL = ""
	require.ErrorContains(t, c.Validate(), "SERVICE_BASE_URL: must be an absolute http(s) URL", "an empty base URL only in local development mode")
	c.LocalDev, c.DevMode = true, DevModeOff
	require.ErrorContains(t, c.Validate(), "SERVICE_DEV_MODE: is 0 but local development mode is on")
}
