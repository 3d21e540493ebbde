package transport_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

func TestStakeRequirements(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get("/api/v1/stake/requirements")
	require.Contains(t, string(r.Body), `"min_stake":10,`)
	m := r.JSON(t)
	requireKeys(t, m, "network", "chain_id", "settlement_asset", "usdc_address", "min_stake",
		"slashing_policy", "onchain_stake_enabled", "rpc_url", "stake_contract_address")
	require.Equal(t, "base", m["network"])
	require.EqualValues(t, testChainID, m["chain_id"])
	require.Equal(t, "USDC", m["settlement_asset"])
	require.Equal(t, stake.DefaultSlashingPolicy, m["slashing_policy"])
	require.Equal(t, false, m["onchain_stake_enabled"])
	requireNulls(t, m, "usdc_address", "rpc_url", "stake_contract_address")

	// Configured: addresses lowercase, exact amount; rpc_url stays null.
	usdc := "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
	e = newEnv(t, withStakeConfig(stake.Config{
		MinStake: 12_500_000, Network: "base-sepolia", ChainID: 84532,
		USDCAddress: openjury.MustAddress(usdc), OnchainEnabled: true,
		StakeContract: openjury.MustAddress(addr20(0xab)), SlashingPolicy: "custom policy",
	}))
	r = e.get("/api/v1/stake/requirements")
	require.Contains(t, string(r.Body), `"min_stake":12.5,`)
	m = r.JSON(t)
	require.Equal(t, "base-sepolia", m["network"])
	require.EqualValues(t, 84532, m["chain_id"])
	require.Equal(t, strings.ToLower(usdc), m["usdc_address"])
	require.Equal(t, addr20(0xab), m["stake_contract_address"])
	require.Equal(t, true, m["onchain_stake_enabled"])
	require.Equal(t, "custom policy", m["slashing_policy"])
	requireNulls(t, m, "rpc_url")
}

func TestStakeStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := newWallet(t)
	statusKeys := []string{"address", "is_eligible", "staked_amount", "stake_tx_hash", "stake_chain_id",
		"stake_contract_address", "stake_block_number", "stake_log_index"}

	// Before any stake: zero, not eligible, anchors null. The EIP-55 form is
	// accepted and answered lowercase.
	r := e.get("/api/v1/stake/status?address=" + w.addr)
	require.Contains(t, string(r.Body), `"staked_amount":0,`)
	m := r.JSON(t)
	requireKeys(t, m, statusKeys...)
	require.Equal(t, w.lower(), m["address"])
	require.Equal(t, false, m["is_eligible"])
	requireNulls(t, m, statusKeys[3:]...)

	// dev_set with a full receipt.
	r = e.do("POST", "/api/v1/stake/dev_set", map[string]any{
		"address": w.addr, "staked_amount": 10.000001,
		"stake_tx_hash": strings.ToUpper(hash32(0xcd)[2:]), "stake_chain_id": 8453,
		"stake_contract_address": addr20(0x11), "stake_block_number": 123, "stake_log_index": 0,
	}, devHeader())
	require.Equal(t, http.StatusBadRequest, r.Code, "hash without 0x: %s", r.Body)
	require.Equal(t, "stake_tx_hash: must be 0x followed by 64 hex digits", r.Detail(t))

	r = e.do("POST", "/api/v1/stake/dev_set", map[string]any{
		"address": w.addr, "staked_amount": 10.000001,
		"stake_tx_hash": "0x" + strings.ToUpper(hash32(0xcd)[2:]), "stake_chain_id": 8453,
		"stake_contract_address": addr20(0x11), "stake_block_number": 123, "stake_log_index": 0,
	}, devHeader())
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"staked_amount":10.000001,`)
	set := r.JSON(t)
	requireKeys(t, set, statusKeys...)
	require.Equal(t, map[string]any{
		"address": w.lower(), "is_eligible": true, "staked_amount": 10.000001,
		"stake_tx_hash": hash32(0xcd), "stake_chain_id": float64(8453),
		"stake_contract_address": addr20(0x11), "stake_block_number": float64(123), "stake_log_index": float64(0),
	}, set)
	require.Equal(t, set, e.get("/api/v1/stake/status?address="+w.lower()).JSON(t))

	// Below the minimum, receipt dropped: not eligible, anchors null again.
	r = e.do("POST", "/api/v1/stake/dev_set", map[string]any{"address": w.lower(), "staked_amount": 9.999999}, devHeader())
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	m = r.JSON(t)
	require.Equal(t, false, m["is_eligible"])
	requireNulls(t, m, statusKeys[3:]...)

	for _, tc := range []struct{ query, detail string }{
		{"", "address: is required"},
		{"?address=", "address: is required"},
		{"?address=%20", "address: is required"},
		{"?address=0x123", "address: must be 0x followed by 40 hex digits"},
		{"?address=" + url.QueryEscape(mixedBadChecksum(w)), "address: mixed-case address fails the EIP-55 checksum"},
	} {
		requireError(t, e.do("GET", "/api/v1/stake/status"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
}

// mixedBadChecksum flips the case of one letter of w's EIP-55 address.
func mixedBadChecksum(w wallet) string {
	b := []byte(w.addr)
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] >= 'a' && b[i] <= 'f':
			b[i] -= 'a' - 'A'
			return string(b)
		case b[i] >= 'A' && b[i] <= 'F':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	return "0x" + strings.Repeat("aB", 20)
}

func TestStakeDevSetValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := addr20(0x42)
	with := func(k string, v any) map[string]any {
		return withField(map[string]any{"address": a, "staked_amount": 10}, k, v)
	}
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"address missing", map[string]any{"staked_amount": 1}, "address: is required"},
		{"amount missing", map[string]any{"address": a}, "staked_amount: is required"},
		{"amount null", with("staked_amount", nil), "staked_amount: is required"},
		{"amount string", with("staked_amount", "10"), "staked_amount: must be a number"},
		{"amount negative", with("staked_amount", -1), "staked_amount: must be at least 0"},
		{"amount 7 decimals", `{"address":"` + a + `","staked_amount":0.0000001}`, "staked_amount: at most 6 decimals allowed"},
		{"address bad", with("address", "0xzz"), "address: must be 0x followed by 40 hex digits"},
		{"address not a string", with("address", 5), "address: must be a string"},
		{"hash bad", with("stake_tx_hash", "0x12"), "stake_tx_hash: must be 0x followed by 64 hex digits"},
		{"hash empty", with("stake_tx_hash", ""), "stake_tx_hash: must be 0x followed by 64 hex digits"},
		{"contract bad", with("stake_contract_address", "nope"), "stake_contract_address: must be 0x followed by 40 hex digits"},
		{"chain id zero", with("stake_chain_id", 0), "stake_chain_id: must be positive"},
		{"chain id string", with("stake_chain_id", "8453"), "stake_chain_id: must be an integer"},
		{"block negative", with("stake_block_number", -1), "stake_block_number: must be at least 0"},
		{"log index negative", with("stake_log_index", -1), "stake_log_index: must be at least 0"},
		{"log index fraction", with("stake_log_index", 1.5), "stake_log_index: must be an integer"},
		{"empty body", "", "request body is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireError(t, e.do("POST", "/api/v1/stake/dev_set", tc.body, devHeader()), http.StatusBadRequest, tc.detail)
		})
	}
}

// TestDevEndpointsSecret covers the X-Dev-Secret guard of every dev
// endpoint: disabled without a configured secret (saying how to turn them
// on), 401 for a missing or wrong one, checked before the body, never
// logged; open to every caller with DevOpen (local development mode).
func TestDevEndpointsSecret(t *testing.T) {
	t.Parallel()
	bodies := map[string]map[string]any{
		"/api/v1/stake/dev_set":       {"address": addr20(1), "staked_amount": 10},
		"/api/v1/slashing/dev_record": {"agent_address": addr20(1), "amount_usdc": 1},
		"/api/v1/reputation/dev_set":  {"address": addr20(1), "score": 10},
		"/api/v1/agr/dev_mint":        {"address": addr20(1), "amount": 10},
	}
	off := newEnv(t, withOptions(func(o *transport.Options) { o.DevSecret = "" }))
	on := newEnv(t)
	open := newEnv(t, withOptions(func(o *transport.Options) { o.DevSecret, o.DevOpen = "", true }))
	for path, body := range bodies {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			// Disabled: whatever the header says.
			for _, h := range [][]header{nil, {{transport.HeaderDevSecret, ""}}, {devHeader()}} {
				requireError(t, off.do("POST", path, body, h...), http.StatusUnauthorized,
					"dev endpoints disabled: set SERVICE_DEV_SECRET (or run locally with the defaults for local development mode)")
			}
			// Enabled: missing, empty, wrong, a prefix, a longer value, a
			// bearer token instead: all 401 before the body is read.
			token := on.signIn(newWallet(t))
			for _, h := range [][]header{
				nil,
				{{transport.HeaderDevSecret, ""}},
				{{transport.HeaderDevSecret, "wrong"}},
				{{transport.HeaderDevSecret, devSecret[:len(devSecret)-1]}},
				{{transport.HeaderDevSecret, devSecret + "x"}},
				{{transport.HeaderDevSecret, strings.ToUpper(devSecret)}},
				{bearer(token)},
			} {
				requireError(t, on.do("POST", path, body, h...), http.StatusUnauthorized, "invalid dev secret")
				requireError(t, on.do("POST", path, `{"malformed`, h...), http.StatusUnauthorized, "invalid dev secret")
			}
			r := on.do("POST", path, body, devHeader())
			require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
			// Local development mode: no header needed, any header ignored.
			for _, h := range [][]header{nil, {{transport.HeaderDevSecret, "anything"}}} {
				r := open.do("POST", path, body, h...)
				require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
			}
			// Only POST is routed.
			r = on.do("GET", path, nil, devHeader())
			if path != "/api/v1/reputation/dev_set" { // GET there is the {address} route
				require.Equal(t, http.StatusMethodNotAllowed, r.Code)
			}
		})
	}
	t.Cleanup(func() {
		require.NotContains(t, on.logs.String(), devSecret)
		require.NotContains(t, off.logs.String(), devSecret)
	})
}

func TestSlashingDevRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	agentAddr := addr20(0x21)
	e.setStake(agentAddr, 15)
	jobID := openjury.NewID()
	eventKeys := []string{"id", "agent_address", "amount_usdc", "created_at", "recipient_address", "job_id",
		"tx_hash", "contract_address", "chain_id", "block_number", "log_index"}

	// Minimal: every optional field null.
	r := e.do("POST", "/api/v1/slashing/dev_record", map[string]any{"agent_address": agentAddr, "amount_usdc": 7.5}, devHeader())
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	require.Contains(t, string(r.Body), `"amount_usdc":7.5,`)
	ev := r.JSON(t)
	requireKeys(t, ev, eventKeys...)
	require.True(t, openjury.ValidID(ev["id"].(string)))
	require.Equal(t, agentAddr, ev["agent_address"])
	require.Equal(t, openjury.FormatTime(e.clock.Now()), ev["created_at"])
	requireNulls(t, ev, eventKeys[4:]...)

	// The stake went down by the amount.
	st := e.get("/api/v1/stake/status?address=" + agentAddr).JSON(t)
	require.Equal(t, 7.5, st["staked_amount"])
	require.Equal(t, false, st["is_eligible"])

	// Full: every field set; the stake does not go below zero.
	e.clock.Advance(time.Second)
	full := map[string]any{
		"agent_address": agentAddr, "amount_usdc": 100, "recipient_address": openjury.Address("0x" + strings.Repeat("ab", 20)).Checksum(),
		"job_id": jobID, "tx_hash": hash32(0x01), "contract_address": addr20(0x33),
		"chain_id": 8453, "block_number": 99, "log_index": 3,
	}
	r = e.do("POST", "/api/v1/slashing/dev_record", full, devHeader())
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
	ev = r.JSON(t)
	delete(ev, "id")
	require.Equal(t, map[string]any{
		"agent_address": agentAddr, "amount_usdc": float64(100), "created_at": openjury.FormatTime(e.clock.Now()),
		"recipient_address": addr20(0xab), "job_id": jobID, "tx_hash": hash32(0x01), "contract_address": addr20(0x33),
		"chain_id": float64(8453), "block_number": float64(99), "log_index": float64(3),
	}, ev)
	st = e.get("/api/v1/stake/status?address=" + agentAddr).JSON(t)
	require.EqualValues(t, 0, st["staked_amount"])

	// The same onchain receipt twice is a conflict.
	r = e.do("POST", "/api/v1/slashing/dev_record", full, devHeader())
	require.Equal(t, http.StatusConflict, r.Code, "body: %s", r.Body)

	with := func(k string, v any) map[string]any {
		return withField(map[string]any{"agent_address": agentAddr, "amount_usdc": 1}, k, v)
	}
	for _, tc := range []struct {
		body   any
		detail string
	}{
		{map[string]any{"amount_usdc": 1}, "agent_address: is required"},
		{map[string]any{"agent_address": agentAddr}, "amount_usdc: is required"},
		{with("agent_address", "0x1"), "agent_address: must be 0x followed by 40 hex digits"},
		{with("amount_usdc", 0), "amount_usdc: must be greater than 0"},
		{with("amount_usdc", -1), "amount_usdc: must be greater than 0"},
		{with("amount_usdc", "1"), "amount_usdc: must be a number"},
		{with("recipient_address", "x"), "recipient_address: must be 0x followed by 40 hex digits"},
		{with("job_id", "job-1"), "job_id: must be an id"},
		{with("job_id", ""), "job_id: must be an id"},
		{with("job_id", 5), "job_id: must be a string"},
		{with("tx_hash", "0x"), "tx_hash: must be 0x followed by 64 hex digits"},
		{with("contract_address", "0x"), "contract_address: must be 0x followed by 40 hex digits"},
		{with("chain_id", -5), "chain_id: must be positive"},
		{with("block_number", -1), "block_number: must be at least 0"},
		{with("log_index", -1), "log_index: must be at least 0"},
	} {
		requireError(t, e.do("POST", "/api/v1/slashing/dev_record", tc.body, devHeader()), http.StatusBadRequest, tc.detail)
	}
}

func TestSlashingEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get("/api/v1/slashing/events")
	require.JSONEq(t, `{"events":[],"next_cursor":null}`, string(r.Body))

	a, b := addr20(0x0a), addr20(0x0b)
	job1, job2 := openjury.NewID(), openjury.NewID()
	record := func(agent, job string) string {
		t.Helper()
		body := map[string]any{"agent_address": agent, "amount_usdc": 1}
		if job != "" {
			body["job_id"] = job
		}
		r := e.do("POST", "/api/v1/slashing/dev_record", body, devHeader())
		require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)
		e.clock.Advance(time.Second)
		return r.JSON(t)["id"].(string)
	}
	// Newest first.
	ids := []string{record(a, job1), record(b, job1), record(a, job2), record(a, "")}
	newest := []string{ids[3], ids[2], ids[1], ids[0]}

	list := func(query string) ([]string, any) {
		t.Helper()
		m := e.get("/api/v1/slashing/events" + query).JSON(t)
		var got []string
		for _, ev := range m["events"].([]any) {
			got = append(got, ev.(map[string]any)["id"].(string))
		}
		return got, m["next_cursor"]
	}
	got, next := list("")
	require.Equal(t, newest, got)
	require.Nil(t, next)
	got, _ = list("?address=" + a)
	require.Equal(t, []string{ids[3], ids[2], ids[0]}, got)
	got, _ = list("?address=" + openjury.Address(b).Checksum()) // EIP-55 mixed case is accepted
	require.Equal(t, []string{ids[1]}, got)
	got, _ = list("?job_id=" + job1)
	require.Equal(t, []string{ids[1], ids[0]}, got)
	got, _ = list("?job_id=" + job1 + "&address=" + a)
	require.Equal(t, []string{ids[0]}, got)
	got, _ = list("?job_id=" + openjury.NewID())
	require.Nil(t, got)

	// Pages.
	var all []string
	query := "?limit=3"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 4)
		got, next := list(query)
		all = append(all, got...)
		if next == nil {
			break
		}
		query = "?limit=3&cursor=" + url.QueryEscape(next.(string))
	}
	require.Equal(t, newest, all)

	for _, tc := range []struct{ query, detail string }{
		{"?limit=0", "limit: must be between 1 and 200"},
		{"?limit=201", "limit: must be between 1 and 200"},
		{"?limit=x", "limit: must be an integer"},
		{"?cursor=%21%21", "cursor: not a cursor from this list"},
		{"?address=0x12", "address: must be 0x followed by 40 hex digits"},
	} {
		requireError(t, e.do("GET", "/api/v1/slashing/events"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
}

// TestNewHandlerWiring: Stake and AGR are required; a marketplace minimum
// stake that differs from the published one is logged.
func TestNewHandlerWiring(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, drop := range []func(*transport.Services){
		func(s *transport.Services) { s.Stake = nil },
		func(s *transport.Services) { s.AGR = nil },
	} {
		svc := e.svc
		drop(&svc)
		require.PanicsWithValue(t, "transport.NewHandler: Services.Auth, Market, Stake and AGR are required", func() {
			transport.NewHandler(svc, e.opts)
		})
	}
	require.NotContains(t, e.logs.String(), "differs from the published one")
	svc := e.svc
	svc.Stake = stake.NewService(e.store.Stake(), e.clock, stake.Config{MinStake: 1})
	transport.NewHandler(svc, e.opts)
	require.Contains(t, e.logs.String(), "differs from the published one")
}

// TestStakeDevEndpointsRefuseWhileOnchain: with onchain stake on, the
// stake-vault sync owns stakes and slashes, so the dev endpoints that would
// fight it answer 409 and change nothing.
func TestStakeDevEndpointsRefuseWhileOnchain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withStakeConfig(stake.Config{
		MinStake: 10_000_000, Network: "base", ChainID: testChainID, OnchainEnabled: true,
		StakeContract: openjury.MustAddress(addr20(0xab)),
	}))
	w := newWallet(t)
	requireError(t, e.do("POST", "/api/v1/stake/dev_set",
		map[string]any{"address": w.lower(), "staked_amount": 50}, devHeader()),
		http.StatusConflict, stake.ErrSyncedFromChain)
	requireError(t, e.do("POST", "/api/v1/slashing/dev_record",
		map[string]any{"agent_address": w.lower(), "amount_usdc": 1}, devHeader()),
		http.StatusConflict, stake.ErrSyncedFromChain)
	m := e.get("/api/v1/stake/status?address=" + w.lower()).JSON(t)
	require.EqualValues(t, 0, m["staked_amount"])
}
