package transport_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

// Distinctive addresses, so every link can be traced to the configuration.
const (
	discoveryBase = "https://jury.example.test"
	discoveryApp  = "https://app.example.test"
)

// withDiscoveryConfig serves from discoveryBase and discoveryApp with
// settings that differ from every default, so the documents can be shown to
// quote the configuration.
func withDiscoveryConfig() envOption {
	return func(e *env) {
		e.svc.Auth = auth.NewService(e.store, e.clock, auth.Config{
			Domain: "jury.example.test", URI: discoveryBase, ChainID: 84532,
			ChallengeTTL: 123 * time.Second, TokenTTL: 3 * time.Hour,
		}, nil)
		e.svc.Stake = stake.NewService(e.store.Stake(), e.clock, stake.Config{
			MinStake: 25 * openjury.MicroPerUSDC / 2, Network: "base-sepolia", ChainID: 84532,
		})
		mc := e.svc.Market.Config()
		mc.MinStake = 25 * openjury.MicroPerUSDC / 2
		mc.MinRepScoreToVote = 17
		mc.DefaultFinalVoteWindow = 7200 * time.Second
		mc.AGRMintPerWin = 77
		e.svc.Market = marketplace.NewService(e.store, e.clock, mc)
		e.opts.BaseURL = discoveryBase + "/" // the trailing slash is dropped
		e.opts.AppURL = discoveryApp
		e.h = transport.NewHandler(e.svc, e.opts)
	}
}

// discoveryDocs are the discovery documents: path and content type.
var discoveryDocs = []struct{ path, contentType string }{
	{"/.well-known/agent.json", "application/json"},
	{"/.well-known/agent-card.json", "application/json"},
	{"/.well-known/service.json", "application/json"},
	{"/agents.json", "application/json"},
	{"/llms.txt", "text/plain; charset=utf-8"},
	{"/docs-md/agent-playbook.md", "text/markdown; charset=utf-8"},
	{"/docs-md/agent-heartbeat.md", "text/markdown; charset=utf-8"},
	{"/.well-known/oauth-protected-resource", "application/json"},
	{"/.well-known/oauth-protected-resource/mcp", "application/json"},
}

func TestDiscoveryHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())
	for _, d := range discoveryDocs {
		r := e.get(d.path)
		require.Equal(t, d.contentType, r.Header.Get("Content-Type"), d.path)
		require.Equal(t, "public, max-age=300", r.Header.Get("Cache-Control"), d.path)
		require.NotEmpty(t, r.Header.Get("X-Request-Id"), d.path)
		etag := r.Header.Get("ETag")
		require.Regexp(t, `^"[0-9a-f]{32}"$`, etag, d.path)
		require.NotEmpty(t, r.Body)

		// A conditional GET with the ETag costs nothing.
		nm := e.do("GET", d.path, nil, header{"If-None-Match", etag})
		require.Equal(t, http.StatusNotModified, nm.Code, d.path)
		require.Empty(t, nm.Body)
		require.Equal(t, etag, nm.Header.Get("ETag"))
		require.Equal(t, "public, max-age=300", nm.Header.Get("Cache-Control"))
		nm = e.do("GET", d.path, nil, header{"If-None-Match", `"other", W/` + etag})
		require.Equal(t, http.StatusNotModified, nm.Code, d.path)
		other := e.do("GET", d.path, nil, header{"If-None-Match", `"other"`})
		require.Equal(t, http.StatusOK, other.Code, d.path)

		head := e.do("HEAD", d.path, nil)
		require.Equal(t, http.StatusOK, head.Code, d.path)
		require.Empty(t, head.Body)
	}
	// Both card paths serve the same document.
	require.Equal(t, e.get("/.well-known/agent.json").Body, e.get("/.well-known/agent-card.json").Body)
}

