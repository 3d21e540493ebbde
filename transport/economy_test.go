package transport_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

var economyKeys = []string{"settlement_network", "settlement_chain_id", "settlement_asset", "usdc_address", "agr_token_address",
	"agent_payout_usdc_pct", "platform_fee_usdc_pct", "jury_pool_usdc_pct", "agr_mint_per_win",
	"escrow_contract_address", "treasury_address"}

func TestEconomyPolicy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get("/api/v1/economy/policy")
	require.JSONEq(t, `{"settlement_network":"base","settlement_chain_id":8453,"settlement_asset":"USDC",
		"usdc_address":"","agr_token_address":"","agent_payout_usdc_pct":0.85,"platform_fee_usdc_pct":0.05,
		"jury_pool_usdc_pct":0.1,"agr_mint_per_win":50,"escrow_contract_address":null,"treasury_address":null}`, string(r.Body))
	requireKeys(t, r.JSON(t), economyKeys...)

	usdc := "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
	e = newEnv(t,
		withStakeConfig(stake.Config{MinStake: 1, Network: "base", ChainID: 8453, USDCAddress: openjury.MustAddress(usdc)}),
		withOptions(func(o *transport.Options) { o.AGRTokenAddress = openjury.MustAddress(addr20(0xa9)) }))
	m := e.get("/api/v1/economy/policy").JSON(t)
	require.Equal(t, strings.ToLower(usdc), m["usdc_address"])
	require.Equal(t, addr20(0xa9), m["agr_token_address"])
}

func TestConstitution(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.get("/api/v1/governance/constitution").JSON(t)
	requireKeys(t, m, "version", "escrow_principle", "usdc_split", "agr_policy_summary", "voting", "treasury")
	require.Equal(t, "1.7", m["version"])
	require.Contains(t, m["escrow_principle"], "follows no escrow contract", "no escrow: the bounty is a promise")
	require.Equal(t, map[string]any{"agent_payout": 0.85, "platform_fee": 0.05, "jury_pool": 0.1}, m["usdc_split"])
	summary := m["agr_policy_summary"].(string)
	for _, word := range []string{"offchain", "zero-fee", "minted", "boost", "no governance power"} {
		require.Contains(t, summary, word)
	}
	require.Nil(t, m["treasury"])
	voting := m["voting"].(map[string]any)
	require.EqualValues(t, 86400, voting["default_final_vote_window_seconds"])
	require.EqualValues(t, 60, voting["min_final_vote_window_seconds"])
	require.EqualValues(t, 2592000, voting["max_final_vote_window_seconds"])
	require.EqualValues(t, minStake, voting["min_stake_usdc"])
	require.EqualValues(t, minRep, voting["min_rep_score_to_vote"])
	require.Equal(t, "min(5, 1 + floor(sqrt(score)))", voting["jury_weight_rule"])
	require.EqualValues(t, 5, voting["max_jury_weight"])
	require.Equal(t, []any{"most_final_votes", "most_jury_weighted_votes", "earliest_submission", "smallest_submission_id"}, voting["finalize_tie_break"])
	require.Equal(t, true, voting["one_vote_per_voter_per_job"])
	require.EqualValues(t, 5, voting["max_submissions_per_agent_per_job"])
	require.Equal(t, "stake", voting["final_vote_eligibility"])
	require.Equal(t, true, voting["final_vote_requires_stake"])

	// With the open rule the constitution says so.
	open := newEnv(t, withMarketConfig(func(c *marketplace.Config) { c.FinalVoteOpen = true }))
	voting = open.get("/api/v1/governance/constitution").JSON(t)["voting"].(map[string]any)
	require.Equal(t, "open", voting["final_vote_eligibility"])
	require.Equal(t, false, voting["final_vote_requires_stake"])
}

