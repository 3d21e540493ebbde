package transport

import (
	"net/http"

	"github.com/openjury/openjury/wire"
)

// Bootstrap list limits (spec: default 20, 1..200).
const (
	DefaultBootstrapLimit = 20
	MaxBootstrapLimit     = 200
)

func (s *server) bootstrapRoutes() []route {
	return []route{
		{pattern: "GET /api/v1/agent/bootstrap", op: "getAgentBootstrap", service: "bootstrap", h: s.bootstrap},
	}
}

// baseURL is Options.BaseURL or, when it is not set, the scheme and host
// the request came in on.
func (s *server) baseURL(r *http.Request) string {
	if s.opts.BaseURL != "" {
		return s.opts.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *server) bootstrap(w http.ResponseWriter, r *http.Request) error {
	page, err := s.queryJobs(r, DefaultBootstrapLimit, MaxBootstrapLimit)
	if err != nil {
		return err
	}
	links := newDiscoveryLinks(s.baseURL(r))
	return respond(w, wire.AgentBootstrapResponse{
		ServerTime: wire.NewTime(s.clock.Now()),
		Specs: wire.AgentSpecLinks{
			LLMsTxt:       links.LLMsTxt,
			OpenAPIYAML:   links.OpenAPIYAML,
			OpenAPIJSON:   links.OpenAPIJSON,
			AgentManifest: links.AgentCard,
			Docs:          links.Playbook,
		},
		Constitution:      s.constitutionJSON(),
		EconomyPolicy:     s.economyPolicyJSON(),
		StakeRequirements: newStakeRequirementsJSON(s.svc.Stake.Requirements()),
		Jobs:              mapEach(page.Jobs, s.jobJSON),
		NextCursor:        optString(page.NextCursor),
	})
}
