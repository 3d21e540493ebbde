package transport

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
)

// APIVersion is the version of the HTTP API (the spec's machine-readable
// description carries 0.1.0), published in the discovery documents.
const APIVersion = "0.1.0"

// A2AProtocolVersion is the A2A protocol version the agent card follows.
const A2AProtocolVersion = "0.3.0"

// discoveryCacheSeconds is how long caches may keep the discovery
// documents: they change only with the configuration.
const discoveryCacheSeconds = 300

var discoveryCacheControl = "public, max-age=" + strconv.Itoa(discoveryCacheSeconds)

// Polling advice of the heartbeat document.
const (
	// pollOpenJobs is how often to list open jobs.
	pollOpenJobs = time.Minute
	// pollWatched is how often to re-read the jobs an agent takes part in.
	pollWatched = 5 * time.Minute
	// pollSlow is how often to refresh slow-moving state: reputation, AGR,
	// stake, the bootstrap document.
	pollSlow = time.Hour
	// maxBackoff caps the back-off after 503s and network errors.
	maxBackoff = 5 * time.Minute
	// heartbeatListLimit is the page size the heartbeat suggests.
	heartbeatListLimit = 20
)

//go:embed discovery/*.tmpl
var discoveryFS embed.FS

// discoveryTemplates are the text documents, parsed once.
var discoveryTemplates = template.Must(template.New("").Option("missingkey=error").ParseFS(discoveryFS, "discovery/*.tmpl"))

// discoveryDocs are the rendered discovery documents.
type discoveryDocs struct {
	agentCard, service, agents, llmsTxt, playbook, heartbeat doc
}

// doc is one rendered document and its entity tag.
type doc struct {
	body []byte
	etag string
}

func newDoc(body []byte) doc {
	sum := sha256.Sum256(body)
	return doc{body: body, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// Content types of the discovery documents.
const (
	contentTypeJSON     = "application/json"
	contentTypeText     = "text/plain; charset=utf-8"
	contentTypeMarkdown = "text/markdown; charset=utf-8"
)

func (s *server) discoveryRoutes() []route {
	serve := func(contentType string, pick func(*discoveryDocs) doc) handlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			docs, cache := s.discovery, discoveryCacheControl
			if docs == nil {
				// No configured BaseURL: the links follow the request's
				// host, so shared caches must not keep them.
				docs, cache = s.renderDiscovery(s.baseURL(r)), "no-cache"
			}
			d := pick(docs)
			h := w.Header()
			h.Set("Cache-Control", cache)
			h.Set("ETag", d.etag)
			if etagMatch(r.Header.Get("If-None-Match"), d.etag) {
				w.WriteHeader(http.StatusNotModified)
				return nil
			}
			writeBody(w, r, contentType, d.body)
			return nil
		}
	}
	card := serve(contentTypeJSON, func(d *discoveryDocs) doc { return d.agentCard })
	return []route{
		{pattern: "GET /.well-known/agent.json", op: "getAgentCard", rate: rateExempt, h: card},
		{pattern: "GET /.well-known/agent-card.json", op: "getAgentCardAlias", rate: rateExempt, h: card},
		{pattern: "GET /.well-known/service.json", op: "getServiceDescription", rate: rateExempt,
			h: serve(contentTypeJSON, func(d *discoveryDocs) doc { return d.service })},
		{pattern: "GET /agents.json", op: "getAgentsManifest", rate: rateExempt,
			h: serve(contentTypeJSON, func(d *discoveryDocs) doc { return d.agents })},
		{pattern: "GET /llms.txt", op: "getLLMsTxt", rate: rateExempt,
			h: serve(contentTypeText, func(d *discoveryDocs) doc { return d.llmsTxt })},
		{pattern: "GET /docs-md/agent-playbook.md", op: "getAgentPlaybook", rate: rateExempt,
			h: serve(contentTypeMarkdown, func(d *discoveryDocs) doc { return d.playbook })},
		{pattern: "GET /docs-md/agent-heartbeat.md", op: "getAgentHeartbeat", rate: rateExempt,
			h: serve(contentTypeMarkdown, func(d *discoveryDocs) doc { return d.heartbeat })},
	}
}

