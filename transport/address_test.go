package transport_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAddressForms sends each address form to an endpoint of each kind
// (query, path, body): only 0x + lowercase hex or a valid EIP-55 checksum
// is accepted; a 0X prefix, all upper case (checksum fails) and a flipped
// checksum letter are 400 naming the field.
func TestAddressForms(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	forms := []struct {
		name, addr string
		ok         bool
	}{
		{"lowercase", w.lower(), true},
		{"eip55", w.addr, true},
		{"0X prefix", "0X" + w.lower()[2:], false},
		{"0X prefix eip55", "0X" + w.addr[2:], false},
		{"upper case", "0x" + strings.ToUpper(w.lower()[2:]), false},
		{"bad checksum", mixedBadChecksum(w), false},
		{"padded", " " + w.lower() + "x", false},
	}
	endpoints := []struct {
		kind string
		do   func(addr string) response
	}{
		{"query stake", func(a string) response { return e.do("GET", "/api/v1/stake/status?address="+urlQuery(a), nil) }},
		{"query agr", func(a string) response { return e.do("GET", "/api/v1/agr/status?address="+urlQuery(a), nil) }},
		{"query slashing", func(a string) response { return e.do("GET", "/api/v1/slashing/events?address="+urlQuery(a), nil) }},
		{"path reputation", func(a string) response { return e.do("GET", "/api/v1/reputation/"+urlQuery(a), nil) }},
		{"body challenge", func(a string) response {
			return e.do("POST", "/api/v1/agents/auth/challenge", map[string]any{"address": a})
		}},
		{"body dev stake", func(a string) response {
			return e.do("POST", "/api/v1/stake/dev_set", map[string]any{"address": a, "staked_amount": 1}, devHeader())
		}},
	}
	for _, ep := range endpoints {
		for _, f := range forms {
			r := ep.do(f.addr)
			if f.ok {
				require.Equal(t, http.StatusOK, r.Code, "%s %s: %s", ep.kind, f.name, r.Body)
				continue
			}
			require.Equal(t, http.StatusBadRequest, r.Code, "%s %s: %s", ep.kind, f.name, r.Body)
			require.True(t, strings.HasPrefix(r.Detail(t), "address: "), "%s %s: %s", ep.kind, f.name, r.Body)
		}
	}
}

// urlQuery escapes an address for a URL (a leading space is kept).
func urlQuery(s string) string { return strings.ReplaceAll(s, " ", "%20") }
