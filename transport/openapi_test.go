package transport_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/openjury/openjury/transport"
)

// loadOpenAPI loads and validates the document served with baseURL.
func loadOpenAPI(t *testing.T, baseURL string) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(transport.OpenAPIDocument(baseURL))
	require.NoError(t, err)
	require.NoError(t, doc.Validate(context.Background(), openapi3.EnableSchemaFormatValidation()))
	return doc
}

// specSchemas are the schema names of the service specification.
var specSchemas = []string{
	"Error", "AuthChallengeRequest", "AuthChallengeResponse", "AuthVerifyRequest", "AuthVerifyResponse",
	"StakeRequirements", "StakeStatus", "AgrStatus", "AgrLedgerEntry", "ListAgrLedgerResponse",
	"BoostJobRequest", "BoostJobResponse", "Evidence", "Job", "CreateJobRequest", "Post",
	"CreatePostRequest", "ListPostsResponse", "ListJobsResponse", "CreateSubmissionRequest", "Submission",
	"CreateSubmissionResponse", "Comment", "CreateCommentRequest", "CreateCommentResponse",
	"ListCommentsResponse", "CreateVoteRequest", "Vote", "CreateVoteResponse", "VoteTally",
	"JobVotingSummary", "CreateFinalVoteRequest", "FinalVote", "CreateFinalVoteResponse",
	"FinalVoteTally", "JobFinalDecisionSummary", "CloseJobRequest", "CloseJobResponse", "AnchorBatch",
	"RecordAnchorReceiptRequest", "SlashingEvent", "DevRecordSlashRequest", "ListSlashingEventsResponse",
	"Reputation", "LeaderboardEntry", "LeaderboardResponse", "EconomyPolicy", "TreasuryInfo",
	"Constitution", "SemanticSearchResult", "SemanticSearchResponse", "AgentSpecLinks",
	"AgentBootstrapResponse",
}

func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t, "https://jury.example.com")
	require.Equal(t, "3.0.3", doc.OpenAPI)
	require.Equal(t, "0.1.0", doc.Info.Version)
	require.NotEmpty(t, doc.Info.Title)
	require.NotEmpty(t, doc.Info.Description)
	require.Len(t, doc.Servers, 1)
	require.Equal(t, "https://jury.example.com", doc.Servers[0].URL)
	for _, name := range specSchemas {
		require.Contains(t, doc.Components.Schemas, name)
	}

	// The file as written is valid too.
	raw, err := os.ReadFile("openapi.yaml")
	require.NoError(t, err)
	src, err := openapi3.NewLoader().LoadFromData(raw)
	require.NoError(t, err)
	require.NoError(t, src.Validate(context.Background(), openapi3.EnableSchemaFormatValidation()))
	require.Equal(t, "http://localhost:8080", src.Servers[0].URL)

	// Without a base URL the server is the document's own origin.
	require.Equal(t, "/", loadOpenAPI(t, "").Servers[0].URL)
	// Any URL is quoted safely.
	require.Equal(t, `https://x.example/a b"#: c`, loadOpenAPI(t, `https://x.example/a b"#: c`).Servers[0].URL)
}

// TestOpenAPISecurity: bearerAuth is on the spec's bearer operations plus
// logout, the dev secret on the dev endpoints, and each secured operation
// documents 401. (Which operations are secured is the route table's to
// say: TestOpenAPIRouteCoverage holds the two equal.)
func TestOpenAPISecurity(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t, "")
	wantBearer := []string{
		"DELETE /api/v1/comments/{comment_id}",
		"POST /api/v1/agents/auth/logout",
		"POST /api/v1/final_votes",
		"POST /api/v1/jobs",
		"POST /api/v1/jobs/{job_id}/anchor_receipt",
		"POST /api/v1/jobs/{job_id}/boost",
		"POST /api/v1/jobs/{job_id}/close",
		"POST /api/v1/jobs/{job_id}/comments",
		"POST /api/v1/jobs/{job_id}/finalize",
		"POST /api/v1/posts",
		"POST /api/v1/posts/{post_id}/comments",
		"POST /api/v1/submissions",
		"POST /api/v1/submissions/{submission_id}/comments",
		"POST /api/v1/votes",
	}
	wantDev := []string{
		"POST /api/v1/agr/dev_mint",
		"POST /api/v1/reputation/dev_set",
		"POST /api/v1/slashing/dev_record",
		"POST /api/v1/stake/dev_set",
	}
	require.Empty(t, doc.Security, "no global security")
	var bearer, dev []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			key := method + " " + path
			if op.Security == nil {
				continue
			}
			require.Len(t, *op.Security, 1, key)
			req := (*op.Security)[0]
			require.Len(t, req, 1, key)
			switch {
			case req["bearerAuth"] != nil:
				bearer = append(bearer, key)
			case req["devSecret"] != nil:
				dev = append(dev, key)
			default:
				t.Errorf("%s: unknown security %v", key, req)
			}
			require.NotNil(t, op.Responses.Status(http.StatusUnauthorized), "%s documents 401", key)
		}
	}
	require.Subset(t, bearer, wantBearer)
	require.Subset(t, dev, wantDev)
	require.Equal(t, "bearer", doc.Components.SecuritySchemes["bearerAuth"].Value.Scheme)
	require.Equal(t, "X-Dev-Secret", doc.Components.SecuritySchemes["devSecret"].Value.Name)
}