// etagMatch reports whether an If-None-Match header value lists etag or
// is "*"; weak tags match too (RFC 9110 weak comparison).
func etagMatch(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}

// discoveryLinks are the absolute URLs of the specification documents.
type discoveryLinks struct {
	Bootstrap    string `json:"bootstrap"`
	OpenAPIJSON  string `json:"openapi_json"`
	OpenAPIYAML  string `json:"openapi_yaml"`
	LLMsTxt      string `json:"llms_txt"`
	Playbook     string `json:"playbook"`
	Heartbeat    string `json:"heartbeat"`
	ServiceJSON  string `json:"service_json"`
	AgentsJSON   string `json:"agents_json"`
	AgentCard    string `json:"agent_card"`
	AgentCardAlt string `json:"agent_card_alt"`
}

func newDiscoveryLinks(base string) discoveryLinks {
	return discoveryLinks{
		Bootstrap:    base + "/api/v1/agent/bootstrap",
		OpenAPIJSON:  base + "/openapi.json",
		OpenAPIYAML:  base + "/openapi.yaml",
		LLMsTxt:      base + "/llms.txt",
		Playbook:     base + "/docs-md/agent-playbook.md",
		Heartbeat:    base + "/docs-md/agent-heartbeat.md",
		ServiceJSON:  base + "/.well-known/service.json",
		AgentsJSON:   base + "/agents.json",
		AgentCard:    base + "/.well-known/agent.json",
		AgentCardAlt: base + "/.well-known/agent-card.json",
	}
}

// endpoint is one operation listed in service.json: a route registered
// with a service name.
type endpoint struct {
	name, method, path string
}

// discoveryData is what the documents are rendered from: the links and
// every figure they quote, taken from the configuration and the Go limits.
type discoveryData struct {
	Base, App, API string
	Links          discoveryLinks
	Name           string
	Version        string
	// Endpoints are the operations service.json lists (route.service),
	// paths relative to the base URL.
	Endpoints []endpoint

	ChainID             int64
	Network             string
	Statement           string
	ChallengeTTLSeconds int64
	TokenTTLSeconds     int64
	FreshChallenges     int
	MaxBodyBytes        int64

	MinStakeUSDC      string
	MinRepScoreToVote int64
	// FinalVoteOpen: any signed-in address may cast final votes (else
	// they need the minimum stake).
	FinalVoteOpen          bool
	MaxVoteWeight          int64
	JuryWeightRule         string
	DefaultWindowSeconds   int64
	MinWindowSeconds       int64
	MaxWindowSeconds       int64
	MaxSubmissionsPerAgent int64
	WinScore               int64
	AGRMintPerWin          int64
	// The jury's figures (docs/rules.md, "Jury integrity").
	JuryCommitSeconds  int64
	JuryRevealSeconds  int64
	MinJuryWindow      int64
	MaxJuryWindow      int64
	MaxJurySize        int
	JuryCommitmentRule string
	JuryDrawSeed       string
	AGRPerCoherentVote int64
	JuryNoShowPenalty  int64

	MaxTitleChars   int
	MaxPromptChars  int
	MaxTags         int
	MaxTagChars     int
	MaxContentChars int
	MaxEvidence     int
	MaxSourceURL    int
	MaxSnapshotURI  int
	MaxSnapshotHash int
	MaxQuote        int
	MaxClaim        int
	MaxMetadataKiB  int
	MaxReviewKiB    int
	MaxBoostAGR     int
	MaxBoostHours   int

	JobsDefaultLimit      int
	JobsMaxLimit          int
	BootstrapDefaultLimit int
	BootstrapMaxLimit     int
	CommentsDefaultLimit  int
	CommentsMaxLimit      int
	PostsDefaultLimit     int
	PostsMaxLimit         int
	CommentsPerMinute     int

	CacheSeconds        int
	PollOpenJobsSeconds int64
	PollWatchedSeconds  int64
	PollSlowSeconds     int64
	RetryAfterSeconds   int64
	MaxBackoffSeconds   int64
	ListLimit           int
	// ReadCacheMS is the read cache's TTL (0: off).
	ReadCacheMS int64

	SearchEnabled       bool
	SearchMaxQueryChars int
	SearchDefaultLimit  int
	SearchMaxLimit      int

	// Escrow is the BountyEscrow the service follows ("" none), Treasury
	// the fee's recipient; the split in percent.
	Escrow, Treasury          string
	AgentPct, FeePct, JuryPct string
	// The event log: stream heartbeat and the silence after which a
	// client reconnects, retention, page limits, webhooks per address.
	EventHeartbeatSeconds int64
	EventStaleSeconds     int64
	EventRetentionHours   int64
	EventsDefaultLimit    int
	EventsMaxLimit        int
	MaxWebhooks           int
	// PushNotifications: A2A tasks take push notification configs.
	PushNotifications bool
}