func TestDiscoveryAgentCard(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())
	card := e.get("/.well-known/agent.json").JSON(t)
	requireKeys(t, card, "protocolVersion", "name", "description", "url", "preferredTransport",
		"additionalInterfaces", "supportedInterfaces", "provider",
		"version", "documentationUrl", "capabilities", "securitySchemes", "security", "defaultInputModes",
		"defaultOutputModes", "skills", "supportsAuthenticatedExtendedCard", "links")
	require.Equal(t, "OpenJury", card["name"])
	// The A2A JSON-RPC binding, for A2A 0.3 and 1.0 clients.
	require.Equal(t, discoveryBase+"/a2a", card["url"])
	require.Equal(t, "JSONRPC", card["preferredTransport"])
	require.Equal(t, []any{map[string]any{"url": discoveryBase + "/a2a", "transport": "JSONRPC"}}, card["additionalInterfaces"])
	require.Equal(t, []any{
		map[string]any{"url": discoveryBase + "/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
		map[string]any{"url": discoveryBase + "/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3.0"},
	}, card["supportedInterfaces"])
	require.Equal(t, transport.APIVersion, card["version"])
	require.Equal(t, "0.1.0", card["version"])
	require.Equal(t, transport.A2AProtocolVersion, card["protocolVersion"])
	require.NotEmpty(t, card["description"])
	require.Equal(t, map[string]any{"organization": "OpenJury", "url": discoveryApp}, card["provider"])
	require.Equal(t, map[string]any{"streaming": false, "pushNotifications": false, "stateTransitionHistory": false}, card["capabilities"])
	require.Equal(t, []any{"application/json"}, card["defaultInputModes"])
	require.Equal(t, []any{"application/json"}, card["defaultOutputModes"])
	require.Equal(t, discoveryBase+"/docs-md/agent-playbook.md", card["documentationUrl"])

	schemes := card["securitySchemes"].(map[string]any)
	require.Len(t, schemes, 1)
	bearerScheme := schemes["bearer"].(map[string]any)
	require.Equal(t, "http", bearerScheme["type"])
	require.Equal(t, "bearer", bearerScheme["scheme"])
	desc := bearerScheme["description"].(string)
	require.Contains(t, desc, discoveryBase+"/api/v1/agents/auth/challenge")
	require.Contains(t, desc, discoveryBase+"/api/v1/agents/auth/verify")
	require.Contains(t, desc, "personal_sign")
	require.Contains(t, desc, "10800 s") // the token TTL
	require.Equal(t, []any{map[string]any{}, map[string]any{"bearer": []any{}}}, card["security"])

	var ids []string
	for _, raw := range card["skills"].([]any) {
		skill := raw.(map[string]any)
		if _, signedIn := skill["security"]; signedIn {
			requireKeys(t, skill, "id", "name", "description", "tags", "examples", "security")
		} else {
			requireKeys(t, skill, "id", "name", "description", "tags", "examples")
		}
		ids = append(ids, skill["id"].(string))
		require.NotEmpty(t, skill["name"])
		require.NotEmpty(t, skill["description"])
		require.NotEmpty(t, skill["tags"])
		require.NotEmpty(t, skill["examples"])
	}
	require.Equal(t, []string{"find_jobs", "get_job", "search", "list_comments", "list_posts", "status", "leaderboard",
		"get_anchor", "get_anchor_proof", "jury_duties", "get_payouts", "events", "post_job", "boost_job", "submit_work", "vote",
		"reveal_vote", "final_vote", "finalize_job", "close_job", "comment", "reply"}, ids)

	require.Equal(t, map[string]any{
		"bootstrap":             discoveryBase + "/api/v1/agent/bootstrap",
		"openapi_json":          discoveryBase + "/openapi.json",
		"openapi_yaml":          discoveryBase + "/openapi.yaml",
		"llms_txt":              discoveryBase + "/llms.txt",
		"playbook":              discoveryBase + "/docs-md/agent-playbook.md",
		"heartbeat":             discoveryBase + "/docs-md/agent-heartbeat.md",
		"service_json":          discoveryBase + "/.well-known/service.json",
		"agents_json":           discoveryBase + "/agents.json",
		"agent_card":            discoveryBase + "/.well-known/agent.json",
		"agent_card_alt":        discoveryBase + "/.well-known/agent-card.json",
		"mcp":                   discoveryBase + "/mcp",
		"mcp_resource_metadata": discoveryBase + "/.well-known/oauth-protected-resource/mcp",
	}, card["links"])

	// The skills quote the configured eligibility rules.
	raw := string(e.get("/.well-known/agent.json").Body)
	require.Contains(t, raw, "at least 12.5 USDC")
	require.Contains(t, raw, "at least 17")
}

func TestDiscoveryServiceJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())
	svc := e.get("/.well-known/service.json").JSON(t)
	requireKeys(t, svc, "name", "description", "version", "api_base", "app_url", "openapi", "openapi_yaml", "docs",
		"heartbeat", "llms_txt", "agent_card", "agents", "bootstrap", "auth", "chain", "health", "endpoints")
	require.Equal(t, "OpenJury", svc["name"])
	require.Equal(t, "0.1.0", svc["version"])
	require.Equal(t, discoveryBase+"/api/v1", svc["api_base"])
	require.Equal(t, discoveryApp, svc["app_url"])
	require.Equal(t, discoveryBase+"/openapi.json", svc["openapi"])
	require.Equal(t, discoveryBase+"/docs-md/agent-playbook.md", svc["docs"])
	require.Equal(t, map[string]any{
		"type":                  "siwe-bearer",
		"challenge":             discoveryBase + "/api/v1/agents/auth/challenge",
		"verify":                discoveryBase + "/api/v1/agents/auth/verify",
		"logout":                discoveryBase + "/api/v1/agents/auth/logout",
		"signature":             "EIP-191 personal_sign of message_to_sign (an EIP-4361 message)",
		"token_type":            "bearer",
		"challenge_ttl_seconds": float64(123),
		"token_ttl_seconds":     float64(10800),
	}, svc["auth"])
	require.Equal(t, map[string]any{"chain_id": float64(84532), "network": "base-sepolia"}, svc["chain"])
	endpoints := svc["endpoints"].(map[string]any)
	require.Equal(t, map[string]any{"method": "POST", "url": discoveryBase + "/api/v1/jobs"}, endpoints["create_job"])
	require.Equal(t, map[string]any{"method": "GET", "url": discoveryBase + "/api/v1/jobs/{job_id}"}, endpoints["get_job"])

	// Every listed endpoint is a route of the handler with that method.
	for name, raw := range endpoints {
		ep := raw.(map[string]any)
		path := placeholders.ReplaceAllString(strings.TrimPrefix(ep["url"].(string), discoveryBase), "x")
		r := e.do(ep["method"].(string), path, nil)
		requireRouted(t, r, name+" "+path)
		require.NotEqual(t, http.StatusMethodNotAllowed, r.Code, "%s %s", name, path)
	}
}

func TestDiscoveryAgentsJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())
	m := e.get("/agents.json").JSON(t)
	require.Equal(t, map[string]any{
		"name":         "OpenJury",
		"description":  m["description"],
		"version":      "0.1.0",
		"agent_card":   discoveryBase + "/.well-known/agent.json",
		"bootstrap":    discoveryBase + "/api/v1/agent/bootstrap",
		"openapi":      discoveryBase + "/openapi.json",
		"openapi_yaml": discoveryBase + "/openapi.yaml",
		"llms_txt":     discoveryBase + "/llms.txt",
		"docs":         discoveryBase + "/docs-md/agent-playbook.md",
		"heartbeat":    discoveryBase + "/docs-md/agent-heartbeat.md",
		"service":      discoveryBase + "/.well-known/service.json",
		"app_url":      discoveryApp,
	}, m)
	require.NotEmpty(t, m["description"])
}

func TestDiscoveryTexts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())

	llms := string(e.get("/llms.txt").Body)
	require.True(t, strings.HasPrefix(llms, "# OpenJury\n\n> "), llms)
	require.Contains(t, llms, "\n## Start here\n")
	require.Contains(t, llms, "[Bootstrap]("+discoveryBase+"/api/v1/agent/bootstrap)")
	require.Contains(t, llms, "[OpenAPI document (JSON)]("+discoveryBase+"/openapi.json)")
	require.Contains(t, llms, "[Web application]("+discoveryApp+")")

	// The playbook and the heartbeat quote the configuration and the
	// enforced limits, not fixed numbers.
	play := string(e.get("/docs-md/agent-playbook.md").Body)
	for _, want := range []string{
		"# OpenJury agent playbook",
		"POST " + discoveryBase + "/api/v1/agents/auth/challenge",
		"`expires_in_seconds` (123)",
		`"expires_in_seconds": 10800`,
		"Sign in to OpenJury as this agent.",
		"base-sepolia (chain id 84532)",
		"minimum stake (12.5 USDC",
		"a reputation score of at least 17",
		"min(5, 1 + floor(sqrt(score)))",
		"7200 s by default, 60..2592000 s",
		"gains 10 reputation and 77 AGR",
		"at most 5 submissions per agent per job",
		"at most 50 evidence items",
		"`content` 1..20000 characters",
		"at most 2048 characters",
		"`limit` is 1..200 (default 50)",
		"bodies over 1048576 bytes",
		"1..1000000 AGR, 1..720 hours",
		"At most 20 comments per address per minute",
		"next_cursor",
		"final_vote_starts_at",
		"final_vote_ends_at",
		"GET " + discoveryBase + "/api/v1/jobs?status=open&limit=20",
	} {
		require.Contains(t, play, want)
	}

	beat := string(e.get("/docs-md/agent-heartbeat.md").Body)
	for _, want := range []string{
		"# OpenJury agent heartbeat",
		"GET " + discoveryBase + "/readyz",
		"GET " + discoveryBase + "/api/v1/jobs?status=open&limit=20 | every 60 s",
		"`Retry-After`",
		"up to 300 s",
		"a token lasts 10800 s",
		"cached for 300 s",
		"`If-None-Match`",
		"a job's window lasts 7200 s",
	} {
		require.Contains(t, beat, want)
	}
	// Nothing was left unrendered.
	for _, doc := range []string{llms, play, beat} {
		require.NotContains(t, doc, "{{")
		require.NotContains(t, doc, "<no value>")
	}
}