// TestOpenAPIServed: /openapi.yaml is the document as written with the
// base URL filled in, /openapi.json the same content as JSON.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	y := e.get("/openapi.yaml")
	require.Equal(t, "application/yaml", y.Header.Get("Content-Type"))
	raw, err := os.ReadFile("openapi.yaml")
	require.NoError(t, err)
	want := strings.Replace(string(raw), "\nservers:\n  - url: http://localhost:8080\n", "\nservers:\n  - url: \"https://jury.example.com\"\n", 1)
	require.NotEqual(t, string(raw), want)
	require.Equal(t, want, string(y.Body), "served as written, with the base URL")

	j := e.get("/openapi.json")
	require.Equal(t, "application/json", j.Header.Get("Content-Type"))
	require.Equal(t, transport.OpenAPIDocument("https://jury.example.com"), j.Body)

	fromYAML, err := yaml.YAMLToJSON(y.Body)
	require.NoError(t, err)
	require.JSONEq(t, string(j.Body), string(fromYAML), "same content")

	var doc map[string]any
	require.NoError(t, json.Unmarshal(j.Body, &doc))
	require.Equal(t, "0.1.0", doc["info"].(map[string]any)["version"])
}

// securityOf names the security requirement of op as a route's auth mode
// documents it: "none", "bearer" (bearerAuth) or "dev" (devSecret).
func securityOf(op *openapi3.Operation) string {
	switch {
	case op.Security == nil || len(*op.Security) == 0:
		return "none"
	case (*op.Security)[0]["bearerAuth"] != nil:
		return "bearer"
	case (*op.Security)[0]["devSecret"] != nil:
		return "dev"
	}
	return fmt.Sprint(*op.Security)
}

// documentedAuth is the security a route's auth mode is documented with:
// an operator route is a bearer operation (the operator check is the
// service's, 403).
func documentedAuth(auth string) string {
	if auth == "operator" {
		return "bearer"
	}
	return auth
}

// coverageProblems compares the registered routes with the document, both
// ways: every route must be a documented path and method whose
// operationId is the route's and whose security matches the route's auth
// mode; every documented path and method must be registered and served
// (a request to it, with sample path values and no credentials, gets
// neither the router's "route not found" 404 nor 405). The bearer
// operations must answer such a request 401 and the others must not. A
// cached route must be an anonymous GET.
func coverageProblems(doc *openapi3.T, routes []transport.RouteInfo, serve func(method, path string) response) []string {
	var problems []string
	registered := map[string]bool{}
	for _, rt := range routes {
		registered[rt.Pattern] = true
		method, path, ok := strings.Cut(rt.Pattern, " ")
		if !ok {
			problems = append(problems, "pattern without a method: "+rt.Pattern)
			continue
		}
		if rt.Cached && (method != http.MethodGet || rt.Auth != "none") {
			problems = append(problems, "cached but not an anonymous GET: "+rt.Pattern)
		}
		item := doc.Paths.Value(path)
		if item == nil || item.GetOperation(method) == nil {
			problems = append(problems, "registered but not documented: "+rt.Pattern)
			continue
		}
		op := item.GetOperation(method)
		if op.OperationID != rt.OperationID {
			problems = append(problems, fmt.Sprintf("operationId %q in the document, %q registered: %s", op.OperationID, rt.OperationID, rt.Pattern))
		}
		if got, want := securityOf(op), documentedAuth(rt.Auth); got != want {
			problems = append(problems, fmt.Sprintf("security %s in the document, auth %s registered: %s", got, rt.Auth, rt.Pattern))
		}
	}
	param := regexp.MustCompile(`\{([^}]+)\}`)
	samples := map[string]string{
		"address": "0x52908400098527886e0f7030069857d2e4169ee7",
	}
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			key := method + " " + path
			if !registered[key] {
				problems = append(problems, "documented but not registered: "+key)
			}
			concrete := param.ReplaceAllStringFunc(path, func(m string) string {
				if v, ok := samples[m[1:len(m)-1]]; ok {
					return v
				}
				return "01a1b2c3-0000-7000-8000-000000000000"
			})
			r := serve(method, concrete)
			var body struct {
				Detail string `json:"detail"`
			}
			_ = json.Unmarshal(r.Body, &body)
			switch {
			case r.Code == http.StatusNotFound && body.Detail == "route not found":
				problems = append(problems, "documented but not served (404): "+key)
				continue
			case r.Code == http.StatusMethodNotAllowed:
				problems = append(problems, "documented but not served (405): "+key)
				continue
			}
			bearer := securityOf(op) == "bearer"
			if bearer != (r.Code == http.StatusUnauthorized && r.Header.Get("WWW-Authenticate") == "Bearer" && body.Detail == "missing bearer token") {
				problems = append(problems, "bearerAuth in the document does not match the answer without a token: "+key)
			}
		}
	}
	sort.Strings(problems)
	return problems
}