// percent renders a fraction of 1 as a percentage ("85").
func percent(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) }

// serviceEndpoints lists the routes registered with a service name.
func (s *server) serviceEndpoints() []endpoint {
	var eps []endpoint
	for _, rt := range s.routeList {
		if rt.service != "" {
			eps = append(eps, endpoint{name: rt.service, method: rt.method(), path: rt.path()})
		}
	}
	return eps
}

// discoveryData gathers the figures of the documents for base.
func (s *server) discoveryData(base string) discoveryData {
	app := s.opts.AppURL
	if app == "" {
		app = base
	}
	m := s.svc.Market.Config()
	a := s.svc.Auth.Config()
	st := s.svc.Stake.Requirements()
	return discoveryData{
		Base:      base,
		App:       app,
		API:       base + "/api/v1",
		Links:     newDiscoveryLinks(base),
		Name:      "OpenJury",
		Version:   APIVersion,
		Endpoints: s.serviceEndpoints(),

		ChainID:             st.ChainID,
		Network:             st.Network,
		Statement:           auth.Statement,
		ChallengeTTLSeconds: int64(a.ChallengeTTL / time.Second),
		TokenTTLSeconds:     int64(a.TokenTTL / time.Second),
		FreshChallenges:     auth.FreshPerAddress,
		MaxBodyBytes:        s.opts.MaxBodyBytes,

		Escrow:   m.Escrow.Contract.String(),
		Treasury: m.Escrow.Treasury.String(),
		AgentPct: percent(m.Economy.AgentPayoutPct),
		FeePct:   percent(m.Economy.PlatformFeePct),
		JuryPct:  percent(m.Economy.JuryPoolPct),

		MinStakeUSDC:           st.MinStake.String(),
		MinRepScoreToVote:      m.MinRepScoreToVote,
		FinalVoteOpen:          m.FinalVoteOpen,
		MaxVoteWeight:          marketplace.MaxVoteWeight,
		JuryWeightRule:         juryWeightRule,
		DefaultWindowSeconds:   int64(m.DefaultFinalVoteWindow / time.Second),
		MinWindowSeconds:       int64(marketplace.MinFinalVoteWindow / time.Second),
		MaxWindowSeconds:       int64(marketplace.MaxFinalVoteWindow / time.Second),
		MaxSubmissionsPerAgent: marketplace.MaxSubmissionsPerAgent,
		WinScore:               marketplace.WinScore,
		AGRMintPerWin:          m.AGRMintPerWin,
		JuryCommitSeconds:      int64(m.JuryCommitWindow / time.Second),
		JuryRevealSeconds:      int64(m.JuryRevealWindow / time.Second),
		MinJuryWindow:          int64(marketplace.MinJuryWindow / time.Second),
		MaxJuryWindow:          int64(marketplace.MaxJuryWindow / time.Second),
		MaxJurySize:            marketplace.MaxJurySize,
		JuryCommitmentRule:     juryCommitmentRule,
		JuryDrawSeed:           drawSeed(m),
		AGRPerCoherentVote:     m.AGRPerCoherentVote,
		JuryNoShowPenalty:      m.JuryNoShowPenalty,

		MaxTitleChars:   marketplace.MaxTitleChars,
		MaxPromptChars:  marketplace.MaxPromptChars,
		MaxTags:         marketplace.MaxTags,
		MaxTagChars:     marketplace.MaxTagChars,
		MaxContentChars: marketplace.MaxContentChars,
		MaxEvidence:     marketplace.MaxEvidence,
		MaxSourceURL:    marketplace.MaxSourceURLChars,
		MaxSnapshotURI:  marketplace.MaxSnapshotURIChars,
		MaxSnapshotHash: marketplace.MaxSnapshotHashChars,
		MaxQuote:        marketplace.MaxQuoteChars,
		MaxClaim:        marketplace.MaxClaimChars,
		MaxMetadataKiB:  marketplace.MaxMetadataBytes >> 10,
		MaxReviewKiB:    marketplace.MaxReviewBytes >> 10,
		MaxBoostAGR:     marketplace.MaxBoostAGR,
		MaxBoostHours:   marketplace.MaxBoostHours,

		JobsDefaultLimit:      marketplace.DefaultListLimit,
		JobsMaxLimit:          marketplace.MaxListLimit,
		BootstrapDefaultLimit: DefaultBootstrapLimit,
		BootstrapMaxLimit:     MaxBootstrapLimit,
		CommentsDefaultLimit:  marketplace.DefaultCommentLimit,
		CommentsMaxLimit:      marketplace.MaxCommentLimit,
		PostsDefaultLimit:     marketplace.DefaultPostLimit,
		PostsMaxLimit:         marketplace.MaxPostLimit,
		CommentsPerMinute:     marketplace.CommentsPerMinute,

		CacheSeconds:        discoveryCacheSeconds,
		PollOpenJobsSeconds: int64(pollOpenJobs / time.Second),
		PollWatchedSeconds:  int64(pollWatched / time.Second),
		PollSlowSeconds:     int64(pollSlow / time.Second),
		RetryAfterSeconds:   int64(DefaultRetryAfter / time.Second),
		MaxBackoffSeconds:   int64(maxBackoff / time.Second),
		ListLimit:           heartbeatListLimit,
		ReadCacheMS:         min(s.opts.ReadCacheTTL, MaxReadCacheTTL).Milliseconds(),

		SearchEnabled:       s.svc.Search != nil,
		SearchMaxQueryChars: search.MaxQueryChars,
		SearchDefaultLimit:  search.DefaultLimit,
		SearchMaxLimit:      search.MaxLimit,

		EventHeartbeatSeconds: int64(s.eventHeartbeat() / time.Second),
		EventStaleSeconds:     int64(eventStaleAfter * s.eventHeartbeat() / time.Second),
		EventRetentionHours:   int64(s.eventRetention() / time.Hour),
		EventsDefaultLimit:    events.DefaultListLimit,
		EventsMaxLimit:        events.MaxListLimit,
		MaxWebhooks:           events.MaxWebhooksPerAddress,
		PushNotifications:     s.svc.Webhooks != nil && s.svc.A2ATasks != nil,
	}
}

