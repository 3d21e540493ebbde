package transport_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
)

// walker is an agent that knows one URL and follows the links it is given.
type walker struct {
	t      *testing.T
	client *http.Client
	token  string
}

// call sends a request to an absolute URL, checks the answer against the
// OpenAPI document and decodes the JSON body.
func (a *walker) call(method, rawURL string, body any, wantStatus int) map[string]any {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		require.NoError(a.t, err)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, rawURL, rd)
	require.NoError(a.t, err)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	resp, err := a.client.Do(req)
	require.NoError(a.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(a.t, err)
	require.Equal(a.t, wantStatus, resp.StatusCode, "%s %s: %s", method, rawURL, raw)
	openjurytest.ValidateResponse(a.t, req, resp.StatusCode, resp.Header, raw)
	var m map[string]any
	require.NoError(a.t, json.Unmarshal(raw, &m), "%s %s: %s", method, rawURL, raw)
	return m
}

// operation is an operation of an OpenAPI document.
type operation struct {
	path string
	op   map[string]any
}

// findOperation returns the one operation of doc with the method whose
// path ends with suffix.
func findOperation(t *testing.T, doc map[string]any, method, suffix string) operation {
	t.Helper()
	var found []operation
	for path, item := range doc["paths"].(map[string]any) {
		if !strings.HasSuffix(path, suffix) {
			continue
		}
		if op, ok := item.(map[string]any)[strings.ToLower(method)].(map[string]any); ok {
			found = append(found, operation{path: path, op: op})
		}
	}
	require.Len(t, found, 1, "%s *%s in the OpenAPI document", method, suffix)
	return found[0]
}

// resolveRef follows a local $ref of doc.
func resolveRef(t *testing.T, doc map[string]any, schema map[string]any) map[string]any {
	t.Helper()
	ref, ok := schema["$ref"].(string)
	if !ok {
		return schema
	}
	node := any(doc)
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		node = node.(map[string]any)[part]
	}
	require.NotNil(t, node, "unresolved %s", ref)
	return node.(map[string]any)
}

// TestAgentDiscoveryWalk walks the discovery chain the way an agent does,
// knowing only the service's address and following the links it is given:
// agent card -> bootstrap -> OpenAPI document -> sign in -> create a job ->
// read it back.
func TestAgentDiscoveryWalk(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	a := &walker{t: t, client: srv.HTTP.Client()}

	card := a.call("GET", srv.URL+"/.well-known/agent.json", nil, http.StatusOK)
	require.Equal(t, "OpenJury", card["name"])
	bootstrapURL := card["links"].(map[string]any)["bootstrap"].(string)

	boot := a.call("GET", bootstrapURL, nil, http.StatusOK)
	openapiURL := boot["specs"].(map[string]any)["openapi_json"].(string)

	doc := a.call("GET", openapiURL, nil, http.StatusOK)
	require.Equal(t, "3.0.3", doc["openapi"])
	// Operation paths are relative to the document's server URL, itself
	// relative to where the document was found.
	docURL, err := url.Parse(openapiURL)
	require.NoError(t, err)
	serverURL, err := url.Parse(doc["servers"].([]any)[0].(map[string]any)["url"].(string))
	require.NoError(t, err)
	api := strings.TrimRight(docURL.ResolveReference(serverURL).String(), "/")
	challenge := findOperation(t, doc, "POST", "/auth/challenge")
	verify := findOperation(t, doc, "POST", "/auth/verify")
	createJob := findOperation(t, doc, "POST", "/jobs")
	getJob := findOperation(t, doc, "GET", "/jobs/{job_id}")

	// Creating a job needs the bearer token; its body needs these fields.
	require.NotEmpty(t, createJob.op["security"], "createJob declares no security")
	schema := resolveRef(t, doc, createJob.op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
	require.Subset(t, schema["required"], []any{"title", "prompt", "bounty_usdc"})

	// Sign in with a wallet.
	w := openjurytest.NewWallet(t)
	ch := a.call("POST", api+challenge.path, map[string]any{"address": w.Address().String()}, http.StatusOK)
	msg := ch["message_to_sign"].(string)
	require.Contains(t, msg, srv.URL) // the EIP-4361 URI is the service's
	v := a.call("POST", api+verify.path, map[string]any{"address": w.Address().String(), "signature": w.Sign(t, msg)}, http.StatusOK)
	require.Equal(t, "bearer", v["token_type"])
	a.token = v["access_token"].(string)

	// Post a job, then find it.
	job := a.call("POST", api+createJob.path, map[string]any{
		"title": "Walk the links", "prompt": "Prove that an agent can find its way.", "bounty_usdc": 3.5, "tags": []string{"discovery"},
	}, http.StatusOK)
	id := job["id"].(string)
	require.Equal(t, w.Address().String(), job["sponsor_address"])
	got := a.call("GET", api+strings.Replace(getJob.path, "{job_id}", url.PathEscape(id), 1), nil, http.StatusOK)
	require.Equal(t, id, got["id"])
	require.Equal(t, "Walk the links", got["title"])
	require.Equal(t, "open", got["status"])
	require.Equal(t, []any{"discovery"}, got["tags"])
}