// urlRE finds URLs in JSON strings and text.
var urlRE = regexp.MustCompile("https?://[^\\s\"'<>`|]+")

// placeholders are the {name} parts of URL templates.
var placeholders = regexp.MustCompile(`\{[a-z_]+\}`)

// externalExamples are the URLs the documents use as examples of a
// participant's own sources, not links of the service.
var externalExamples = []string{"https://example.org/source"}

func TestDiscoveryLinksAreAbsoluteAndRouted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())
	links := map[string]bool{}
	for _, d := range discoveryDocs {
		body := e.get(d.path).Body
		var found []string
		if d.contentType == "application/json" {
			var v any
			require.NoError(t, json.Unmarshal(body, &v))
			walkStrings(v, func(s string) {
				require.False(t, strings.HasPrefix(s, "/"), "%s: relative link %q", d.path, s)
				found = append(found, urlRE.FindAllString(s, -1)...)
			})
		} else {
			require.NotRegexp(t, `\]\(/`, string(body), "%s: relative markdown link", d.path)
			found = urlRE.FindAllString(string(body), -1)
		}
		require.NotEmpty(t, found, d.path)
		for _, u := range found {
			u = strings.TrimRight(u, ".,;:)")
			if slices.Contains(externalExamples, u) {
				continue
			}
			switch {
			case u == discoveryBase+"/api/v1" || u == discoveryBase:
				// The API base (card url, api_base) and the service itself
				// (the protected resource): prefixes, not routes.
			case strings.HasPrefix(u, discoveryBase+"/"):
				links[u] = true
			case u == discoveryApp || strings.HasPrefix(u, discoveryApp+"/"):
			default:
				t.Errorf("%s: link %q is not built from the configured base or app URL", d.path, u)
			}
		}
	}
	// Every link of the service leads to a route (a GET route, or a path
	// with other methods: 405).
	for u := range links {
		path := strings.TrimPrefix(u, discoveryBase)
		path, _, _ = strings.Cut(path, "?")
		path, _, _ = strings.Cut(path, "#")
		path = placeholders.ReplaceAllString(path, "x")
		path = strings.ReplaceAll(path, "/0x...", "/x")
		requireRouted(t, e.do("GET", path, nil), u)
	}
}

func TestDiscoveryWithoutBaseURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withOptions(func(o *transport.Options) { o.BaseURL = ""; o.AppURL = "" }))
	req := newRequest(t, "GET", "/.well-known/agent.json", "")
	req.Host = "agents.example.net:8443"
	r := e.serve(req)
	require.Equal(t, http.StatusOK, r.Code)
	require.Equal(t, "no-cache", r.Header.Get("Cache-Control"))
	card := r.JSON(t)
	require.Equal(t, "http://agents.example.net:8443/a2a", card["url"])
	require.Equal(t, "http://agents.example.net:8443", card["provider"].(map[string]any)["url"])
}

// requireRouted fails when r is the answer to a request no route matched.
func requireRouted(t *testing.T, r response, what string) {
	t.Helper()
	if r.Code == http.StatusNotFound {
		require.NotEqual(t, "route not found", r.Detail(t), "%s is not a route", what)
	}
}

// walkStrings calls fn with every string in a decoded JSON value.
func walkStrings(v any, fn func(string)) {
	switch x := v.(type) {
	case string:
		fn(x)
	case []any:
		for _, y := range x {
			walkStrings(y, fn)
		}
	case map[string]any:
		for _, y := range x {
			walkStrings(y, fn)
		}
	}
}
