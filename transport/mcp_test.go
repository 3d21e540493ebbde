package transport_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/transport"
)

// TestProtectedResourceMetadata: the RFC 9728 documents name the service
// and the MCP endpoint as resources (their well-known paths are the
// resource's path appended) and tell how to get a bearer token.
func TestProtectedResourceMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDiscoveryConfig())
	for path, resource := range map[string]string{
		transport.ProtectedResourcePath:    discoveryBase,
		transport.MCPProtectedResourcePath: discoveryBase + transport.MCPPath,
	} {
		doc := e.get(path).JSON(t)
		require.Equal(t, resource, doc["resource"], path)
		require.Equal(t, []any{"header"}, doc["bearer_methods_supported"], path)
		require.Equal(t, discoveryBase+"/docs-md/agent-playbook.md#2-sign-in-sign-in-with-ethereum", doc["resource_documentation"], path)
		require.NotContains(t, doc, "authorization_servers", "no OAuth server: a token comes from SIWE")
		signIn := doc["openjury_sign_in"].(map[string]any)
		require.Equal(t, "siwe-bearer", signIn["type"])
		require.Equal(t, discoveryBase+"/api/v1/agents/auth/challenge", signIn["challenge"])
		require.Equal(t, discoveryBase+"/api/v1/agents/auth/verify", signIn["verify"])
		require.Equal(t, float64(10800), signIn["token_ttl_seconds"])
		require.Contains(t, signIn["cli"], "login --show-token")
	}
	// The service description lists the MCP endpoint.
	eps := e.get("/.well-known/service.json").JSON(t)["endpoints"].(map[string]any)
	require.Equal(t, map[string]any{"method": "POST", "url": discoveryBase + "/mcp"}, eps["mcp"])
}

// TestMCPRouteWithoutServer: without Options.MCP, POST /mcp answers 501
// with a detail, and other methods 405.
func TestMCPRouteWithoutServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.do("POST", "/mcp", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
	require.Equal(t, http.StatusNotImplemented, r.Code)
	require.Contains(t, r.Detail(t), "openjury mcp")
	r = e.do("GET", "/mcp", nil)
	require.Equal(t, http.StatusMethodNotAllowed, r.Code)
	require.Equal(t, "POST", r.Header.Get("Allow"))
}
