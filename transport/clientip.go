package transport

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// HeaderForwardedFor is the header a reverse proxy appends the address of
// its peer to. It is believed only from Options.TrustedProxies.
const HeaderForwardedFor = "X-Forwarded-For"

// maxForwardedHops bounds how many X-Forwarded-For entries are read from
// the right: a chain of trusted proxies longer than this is not believed
// further.
const maxForwardedHops = 32

// clientIP is the client address of r (docs/rules.md#conventions): the
// socket peer, unless the peer is in trusted; then X-Forwarded-For is read
// from the right and the first entry that is not in trusted is the client.
// When every entry is trusted, the left-most one is. An entry that is not
// an IP address (with or without a port) stops the walk: the nearest
// trusted hop read so far is the client then, so a malformed or forged
// header can never name an address the proxies did not see.
func clientIP(r *http.Request, trusted []netip.Prefix) string {
	peer, ok := parseHostIP(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	if !inPrefixes(peer, trusted) {
		return peer.String()
	}
	client := peer
	values := r.Header.Values(HeaderForwardedFor)
	hops := 0
	for i := len(values) - 1; i >= 0; i-- {
		entries := strings.Split(values[i], ",")
		for j := len(entries) - 1; j >= 0; j-- {
			entry := strings.TrimSpace(entries[j])
			if entry == "" {
				continue // "a, , b" or a trailing comma: no hop
			}
			hops++
			ip, ok := parseHostIP(entry)
			if !ok || hops > maxForwardedHops {
				return client.String()
			}
			client = ip
			if !inPrefixes(ip, trusted) {
				return ip.String()
			}
		}
	}
	return client.String()
}

// parseHostIP parses "ip", "ip:port" or "[ipv6]:port" into an IP address
// (IPv4-mapped IPv6 addresses unmapped, zones dropped).
func parseHostIP(s string) (netip.Addr, bool) {
	ip, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil {
		host, _, splitErr := net.SplitHostPort(s)
		if splitErr != nil {
			return netip.Addr{}, false
		}
		if ip, err = netip.ParseAddr(host); err != nil {
			return netip.Addr{}, false
		}
	}
	return ip.Unmap().WithZone(""), true
}

// inPrefixes reports whether ip is in one of prefixes.
func inPrefixes(ip netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies parses a comma-separated list of CIDRs or single IP
// addresses (SERVICE_TRUSTED_PROXIES), e.g. "10.0.0.0/8, 192.0.2.7". It
// returns the prefixes and the entries that do not parse.
func ParseTrustedProxies(list string) (prefixes []netip.Prefix, invalid []string) {
	for part := range strings.SplitSeq(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			prefixes = append(prefixes, netip.PrefixFrom(p.Addr().Unmap(), unmappedBits(p)).Masked())
			continue
		}
		if ip, err := netip.ParseAddr(part); err == nil && ip.Zone() == "" {
			ip = ip.Unmap()
			prefixes = append(prefixes, netip.PrefixFrom(ip, ip.BitLen()))
			continue
		}
		invalid = append(invalid, part)
	}
	return prefixes, invalid
}

// unmappedBits is the prefix length of p once its IPv4-mapped address is
// unmapped (::ffff:10.0.0.0/104 is 10.0.0.0/8).
func unmappedBits(p netip.Prefix) int {
	if p.Addr().Is4In6() {
		return max(p.Bits()-96, 0)
	}
	return p.Bits()
}
