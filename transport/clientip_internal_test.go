package transport

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClientIP(t *testing.T) {
	t.Parallel()
	trusted, invalid := ParseTrustedProxies(" 10.0.0.0/8, 192.0.2.7 ,fd00::/8,, ::ffff:172.16.0.0/108")
	require.Empty(t, invalid)
	require.Len(t, trusted, 4)
	for _, tc := range []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"no proxy", "203.0.113.5:1234", nil, "203.0.113.5"},
		{"untrusted peer: header ignored", "203.0.113.5:1234", []string{"198.51.100.1"}, "203.0.113.5"},
		{"trusted peer, one hop", "10.1.2.3:1234", []string{"198.51.100.1"}, "198.51.100.1"},
		{"right-most untrusted wins over a forged left part", "10.1.2.3:1234", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1"},
		{"trusted hops are skipped", "10.1.2.3:1234", []string{"1.2.3.4, 198.51.100.1, 192.0.2.7, 10.9.9.9"}, "198.51.100.1"},
		{"several header lines read right to left", "10.1.2.3:1234", []string{"1.2.3.4", "198.51.100.1, 10.0.0.1"}, "198.51.100.1"},
		{"all trusted: the left-most", "10.1.2.3:1234", []string{"10.0.0.9, 192.0.2.7"}, "10.0.0.9"},
		{"no header: the peer", "10.1.2.3:1234", nil, "10.1.2.3"},
		{"malformed entry: the nearest trusted hop", "10.1.2.3:1234", []string{"1.2.3.4, not-an-ip"}, "10.1.2.3"},
		{"malformed after a trusted hop", "10.1.2.3:1234", []string{"1.2.3.4, <script>, 10.0.0.5"}, "10.0.0.5"},
		{"entry with a port", "10.1.2.3:1234", []string{"198.51.100.1:5555"}, "198.51.100.1"},
		{"bracketed IPv6 with a port", "10.1.2.3:1234", []string{"[2001:db8::1]:443"}, "2001:db8::1"},
		{"IPv6 proxy", "[fd00::1]:1234", []string{"2001:db8::7"}, "2001:db8::7"},
		{"IPv4-mapped peer in a mapped CIDR", "[::ffff:172.16.0.1]:1234", []string{"198.51.100.1"}, "198.51.100.1"},
		{"empty entries skipped", "10.1.2.3:1234", []string{"198.51.100.1, , "}, "198.51.100.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add(HeaderForwardedFor, v)
			}
			require.Equal(t, tc.want, clientIP(r, trusted))
			require.Equal(t, clientIP(r, nil), clientIP(r, nil))
		})
	}
}

func TestClientIPLongChainIsBounded(t *testing.T) {
	t.Parallel()
	trusted, _ := ParseTrustedProxies("10.0.0.0/8")
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:1"
	v := "198.51.100.1"
	for range maxForwardedHops + 5 {
		v += ", 10.0.0.2"
	}
	r.Header.Set(HeaderForwardedFor, v)
	require.Equal(t, "10.0.0.2", clientIP(r, trusted), "the walk stops at the bound, on a trusted hop")
}

func TestParseTrustedProxiesReportsInvalid(t *testing.T) {
	t.Parallel()
	p, invalid := ParseTrustedProxies("10.0.0.0/8, 10.0.0.0/33, example.com, fe80::1%eth0, 1.2.3")
	require.Len(t, p, 1)
	require.Equal(t, []string{"10.0.0.0/33", "example.com", "fe80::1%eth0", "1.2.3"}, invalid)
}
