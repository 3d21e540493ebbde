package transport

import (
	"net/http"

	"github.com/openjury/openjury"
)

// The MCP endpoint: the host mounts the MCP server (package mcpserver,
// streamable HTTP transport, stateless) at MCPPath through Options.MCP,
// behind the API's middleware (request id, access log, metrics, rate
// limits, body limit). It is one JSON-RPC route rather than REST
// operations: the route table and the OpenAPI document list it as
// POST /mcp (operation mcpStreamableHttp, no security: the read tools need
// no token), like POST /a2a; the tools are described by the MCP server
// itself (tools/list). Its 401s name the protected-resource metadata
// documents (RFC 9728) served beside the discovery documents.

// MCPPath is the path of the MCP endpoint.
const MCPPath = "/mcp"

// ProtectedResourcePath is the path of the OAuth protected-resource
// metadata (RFC 9728) of the whole service; MCPProtectedResourcePath that
// of the MCP endpoint, the resource BaseURL+MCPPath (RFC 9728 section
// 3.1: the well-known path with the resource's path appended).
const (
	ProtectedResourcePath    = "/.well-known/oauth-protected-resource"
	MCPProtectedResourcePath = ProtectedResourcePath + MCPPath
)

var errMCPOff = openjury.E(openjury.NotImplemented, "transport.mcp",
	"the MCP endpoint is not served here: use `openjury mcp` (stdio) against this server")

func (s *server) mcpRoutes() []route {
	return []route{
		{pattern: "POST " + MCPPath, op: "mcpStreamableHttp", service: "mcp", h: s.mcp},
	}
}

// mcp hands the request to the MCP server (Options.MCP), or answers 501
// without one.
func (s *server) mcp(w http.ResponseWriter, r *http.Request) error {
	if s.opts.MCP == nil {
		return errMCPOff
	}
	s.opts.MCP.ServeHTTP(w, r)
	return nil
}

// protectedResource is an OAuth 2.0 protected-resource metadata document
// (RFC 9728). OpenJury has no OAuth authorization server: a token comes
// from Sign-In with Ethereum, which resource_documentation and the
// additive openjury_sign_in object describe.
type protectedResource struct {
	Resource               string         `json:"resource"`
	ResourceName           string         `json:"resource_name"`
	ResourceDocumentation  string         `json:"resource_documentation"`
	BearerMethodsSupported []string       `json:"bearer_methods_supported"`
	SignIn                 resourceSignIn `json:"openjury_sign_in"`
}

// resourceSignIn tells how to get a bearer token.
type resourceSignIn struct {
	Type            string `json:"type"`
	Challenge       string `json:"challenge"`
	Verify          string `json:"verify"`
	Signature       string `json:"signature"`
	TokenTTLSeconds int64  `json:"token_ttl_seconds"`
	CLI             string `json:"cli"`
}

// newProtectedResource is the metadata of the resource at base+path.
func newProtectedResource(d discoveryData, path, name string) protectedResource {
	return protectedResource{
		Resource:               d.Base + path,
		ResourceName:           name,
		ResourceDocumentation:  d.Links.Playbook + "#2-sign-in-sign-in-with-ethereum",
		BearerMethodsSupported: []string{"header"},
		SignIn: resourceSignIn{
			Type:            "siwe-bearer",
			Challenge:       d.API + "/agents/auth/challenge",
			Verify:          d.API + "/agents/auth/verify",
			Signature:       "EIP-191 personal_sign of message_to_sign (an EIP-4361 message)",
			TokenTTLSeconds: d.TokenTTLSeconds,
			CLI:             "openjury --url " + d.Base + " login --show-token",
		},
	}
}
