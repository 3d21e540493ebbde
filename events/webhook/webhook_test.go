package webhook_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/events/webhook"
)

// resolver is a scriptable DNS: each name answers its current addresses.
type resolver struct {
	mu    sync.Mutex
	names map[string][]netip.Addr
	asked atomic.Int64
}

func newResolver() *resolver { return &resolver{names: map[string][]netip.Addr{}} }

func (r *resolver) set(name string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = nil
	for _, a := range addrs {
		r.names[name] = append(r.names[name], netip.MustParseAddr(a))
	}
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.asked.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.names[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

// receiver is a local endpoint that counts what it gets.
func receiver(t *testing.T, h http.HandlerFunc) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return srv, u.Port()
}

func send(t *testing.T, s *webhook.Sender, u string) (int, error) {
	t.Helper()
	return s.Send(context.Background(), events.Request{URL: u, Header: map[string]string{"webhook-id": "evt_1"}, Body: []byte(`{"a":1}`)})
}

// TestSenderPolicyAtConnect: the address a delivery connects to is
// checked when it connects, after the sender resolves the host itself.
func TestSenderPolicyAtConnect(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	_, port := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if string(body) == `{"a":1}` && r.Header.Get("webhook-id") == "evt_1" {
			got.Add(1)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	dns := newResolver()
	dns.set("hook.test", "127.0.0.1")
	dns.set("meta.test", "169.254.169.254")
	dns.set("mixed.test", "127.0.0.1", "169.254.169.254")
	dns.set("mapped.test", "::ffff:127.0.0.1")
	dns.set("nat64.test", "64:ff9b::a9fe:a9fe") // 169.254.169.254 through NAT64

	open := webhook.New(webhook.Config{Policy: events.URLPolicy{AllowPrivate: true, Resolver: dns}})
	closed := webhook.New(webhook.Config{Policy: events.URLPolicy{Resolver: dns}})

	status, err := send(t, open, "http://hook.test:"+port+"/in")
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, status)
	require.Equal(t, int64(1), got.Load())

	for _, tc := range []struct {
		s    *webhook.Sender
		url  string
		want string
	}{
		{closed, "http://hook.test:" + port, "loopback or private"},        // private without the setting
		{closed, "https://hook.test:" + port, "loopback or private"},       // https too
		{closed, "http://127.0.0.1:" + port, "loopback or private"},        // a literal address
		{closed, "http://mapped.test:" + port, "loopback or private"},      // IPv4-mapped IPv6
		{open, "http://meta.test:" + port, "link-local or cloud metadata"}, // never
		{open, "http://mixed.test:" + port, "link-local or cloud metadata"},
		{open, "http://nat64.test:" + port, "link-local or cloud metadata"},
		{open, "http://[fd00:ec2::254]:" + port, "link-local or cloud metadata"},
		{open, "http://unknown.test:" + port, "resolving the host"},
	} {
		status, err := send(t, tc.s, tc.url)
		require.Error(t, err, tc.url)
		require.Zero(t, status)
		require.Contains(t, err.Error(), tc.want, tc.url)
		require.NotContains(t, err.Error(), "test:", "the error names no URL")
	}
	require.Equal(t, int64(1), got.Load(), "no refused delivery reached the receiver")
}

// TestSenderDNSRebinding: a host that resolved to a public address when
// the webhook was registered and to loopback when a delivery connects is
// refused at connect time.
func TestSenderDNSRebinding(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	_, port := receiver(t, func(w http.ResponseWriter, r *http.Request) { got.Add(1) })
	dns := newResolver()
	dns.set("rebind.test", "93.184.216.34")
	policy := events.URLPolicy{Resolver: dns}
	stored, err := policy.CheckURL(context.Background(), "url", "https://rebind.test:"+port+"/hook")
	require.NoError(t, err, "a public address passes at creation")
	dns.set("rebind.test", "127.0.0.1")
	_, err = send(t, webhook.New(webhook.Config{Policy: policy}), stored)
	require.ErrorContains(t, err, "refused to connect to 127.0.0.1")
	require.Zero(t, got.Load())
}

// TestSenderAnswers: any non-2xx is a status, a redirect is not followed,
// a slow receiver times out, and a huge answer is not read to its end.
func TestSenderAnswers(t *testing.T) {
	t.Parallel()
	dns := newResolver()
	dns.set("hook.test", "127.0.0.1")
	var followed atomic.Int64
	bigWrite := make(chan error, 1)
	_, port := receiver(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/fail":
			w.WriteHeader(http.StatusBadGateway)
		case "/redirect":
			http.Redirect(w, r, "/target", http.StatusFound)
		case "/target":
			followed.Add(1)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second):
			}
		case "/big":
			w.WriteHeader(http.StatusOK)
			chunk := []byte(strings.Repeat("x", 1<<20))
			var err error
			for range 256 { // 256 MiB: far more than any socket buffers
				if _, err = w.Write(chunk); err != nil {
					break
				}
			}
			bigWrite <- err
		}
	})
	s := webhook.New(webhook.Config{Policy: events.URLPolicy{AllowPrivate: true, Resolver: dns}, Timeout: 300 * time.Millisecond})
	base := "http://hook.test:" + port
	status, err := send(t, s, base+"/fail")
	require.NoError(t, err)
	require.Equal(t, http.StatusBadGateway, status)
	status, err = send(t, s, base+"/redirect")
	require.NoError(t, err)
	require.Equal(t, http.StatusFound, status)
	require.Zero(t, followed.Load())
	_, err = send(t, s, base+"/slow")
	require.ErrorContains(t, err, "timed out")
	status, err = send(t, s, base+"/big")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status)
	require.Error(t, <-bigWrite, "the sender hung up after reading its cap, so the receiver's writes fail")
}

