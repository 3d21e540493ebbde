package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
)

// Values of SERVICE_DEV_MODE (Config.DevMode).
const (
	DevModeAuto = "auto"
	DevModeOff  = "0"
	DevModeOn   = "1"
)

// LocalDevAddr is the listen address of local development mode when
// SERVICE_ADDR is unset; the host also listens on [::1] at the same port
// when the machine has IPv6 loopback.
const LocalDevAddr = "127.0.0.1:8080"

// readOnce returns getenv reading each variable once: local development
// mode looks at variables other settings read too.
func readOnce(getenv func(string) string) func(string) string {
	seen := map[string]string{}
	return func(name string) string {
		v, ok := seen[name]
		if !ok {
			v = getenv(name)
			seen[name] = v
		}
		return v
	}
}

// readDevMode reads SERVICE_DEV_MODE and decides local development mode
// (docs/operations.md, "Local development mode"): on with "1", or with
// "auto" (the default) when SERVICE_ADDR, SERVICE_BASE_URL and
// SERVICE_DEV_SECRET are all unset. In it an unset SERVICE_ADDR becomes
// LocalDevAddr and an unset SERVICE_BASE_URL is left empty, for New to
// fill in with the port it listens on.
func readDevMode(c *Config, getenv func(string) string, p *problems) {
	set := func(name string) bool { return strings.TrimSpace(getenv(name)) != "" }
	switch v := strings.ToLower(strings.TrimSpace(getenv("SERVICE_DEV_MODE"))); v {
	case "", DevModeAuto:
		c.DevMode = DevModeAuto
	case DevModeOff, "false":
		c.DevMode = DevModeOff
	case DevModeOn, "true":
		c.DevMode = DevModeOn
	default:
		p.add("SERVICE_DEV_MODE: must be auto, 0 or 1, got %q", v)
		return
	}
	addrSet, baseSet := set("SERVICE_ADDR"), set("SERVICE_BASE_URL")
	c.LocalDev = c.DevMode == DevModeOn ||
		(c.DevMode == DevModeAuto && !addrSet && !baseSet && getenv("SERVICE_DEV_SECRET") == "")
	if !c.LocalDev {
		return
	}
	if !addrSet {
		c.Addr = LocalDevAddr
	}
	if !baseSet {
		c.BaseURL = ""
	}
}

// validateDevMode checks the local development mode settings: a known
// DevMode, and in local development mode a loopback listen address, so
// that the dev endpoints it opens are never reachable from another
// machine.
func (c Config) validateDevMode(p *problems) {
	switch c.DevMode {
	case DevModeAuto, DevModeOff, DevModeOn:
	default:
		p.add("SERVICE_DEV_MODE: must be auto, 0 or 1, got %q", c.DevMode)
	}
	if !c.LocalDev {
		return
	}
	if c.DevMode == DevModeOff {
		p.add("SERVICE_DEV_MODE: is 0 but local development mode is on")
	}
	if host, _, err := net.SplitHostPort(c.Addr); err == nil && !loopbackHost(host) {
		p.add("SERVICE_DEV_MODE: local development mode listens on loopback only: SERVICE_ADDR must be 127.0.0.1:PORT, [::1]:PORT or localhost:PORT, got %q", c.Addr)
	}
}

// loopbackHost reports whether host is localhost or a loopback address.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// listen opens the listeners of cfg: cfg.Addr and, in local development
// mode on 127.0.0.1 or ::1, the other loopback family at the same port
// when the machine has it. A port taken there by another program is an
// error: clients reach http://localhost:PORT through either.
func listen(cfg Config) ([]net.Listener, error) {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	lns := []net.Listener{ln}
	if !cfg.LocalDev {
		return lns, nil
	}
	bound := ln.Addr().(*net.TCPAddr)
	var twin string
	switch {
	case bound.IP.Equal(net.IPv4(127, 0, 0, 1)):
		twin = "[::1]"
	case bound.IP.Equal(net.IPv6loopback):
		twin = "127.0.0.1"
	default:
		return lns, nil
	}
	ln2, err := net.Listen("tcp", fmt.Sprintf("%s:%d", twin, bound.Port))
	switch {
	case err == nil:
		lns = append(lns, ln2)
	case errors.Is(err, syscall.EADDRINUSE):
		_ = ln.Close()
		return nil, fmt.Errorf("listen: %s:%d is taken by another program, and clients of http://localhost:%d may reach it: stop it or set SERVICE_ADDR: %w", twin, bound.Port, bound.Port, err)
	}
	return lns, nil
}

// localBaseURL is the base URL of local development mode when
// SERVICE_BASE_URL is unset: http://localhost:PORT for the port ln
// listens on (the literal address when it is another loopback address).
func localBaseURL(ln net.Listener) string {
	a := ln.Addr().(*net.TCPAddr)
	host := "localhost"
	if !a.IP.Equal(net.IPv4(127, 0, 0, 1)) && !a.IP.Equal(net.IPv6loopback) {
		host = a.IP.String()
		if a.IP.To4() == nil {
			host = "[" + host + "]"
		}
	}
	return fmt.Sprintf("http://%s:%d", host, a.Port)
}

// loopbackHostsOnly answers 403 to a request whose Host is not a
// loopback name (localhost, 127.0.0.0/8, [::1]): in local development mode
// a web page the user visits could otherwise reach the open dev endpoints
// through DNS rebinding (a name of its own resolving to 127.0.0.1).
func loopbackHostsOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !loopbackHost(strings.Trim(host, "[]")) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_ = json.NewEncoder(w).Encode(map[string]string{
				"detail": "local development mode answers only requests for localhost, 127.0.0.1 or [::1]",
			})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// printLocalDev tells the person who started the host what local
// development mode turns on and how to leave it.
func printLocalDev(w io.Writer) {
	fmt.Fprintln(w, "Local development mode: listening on this machine only (loopback); the dev endpoints")
	fmt.Fprintln(w, "  (stake/dev_set, reputation/dev_set, agr/dev_mint, slashing/dev_record) need no X-Dev-Secret,")
	fmt.Fprintln(w, "  so `openjury dev stake 10` works. To leave it set SERVICE_DEV_MODE=0, or SERVICE_ADDR,")
	fmt.Fprintln(w, "  SERVICE_BASE_URL or SERVICE_DEV_SECRET.")
}