// renderDiscovery renders every discovery document for base (no trailing
// slash). It panics on a template error, a programming error the tests
// catch.
func (s *server) renderDiscovery(base string) *discoveryDocs {
	d := s.discoveryData(base)
	text := func(name string) []byte {
		var b bytes.Buffer
		if err := discoveryTemplates.ExecuteTemplate(&b, name, d); err != nil {
			panic(fmt.Sprintf("transport: rendering %s: %v", name, err))
		}
		return b.Bytes()
	}
	return &discoveryDocs{
		agentCard: newDoc(mustJSON(newAgentCard(d))),
		service:   newDoc(mustJSON(newServiceDescriptor(d))),
		agents:    newDoc(mustJSON(newAgentsManifest(d))),
		llmsTxt:   newDoc(text("llms.txt.tmpl")),
		playbook:  newDoc(text("agent-playbook.md.tmpl")),
		heartbeat: newDoc(text("agent-heartbeat.md.tmpl")),
	}
}

// mustJSON encodes v indented, without HTML escaping.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("transport: encoding a discovery document: %v", err))
	}
	return b.Bytes()
}

// serviceDescription is the one-paragraph summary used by the documents.
const serviceDescription = "OpenJury is an open work-and-jury marketplace for autonomous agents. " +
	"Sponsors post jobs with a USDC bounty; agents submit work with evidence; " +
	"staked agents with reputation sit on juries and vote; a job is closed by its sponsor " +
	"or finalized by final decision votes after a time window. Winners earn reputation and AGR credits. " +
	"Every participant is a wallet address and signs in with Sign-In with Ethereum (EIP-4361)."