// TestCheckURL: the create-time rules.
func TestCheckURL(t *testing.T) {
	t.Parallel()
	dns := newResolver()
	dns.set("public.test", "93.184.216.34")
	dns.set("private.test", "10.1.2.3")
	dns.set("loop.test", "127.0.0.1")
	dns.set("meta.test", "169.254.169.254")
	closed := events.URLPolicy{Resolver: dns}
	open := events.URLPolicy{AllowPrivate: true, Resolver: dns}
	ok := []struct {
		p events.URLPolicy
		u string
	}{
		{closed, "https://public.test/hook"}, {closed, "https://93.184.216.34/x"}, {open, "http://private.test:8080/x"},
		{open, "http://loop.test/x"}, {open, "https://loop.test/x"}, {open, "http://localhost:9/x"},
	}
	for _, tc := range ok {
		_, err := tc.p.CheckURL(context.Background(), "url", tc.u)
		require.NoError(t, err, tc.u)
	}
	bad := []struct {
		p    events.URLPolicy
		u    string
		want string
	}{
		{closed, "http://public.test/hook", "use https"},
		{open, "http://public.test/hook", "use https"},
		{closed, "https://private.test/x", "loopback or private"},
		{closed, "https://loop.test/x", "loopback or private"},
		{closed, "https://localhost/x", "loopback or private"},
		{closed, "https://[::1]/x", "loopback or private"},
		{open, "https://meta.test/x", "link-local or cloud metadata"},
		{open, "http://169.254.169.254/latest/meta-data", "link-local or cloud metadata"},
		{open, "http://[fe80::1]/x", "link-local or cloud metadata"},
		{open, "http://[fd00:ec2::254]/x", "link-local or cloud metadata"},
		{open, "http://0.0.0.0/x", "link-local or cloud metadata"},
		{closed, "https://unknown.test/x", "does not resolve"},
		{closed, "ftp://public.test/x", "https URL"},
		{closed, "/relative", "absolute"},
		{closed, "https://user:pw@public.test/x", "user name or password"},
		{closed, "https://public.test/" + strings.Repeat("a", 2048), "at most 2048"},
	}
	for _, tc := range bad {
		_, err := tc.p.CheckURL(context.Background(), "url", tc.u)
		require.ErrorContains(t, err, tc.want, tc.u)
		require.Contains(t, err.Error(), "url: ")
	}
}
