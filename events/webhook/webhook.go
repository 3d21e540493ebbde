// Package webhook is the HTTP sender of webhook deliveries
// (events.Sender): a client that never follows redirects, never uses a
// proxy, bounds each delivery's time and what it reads back, and checks
// every address it connects to against the URL policy at connect time,
// after resolving the host itself, so a host whose DNS answer changed
// since the webhook was registered (DNS rebinding) cannot reach a
// forbidden address.
package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/openjury/openjury/events"
)

// Defaults of a Sender.
const (
	// MaxResponseBytes is how much of an answer is read (and dropped).
	MaxResponseBytes = 64 << 10
	// dialTimeout bounds one connection attempt.
	dialTimeout = 5 * time.Second
)

// Config configures a Sender.
type Config struct {
	// Policy is where deliveries may go. Its Resolver (nil:
	// net.DefaultResolver) resolves hosts at connect time.
	Policy events.URLPolicy
	// Timeout bounds a whole delivery (0: events.DeliveryTimeout).
	Timeout time.Duration
	// MaxResponseBytes bounds what is read of an answer (0:
	// MaxResponseBytes).
	MaxResponseBytes int64
	// MaxConnsPerHost bounds the connections to one receiver (0: none).
	MaxConnsPerHost int
}

// Sender posts deliveries.
type Sender struct {
	client   *http.Client
	policy   events.URLPolicy
	resolver events.Resolver
	max      int64
}

// New returns a Sender.
func New(cfg Config) *Sender {
	if cfg.Timeout <= 0 {
		cfg.Timeout = events.DeliveryTimeout
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = MaxResponseBytes
	}
	s := &Sender{policy: cfg.Policy, resolver: cfg.Policy.Resolver, max: cfg.MaxResponseBytes}
	if s.resolver == nil {
		s.resolver = net.DefaultResolver
	}
	tr := &http.Transport{
		Proxy:                 nil, // never: a proxy would connect where the policy cannot see
		DialContext:           s.dial,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   8,
		MaxConnsPerHost:       cfg.MaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
	}
	s.client = &http.Client{
		Transport: tr,
		Timeout:   cfg.Timeout,
		// A redirect is an answer: a 3xx is not a success, and following it
		// would go where the policy did not check.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return s
}

// schemeKey carries a request's URL scheme to the dialer.
type schemeKey struct{}

// Send implements events.Sender. The error names no URL (a webhook URL
// may hold a secret in its path or query) and no header.
func (s *Sender) Send(ctx context.Context, r events.Request) (int, error) {
	u, err := url.Parse(r.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return 0, errors.New("not an http or https URL")
	}
	ctx = context.WithValue(ctx, schemeKey{}, u.Scheme)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return 0, errors.New("not a valid URL")
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, clean(err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, s.max))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// clean strips the URL from a client error.
func clean(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var refused *refusedError
	if errors.As(err, &refused) {
		return refused
	}
	if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout") {
		return errors.New("timed out")
	}
	return err
}

// refusedError is a connection the policy refused.
type refusedError struct {
	addr netip.Addr
	why  string
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("refused to connect to %s: %s", e.addr, e.why)
}

// dial resolves addr's host, refuses it when any of its addresses breaks
// the policy, and connects to the first address that answers; the
// connection's Control checks the dialled address once more.
func (s *Sender) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	scheme, _ := ctx.Value(schemeKey{}).(string)
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if events.LoopbackName(host) {
		ips = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.IPv6Loopback()}
	} else if ips, err = s.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, fmt.Errorf("resolving the host: %w", err)
	}
	if len(ips) == 0 {
		return nil, errors.New("the host has no address")
	}
	for _, ip := range ips {
		if why := s.policy.CheckAddr(ip, scheme); why != "" {
			return nil, &refusedError{addr: ip, why: why}
		}
	}
	d := &net.Dialer{Timeout: dialTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if why := s.policy.CheckAddr(ap.Addr(), scheme); why != "" {
			return &refusedError{addr: ap.Addr(), why: why}
		}
		return nil
	}}
	var lastErr error
	for _, ip := range ips {
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		lastErr = err
	}
	return nil, lastErr
}