// agentCard is an A2A (protocol 0.3.0) AgentCard, with the A2A 1.0
// supportedInterfaces, plus the additive links object. Its url is the A2A
// JSON-RPC binding (a2a.go); the REST/JSON API is described by the OpenAPI
// document.
type agentCard struct {
	ProtocolVersion                   string                    `json:"protocolVersion"`
	Name                              string                    `json:"name"`
	Description                       string                    `json:"description"`
	URL                               string                    `json:"url"`
	PreferredTransport                string                    `json:"preferredTransport"`
	AdditionalInterfaces              []agentInterface          `json:"additionalInterfaces"`
	SupportedInterfaces               []agentInterface1         `json:"supportedInterfaces"`
	Provider                          agentProvider             `json:"provider"`
	Version                           string                    `json:"version"`
	DocumentationURL                  string                    `json:"documentationUrl"`
	Capabilities                      agentCapabilities         `json:"capabilities"`
	SecuritySchemes                   map[string]securityScheme `json:"securitySchemes"`
	Security                          []map[string][]string     `json:"security"`
	DefaultInputModes                 []string                  `json:"defaultInputModes"`
	DefaultOutputModes                []string                  `json:"defaultOutputModes"`
	Skills                            []agentSkill              `json:"skills"`
	SupportsAuthenticatedExtendedCard bool                      `json:"supportsAuthenticatedExtendedCard"`
	Links                             discoveryLinks            `json:"links"`
}

type agentProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

type agentCapabilities struct {
	Streaming              bool `json:"streaming"`
	PushNotifications      bool `json:"pushNotifications"`
	StateTransitionHistory bool `json:"stateTransitionHistory"`
}

// securityScheme is an A2A (OpenAPI-style) HTTP security scheme.
type securityScheme struct {
	Type         string `json:"type"`
	Scheme       string `json:"scheme"`
	BearerFormat string `json:"bearerFormat"`
	Description  string `json:"description"`
}

type agentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Examples    []string `json:"examples"`
}

func newAgentCard(d discoveryData) agentCard {
	api := d.API
	return agentCard{
		ProtocolVersion:      A2AProtocolVersion,
		Name:                 d.Name,
		Description:          serviceDescription + " Start with the bootstrap document (links.bootstrap), then the OpenAPI document (links.openapi_json).",
		URL:                  d.Base + A2APath,
		PreferredTransport:   "JSONRPC",
		AdditionalInterfaces: []agentInterface{{URL: d.Base + A2APath, Transport: "JSONRPC"}},
		SupportedInterfaces: []agentInterface1{
			{URL: d.Base + A2APath, ProtocolBinding: "JSONRPC", ProtocolVersion: A2A1ProtocolVersion},
			{URL: d.Base + A2APath, ProtocolBinding: "JSONRPC", ProtocolVersion: A2AProtocolVersion},
		},
		Provider:         agentProvider{Organization: d.Name, URL: d.App},
		Version:          d.Version,
		DocumentationURL: d.Links.Playbook,
		Capabilities:     agentCapabilities{PushNotifications: d.PushNotifications},
		SecuritySchemes: map[string]securityScheme{
			"bearer": {
				Type:         "http",
				Scheme:       "bearer",
				BearerFormat: "opaque",
				Description: fmt.Sprintf("Sign-In with Ethereum: POST %s/agents/auth/challenge with {\"address\"}, "+
					"sign message_to_sign with EIP-191 personal_sign, POST %s/agents/auth/verify with {\"address\", \"signature\"}; "+
					"send the access_token as \"Authorization: Bearer <token>\". A token lasts %d s; a challenge %d s.",
					api, api, d.TokenTTLSeconds, d.ChallengeTTLSeconds),
			},
		},
		Security:           []map[string][]string{{"bearer": {}}},
		DefaultInputModes:  []string{"application/json"},
		DefaultOutputModes: []string{"application/json"},
		Skills:             newA2ACardSkills(d),
		Links:              d.Links,
	}
}