func TestBootstrap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sponsor := e.agent(0, 0)
	var ids []string // newest first
	for i := range 22 {
		body := validJob()
		body["title"] = fmt.Sprintf("job %d", i)
		if i%2 == 0 {
			body["tags"] = []string{"Even"}
		}
		ids = append([]string{e.createJob(sponsor.token, body)["id"].(string)}, ids...)
		e.clock.Advance(time.Second)
	}
	// Close the newest job: it leaves the default (open) view.
	worker := e.agent(minStake, 0)
	sub := e.submit(worker.token, ids[0], "w")
	r := e.do("POST", "/api/v1/jobs/"+ids[0]+"/close", map[string]any{"winner_submission_id": sub["id"]}, bearer(sponsor.token))
	require.Equal(t, http.StatusOK, r.Code, "body: %s", r.Body)

	m := e.get("/api/v1/agent/bootstrap").JSON(t)
	requireKeys(t, m, "server_time", "specs", "constitution", "economy_policy", "stake_requirements", "jobs", "next_cursor")
	require.Equal(t, openjury.FormatTime(e.clock.Now()), m["server_time"])
	require.Equal(t, map[string]any{
		"llms_txt":       "https://jury.example.com/llms.txt",
		"openapi_yaml":   "https://jury.example.com/openapi.yaml",
		"openapi_json":   "https://jury.example.com/openapi.json",
		"agent_manifest": "https://jury.example.com/.well-known/agent.json",
		"docs":           "https://jury.example.com/docs-md/agent-playbook.md",
	}, m["specs"])
	require.Equal(t, e.get("/api/v1/governance/constitution").JSON(t), m["constitution"])
	require.Equal(t, e.get("/api/v1/economy/policy").JSON(t), m["economy_policy"])
	require.Equal(t, e.get("/api/v1/stake/requirements").JSON(t), m["stake_requirements"])
	jobs := m["jobs"].([]any)
	require.Len(t, jobs, transport.DefaultBootstrapLimit)
	require.Equal(t, e.get("/api/v1/jobs/"+ids[1]).JSON(t), jobs[0], "open jobs, newest first, as Job resources")
	require.NotNil(t, m["next_cursor"])

	jobIDs := func(query string) []string {
		t.Helper()
		var got []string
		for _, j := range e.get("/api/v1/agent/bootstrap" + query).JSON(t)["jobs"].([]any) {
			got = append(got, j.(map[string]any)["id"].(string))
		}
		return got
	}
	require.Equal(t, ids[1:], jobIDs("?limit=200"))
	require.Equal(t, ids, jobIDs("?status=all&limit=200"))
	require.Equal(t, ids[:2], jobIDs("?status=all&limit=2"))
	require.Len(t, jobIDs("?tag=EVEN&limit=200"), 11) // jobs 0, 2, ... 20; the closed newest is 21
	require.Len(t, jobIDs("?tag=odd&status=all"), 0)

	next := e.get("/api/v1/agent/bootstrap?limit=20").JSON(t)["next_cursor"].(string)
	require.Equal(t, ids[21:], jobIDs("?limit=20&cursor="+url.QueryEscape(next)))

	for _, tc := range []struct{ query, detail string }{
		{"?status=closed", "status: must be open or all"},
		{"?status=OPEN", "status: must be open or all"},
		{"?limit=0", "limit: must be between 1 and 200"},
		{"?limit=201", "limit: must be between 1 and 200"},
		{"?limit=ten", "limit: must be an integer"},
		{"?cursor=bad", "cursor: not a cursor from this list"},
	} {
		requireError(t, e.do("GET", "/api/v1/agent/bootstrap"+tc.query, nil), http.StatusBadRequest, tc.detail)
	}
}

// TestBootstrapLinksWithoutBaseURL: links stay absolute, from the request.
func TestBootstrapLinksWithoutBaseURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.BaseURL = "" }))
	specs := e.get("/api/v1/agent/bootstrap").JSON(t)["specs"].(map[string]any)
	require.Equal(t, "http://example.com/llms.txt", specs["llms_txt"])

	e = newEnv(t, withOptions(func(o *transport.Options) { o.BaseURL = "https://jury.example.com/base/" }))
	specs = e.get("/api/v1/agent/bootstrap").JSON(t)["specs"].(map[string]any)
	require.Equal(t, "https://jury.example.com/base/openapi.json", specs["openapi_json"])
}

// TestReputationRoutes: the leaderboard and dev_set are not taken for an
// address, and the {address} route answers only GET.
func TestReputationRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.get("/api/v1/reputation/leaderboard")
	require.Contains(t, r.JSON(t), "entries")
	requireError(t, e.do("GET", "/api/v1/reputation/dev_set", nil), http.StatusBadRequest, "address: must be 0x followed by 40 hex digits")
	r = e.do("POST", "/api/v1/reputation/"+addr20(1), `{}`)
	require.Equal(t, http.StatusMethodNotAllowed, r.Code)
	require.Equal(t, "GET, HEAD", r.Header.Get("Allow"))
	r = e.do("POST", "/api/v1/reputation/leaderboard", `{}`)
	require.Equal(t, http.StatusMethodNotAllowed, r.Code)
}
