package events

import (
	"context"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/openjury/openjury"
)

// MaxURLChars bounds a webhook's URL.
const MaxURLChars = 2048

// resolveTimeout bounds the address lookup of a webhook's host at
// creation.
const resolveTimeout = 5 * time.Second

// Resolver looks up the addresses of a host name; *net.Resolver
// implements it (network "ip").
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// URLPolicy is where webhooks may point (docs/rules.md#events): https
// only; loopback and private addresses (and http to them) only with
// AllowPrivate; link-local and cloud metadata addresses never. The same
// rules apply at creation (to every address the host resolves to) and at
// each connection (to the address actually dialled: DNS may have
// changed since).
type URLPolicy struct {
	// AllowPrivate is SERVICE_WEBHOOK_ALLOW_PRIVATE.
	AllowPrivate bool
	// Resolver resolves hosts at creation; nil skips the lookup (the
	// connection checks again anyway).
	Resolver Resolver
}

// Reasons an address is refused.
const (
	reasonForbidden = "a link-local or cloud metadata address is never allowed"
	reasonPrivate   = "a loopback or private address needs SERVICE_WEBHOOK_ALLOW_PRIVATE=1"
	reasonHTTP      = "http is allowed only to loopback or private addresses with SERVICE_WEBHOOK_ALLOW_PRIVATE=1; use https"
)

// metadataAddrs are cloud metadata addresses outside the link-local
// ranges: AWS's IPv6 endpoint and Alibaba's.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
}

// alwaysRefused are ranges no webhook may reach: link-local (cloud
// metadata lives there), "this network", multicast and reserved space.
var alwaysRefused = []netip.Prefix{
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("ff00::/8"),
	netip.MustParsePrefix("::/128"),
}

// privateRanges are the loopback and private ranges AllowPrivate opens,
// besides netip's IsLoopback and IsPrivate: shared address space (CGNAT),
// IETF protocol assignments, benchmarking, the documentation ranges.
var privateRanges = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// embeddedV4 returns the IPv4 address an IPv6 address carries by a
// translation scheme (IPv4-mapped, NAT64 64:ff9b::/96, 6to4 2002::/16),
// so that it is judged as that IPv4 address.
func embeddedV4(a netip.Addr) (netip.Addr, bool) {
	if a.Is4In6() {
		return a.Unmap(), true
	}
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case netip.MustParsePrefix("64:ff9b::/96").Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case netip.MustParsePrefix("2002::/16").Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// CheckAddr reports why a webhook with the URL scheme scheme may not
// connect to a, or "" when it may.
func (p URLPolicy) CheckAddr(a netip.Addr, scheme string) string {
	a = a.WithZone("")
	if v4, ok := embeddedV4(a); ok {
		if why := p.CheckAddr(v4, scheme); why != "" {
			return why
		}
	}
	for _, m := range metadataAddrs {
		if a == m {
			return reasonForbidden
		}
	}
	for _, r := range alwaysRefused {
		if r.Contains(a) {
			return reasonForbidden
		}
	}
	if !a.IsValid() || a.IsUnspecified() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() {
		return reasonForbidden
	}
	private := a.IsLoopback() || a.IsPrivate()
	for _, r := range privateRanges {
		private = private || r.Contains(a)
	}
	switch {
	case private && !p.AllowPrivate:
		return reasonPrivate
	case scheme == "http" && !private:
		return reasonHTTP
	}
	return ""
}

// LoopbackName reports whether host is "localhost" or a name under it,
// which resolve to loopback addresses without asking DNS (RFC 6761).
func LoopbackName(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// CheckURL checks a webhook URL at creation: its shape (absolute http or
// https, a host, no user info, at most MaxURLChars) and every address its
// host resolves to. It returns the URL as stored. Errors: Invalid naming
// field.
func (p URLPolicy) CheckURL(ctx context.Context, field, raw string) (string, error) {
	const op = "events.CheckURL"
	bad := func(why string) error { return openjury.Errorf(openjury.Invalid, op, "%s: %s", field, why) }
	if len(raw) > MaxURLChars {
		return "", bad("must be at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return "", bad("must be an absolute https URL")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return "", bad("must be an https URL")
	}
	if u.User != nil {
		return "", bad("must not hold a user name or password")
	}
	host := u.Hostname()
	if host == "" {
		return "", bad("must name a host")
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if why := p.CheckAddr(a, scheme); why != "" {
			return "", bad(why)
		}
		return u.String(), nil
	}
	if LoopbackName(host) {
		if why := p.CheckAddr(netip.MustParseAddr("127.0.0.1"), scheme); why != "" {
			return "", bad(why)
		}
		return u.String(), nil
	}
	if p.Resolver == nil {
		return u.String(), nil
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := p.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return "", bad("its host does not resolve")
	}
	for _, a := range addrs {
		if why := p.CheckAddr(a, scheme); why != "" {
			return "", bad("its host resolves to " + a.String() + ": " + why)
		}
	}
	return u.String(), nil
}