// serviceDescriptor is /.well-known/service.json.
type serviceDescriptor struct {
	Name        string                      `json:"name"`
	Description string                      `json:"description"`
	Version     string                      `json:"version"`
	APIBase     string                      `json:"api_base"`
	AppURL      string                      `json:"app_url"`
	OpenAPI     string                      `json:"openapi"`
	OpenAPIYAML string                      `json:"openapi_yaml"`
	Docs        string                      `json:"docs"`
	Heartbeat   string                      `json:"heartbeat"`
	LLMsTxt     string                      `json:"llms_txt"`
	AgentCard   string                      `json:"agent_card"`
	Agents      string                      `json:"agents"`
	Bootstrap   string                      `json:"bootstrap"`
	Auth        serviceAuth                 `json:"auth"`
	Chain       serviceChain                `json:"chain"`
	Health      serviceHealth               `json:"health"`
	Endpoints   map[string]serviceOperation `json:"endpoints"`
}

type serviceAuth struct {
	Type                string `json:"type"`
	Challenge           string `json:"challenge"`
	Verify              string `json:"verify"`
	Logout              string `json:"logout"`
	Signature           string `json:"signature"`
	TokenType           string `json:"token_type"`
	ChallengeTTLSeconds int64  `json:"challenge_ttl_seconds"`
	TokenTTLSeconds     int64  `json:"token_ttl_seconds"`
}

type serviceChain struct {
	ChainID int64  `json:"chain_id"`
	Network string `json:"network"`
}

type serviceHealth struct {
	Healthz string `json:"healthz"`
	Readyz  string `json:"readyz"`
	Metrics string `json:"metrics"`
}

type serviceOperation struct {
	Method string `json:"method"`
	URL    string `json:"url"`
}

func newServiceDescriptor(d discoveryData) serviceDescriptor {
	eps := make(map[string]serviceOperation, len(d.Endpoints))
	for _, e := range d.Endpoints {
		eps[e.name] = serviceOperation{Method: e.method, URL: d.Base + e.path}
	}
	return serviceDescriptor{
		Name:        d.Name,
		Description: serviceDescription,
		Version:     d.Version,
		APIBase:     d.API,
		AppURL:      d.App,
		OpenAPI:     d.Links.OpenAPIJSON,
		OpenAPIYAML: d.Links.OpenAPIYAML,
		Docs:        d.Links.Playbook,
		Heartbeat:   d.Links.Heartbeat,
		LLMsTxt:     d.Links.LLMsTxt,
		AgentCard:   d.Links.AgentCard,
		Agents:      d.Links.AgentsJSON,
		Bootstrap:   d.Links.Bootstrap,
		Auth: serviceAuth{
			Type:                "siwe-bearer",
			Challenge:           d.API + "/agents/auth/challenge",
			Verify:              d.API + "/agents/auth/verify",
			Logout:              d.API + "/agents/auth/logout",
			Signature:           "EIP-191 personal_sign of message_to_sign (an EIP-4361 message)",
			TokenType:           "bearer",
			ChallengeTTLSeconds: d.ChallengeTTLSeconds,
			TokenTTLSeconds:     d.TokenTTLSeconds,
		},
		Chain:     serviceChain{ChainID: d.ChainID, Network: d.Network},
		Health:    serviceHealth{Healthz: d.Base + "/healthz", Readyz: d.Base + "/readyz", Metrics: d.Base + "/metrics"},
		Endpoints: eps,
	}
}

// agentsManifest is /agents.json.
type agentsManifest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Version     string `json:"version"`
	AgentCard   string `json:"agent_card"`
	Bootstrap   string `json:"bootstrap"`
	OpenAPI     string `json:"openapi"`
	OpenAPIYAML string `json:"openapi_yaml"`
	LLMsTxt     string `json:"llms_txt"`
	Docs        string `json:"docs"`
	Heartbeat   string `json:"heartbeat"`
	Service     string `json:"service"`
	AppURL      string `json:"app_url"`
}

func newAgentsManifest(d discoveryData) agentsManifest {
	return agentsManifest{
		Name:        d.Name,
		Description: serviceDescription,
		Version:     d.Version,
		AgentCard:   d.Links.AgentCard,
		Bootstrap:   d.Links.Bootstrap,
		OpenAPI:     d.Links.OpenAPIJSON,
		OpenAPIYAML: d.Links.OpenAPIYAML,
		LLMsTxt:     d.Links.LLMsTxt,
		Docs:        d.Links.Playbook,
		Heartbeat:   d.Links.Heartbeat,
		Service:     d.Links.ServiceJSON,
		AppURL:      d.App,
	}
}
