package transport_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAddressForms sends each address form to every endpoint that takes
// an address (query, path, body): only 0x + lowercase hex or a valid EIP-55
// checksum is accepted; a 0X prefix, all upper case (checksum fails), a
// flipped checksum letter and white space before or after the address
// (nothing is trimmed) are 400 naming the field.
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
		{"leading space", " " + w.lower(), false},
		{"trailing space", w.lower() + " ", false},
		{"leading tab", "\t" + w.addr, false},
		{"trailing newline", w.addr + "\n", false},
	}
	q := url.QueryEscape
	endpoints := []struct {
		kind, field string
		do          func(addr string) response
	}{
		{"query stake", "address", func(a string) response { return e.do("GET", "/api/v1/stake/status?address="+q(a), nil) }},
		{"query agr", "address", func(a string) response { return e.do("GET", "/api/v1/agr/status?address="+q(a), nil) }},
		{"query agr ledger", "address", func(a string) response { return e.do("GET", "/api/v1/agr/ledger?address="+q(a), nil) }},
		{"query slashing", "address", func(a string) response { return e.do("GET", "/api/v1/slashing/events?address="+q(a), nil) }},
		{"path reputation", "address", func(a string) response { return e.do("GET", "/api/v1/reputation/"+url.PathEscape(a), nil) }},
		{"body challenge", "address", func(a string) response {
			return e.do("POST", "/api/v1/agents/auth/challenge", map[string]any{"address": a})
		}},
		{"body verify", "address", func(a string) response {
			r := e.do("POST", "/api/v1/agents/auth/verify", map[string]any{"address": a, "signature": "0x" + strings.Repeat("11", 65)})
			if r.Code == http.StatusUnauthorized {
				r.Code = http.StatusOK // the address was accepted; the signature was not
			}
			return r
		}},
		{"body dev stake", "address", func(a string) response {
			return e.do("POST", "/api/v1/stake/dev_set", map[string]any{"address": a, "staked_amount": 1}, devHeader())
		}},
		{"body dev reputation", "address", func(a string) response {
			return e.do("POST", "/api/v1/reputation/dev_set", map[string]any{"address": a, "score": 1}, devHeader())
		}},
		{"body dev mint", "address", func(a string) response {
			return e.do("POST", "/api/v1/agr/dev_mint", map[string]any{"address": a, "amount": 1}, devHeader())
		}},
		{"body dev slash agent", "agent_address", func(a string) response {
			return e.do("POST", "/api/v1/slashing/dev_record", map[string]any{"agent_address": a, "amount_usdc": 0.5}, devHeader())
		}},
		{"body dev slash recipient", "recipient_address", func(a string) response {
			return e.do("POST", "/api/v1/slashing/dev_record", map[string]any{"agent_address": w.lower(), "recipient_address": a, "amount_usdc": 0.5}, devHeader())
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
			require.True(t, strings.HasPrefix(r.Detail(t), ep.field+": "), "%s %s: %s", ep.kind, f.name, r.Body)
		}
	}
}