// TestOpenAPIRouteCoverage: the route table (transport/routes.go) and the
// document agree on every route, its operationId and its security, and
// the check catches each kind of disagreement.
func TestOpenAPIRouteCoverage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	routes := transport.Routes(e.svc, e.opts)
	require.NotEmpty(t, routes)
	serve := func(method, path string) response { return e.do(method, path, nil) }

	doc := loadOpenAPI(t, "")
	require.Empty(t, coverageProblems(doc, routes, serve))

	// The check catches a route missing from the document...
	missing := loadOpenAPI(t, "")
	missing.Paths.Delete("/api/v1/jobs/{job_id}/finalize")
	missing.Paths.Value("/api/v1/jobs").Post = nil
	require.Equal(t, []string{
		"registered but not documented: POST /api/v1/jobs",
		"registered but not documented: POST /api/v1/jobs/{job_id}/finalize",
	}, coverageProblems(missing, routes, serve))

	// ...a documented route the server does not serve...
	extra := loadOpenAPI(t, "")
	extra.Paths.Set("/api/v1/jobs/{job_id}/unserved", &openapi3.PathItem{Get: extra.Paths.Value("/api/v1/jobs/{job_id}").Get})
	extra.Paths.Value("/healthz").Post = extra.Paths.Value("/healthz").Get
	require.Equal(t, []string{
		"documented but not registered: GET /api/v1/jobs/{job_id}/unserved",
		"documented but not registered: POST /healthz",
		"documented but not served (404): GET /api/v1/jobs/{job_id}/unserved",
		"documented but not served (405): POST /healthz",
	}, coverageProblems(extra, routes, serve))

	// ...security that does not match the server...
	wrong := loadOpenAPI(t, "")
	wrong.Paths.Value("/api/v1/votes").Post.Security = nil
	wrong.Paths.Value("/api/v1/jobs").Get.Security = &openapi3.SecurityRequirements{{"bearerAuth": {}}}
	wrong.Paths.Value("/api/v1/stake/dev_set").Post.Security = &openapi3.SecurityRequirements{{"bearerAuth": {}}}
	require.Equal(t, []string{
		"bearerAuth in the document does not match the answer without a token: GET /api/v1/jobs",
		"bearerAuth in the document does not match the answer without a token: POST /api/v1/stake/dev_set",
		"bearerAuth in the document does not match the answer without a token: POST /api/v1/votes",
		"security bearer in the document, auth dev registered: POST /api/v1/stake/dev_set",
		"security bearer in the document, auth none registered: GET /api/v1/jobs",
		"security none in the document, auth bearer registered: POST /api/v1/votes",
	}, coverageProblems(wrong, routes, serve))

	// ...an operationId that is not the registered one...
	renamed := loadOpenAPI(t, "")
	renamed.Paths.Value("/api/v1/jobs/{job_id}").Get.OperationID = "readJob"
	require.Equal(t, []string{
		`operationId "readJob" in the document, "getJob" registered: GET /api/v1/jobs/{job_id}`,
	}, coverageProblems(renamed, routes, serve))

	// ...and a cached route that is not an anonymous read.
	bad := slices.Clone(routes)
	for i := range bad {
		if bad[i].Pattern == "POST /api/v1/votes" {
			bad[i].Cached = true
		}
	}
	require.Equal(t, []string{"cached but not an anonymous GET: POST /api/v1/votes"}, coverageProblems(doc, bad, serve))
}

// TestOpenAPISpecPaths: the document has every path of the specification
// the server serves, and none it does not serve yet.
func TestOpenAPISpecPaths(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t, "")
	for _, p := range []string{
		"/.well-known/agent.json", "/.well-known/agent-card.json", "/.well-known/service.json",
		"/agents.json", "/llms.txt", "/docs-md/agent-playbook.md", "/docs-md/agent-heartbeat.md",
		"/openapi.json", "/openapi.yaml", "/healthz", "/readyz", "/metrics",
		"/api/v1/search/semantic",
	} {
		require.NotNil(t, doc.Paths.Value(p), p)
	}
	require.True(t, slices.ContainsFunc(doc.Paths.InMatchingOrder(), func(p string) bool { return strings.HasPrefix(p, "/api/v1/") }))
}

// TestOpenAPIServersPlaceholder: the JSON is made once and the base URL
// swapped in, which is only right while the placeholder URL is unique.
func TestOpenAPIServersPlaceholder(t *testing.T) {
	t.Parallel()
	yamlOnce := transport.OpenAPIDocument("https://jury.example.test/base")
	require.Equal(t, 1, strings.Count(string(yamlOnce), `"https://jury.example.test/base"`))
	require.NotContains(t, string(yamlOnce), "localhost:8080")
	var doc struct {
		Servers []struct{ URL string } `json:"servers"`
	}
	require.NoError(t, json.Unmarshal(yamlOnce, &doc))
	require.Equal(t, "https://jury.example.test/base", doc.Servers[0].URL)
}
