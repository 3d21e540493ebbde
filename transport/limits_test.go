package transport_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/search"
	"github.com/openjury/openjury/stake"
	"github.com/openjury/openjury/transport"
)

// documentBounds lists every bound (minimum, maximum, minLength,
// maxLength, minItems, maxItems) of the document's schemas as
// "where keyword" -> value. where is the component schema and its property
// path ("Job.tags[]"), "param:Name", "header:Name" and "response:Name" for
// components, and for an operation's own parts "METHOD /path?name" (a
// parameter), "METHOD /path body" and "METHOD /path STATUS" (a response). A schema reached
// through a $ref is listed once, under its component's name.
func documentBounds(doc *openapi3.T) map[string]float64 {
	out := map[string]float64{}
	var walk func(where string, ref *openapi3.SchemaRef, root bool)
	walk = func(where string, ref *openapi3.SchemaRef, root bool) {
		if ref == nil || ref.Value == nil || (!root && ref.Ref != "") {
			return
		}
		s := ref.Value
		add := func(kw string, v *float64) {
			if v != nil {
				out[where+" "+kw] = *v
			}
		}
		u := func(n uint64) *float64 {
			if n == 0 {
				return nil
			}
			f := float64(n)
			return &f
		}
		up := func(n *uint64) *float64 {
			if n == nil {
				return nil
			}
			return u(*n)
		}
		add("minimum", s.Min)
		add("maximum", s.Max)
		add("minLength", u(s.MinLength))
		add("maxLength", up(s.MaxLength))
		add("minItems", u(s.MinItems))
		add("maxItems", up(s.MaxItems))
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			walk(where+"."+name, s.Properties[name], false)
		}
		walk(where+"[]", s.Items, false)
		walk(where+"{}", s.AdditionalProperties.Schema, false)
		for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, r := range l {
				walk(where, r, false)
			}
		}
	}
	for name, s := range doc.Components.Schemas {
		walk(name, s, true)
	}
	for name, p := range doc.Components.Parameters {
		walk("param:"+name, p.Value.Schema, false)
	}
	for name, h := range doc.Components.Headers {
		walk("header:"+name, h.Value.Schema, false)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Ref == "" && p.Value != nil {
					walk(method+" "+path+"?"+p.Value.Name, p.Value.Schema, false)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Ref == "" && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					walk(method+" "+path+" body", mt.Schema, false)
				}
			}
			for status, r := range op.Responses.Map() {
				if r.Ref != "" || r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					walk(method+" "+path+" "+status, mt.Schema, false)
				}
				for name, h := range r.Value.Headers {
					if h.Ref == "" && h.Value != nil {
						walk(method+" "+path+" "+status+" header:"+name, h.Value.Schema, false)
					}
				}
			}
		}
	}
	for name, r := range doc.Components.Responses {
		for _, mt := range r.Value.Content {
			walk("response:"+name, mt.Schema, false)
		}
	}
	return out
}

// genericBound reports whether a bound is a generic one that needs no Go
// constant: a count or amount that cannot be negative (minimum 0), a
// positive number (minimum 1; a list's limit is 1..max), a non-empty
// string (minLength 1).
func genericBound(key string, v float64) bool {
	switch {
	case v == 0 && hasSuffix(key, " minimum"):
		return true
	case v == 1 && (hasSuffix(key, " minimum") || hasSuffix(key, " minLength")):
		return true
	}
	return false
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// goLimits are the Go constants behind the document's bounds: each bound of
// openapi.yaml that is not generic is listed with the constant the code
// enforces (or, for a mathematical range, states).
func goLimits() map[string]float64 {
	seconds := func(d time.Duration) float64 { return d.Seconds() }
	usdc := func(m openjury.MicroUSDC) float64 { return float64(m / openjury.MicroPerUSDC) }
	m := map[string]float64{
		// Jobs and posts (marketplace/service.go, marketplace/threads.go).
		"CreateJobRequest.title maxLength":                           marketplace.MaxTitleChars,
		"CreateJobRequest.prompt maxLength":                          marketplace.MaxPromptChars,
		"CreateJobRequest.tags maxItems":                             marketplace.MaxTags,
		"CreateJobRequest.tags[] maxLength":                          marketplace.MaxTagChars,
		"CreateJobRequest.bounty_usdc maximum":                       usdc(marketplace.MaxBounty),
		"CreateJobRequest.final_vote_window_seconds minimum":         seconds(marketplace.MinFinalVoteWindow),
		"CreateJobRequest.final_vote_window_seconds maximum":         seconds(marketplace.MaxFinalVoteWindow),
		"Job.title maxLength":                                        marketplace.MaxTitleChars,
		"Job.prompt maxLength":                                       marketplace.MaxPromptChars,
		"Job.tags maxItems":                                          marketplace.MaxTags,
		"Job.tags[] maxLength":                                       marketplace.MaxTagChars,
		"Job.bounty_usdc maximum":                                    usdc(marketplace.MaxBounty),
		"CreatePostRequest.title maxLength":                          marketplace.MaxTitleChars,
		"CreatePostRequest.content maxLength":                        marketplace.MaxContentChars,
		"CreatePostRequest.tags maxItems":                            marketplace.MaxTags,
		"CreatePostRequest.tags[] maxLength":                         marketplace.MaxTagChars,
		"Post.title maxLength":                                       marketplace.MaxTitleChars,
		"Post.content maxLength":                                     marketplace.MaxContentChars,
		"Post.tags maxItems":                                         marketplace.MaxTags,
		"Post.tags[] maxLength":                                      marketplace.MaxTagChars,
		"CreateCommentRequest.content maxLength":                     marketplace.MaxContentChars,
		"Comment.content maxLength":                                  marketplace.MaxContentChars,
		"param:CommentLimit maximum":                                 marketplace.MaxCommentLimit,
		"GET /api/v1/jobs?limit maximum":                             marketplace.MaxListLimit,
		"GET /api/v1/jobs/{job_id}/submissions?limit maximum":        marketplace.MaxListLimit,
		"GET /api/v1/posts?limit maximum":                            marketplace.MaxPostLimit,
		"GET /api/v1/reputation/leaderboard?limit maximum":           marketplace.MaxLeaderboardLimit,
		"GET /api/v1/agent/bootstrap?limit maximum":                  transport.MaxBootstrapLimit,
		"GET /api/v1/agr/ledger?limit maximum":                       agr.MaxLedgerLimit,
		"GET /api/v1/slashing/events?limit maximum":                  stake.MaxListLimit,
		"GET /api/v1/events?limit maximum":                           events.MaxListLimit,
		"param:EventTag maxLength":                                   events.MaxTagChars,
		"CreateWebhookRequest.url maxLength":                         events.MaxURLChars,
		"CreateWebhookRequest.tag maxLength":                         events.MaxTagChars,
		"ListWebhooksResponse.webhooks maxItems":                     events.MaxWebhooksPerAddress,
		"GET /api/v1/webhooks/{webhook_id}/deliveries?limit maximum": events.MaxDeliveryLimit,
		"CreateSubmissionRequest.content maxLength":                  marketplace.MaxContentChars,
		"CreateSubmissionRequest.evidence maxItems":                  marketplace.MaxEvidence,
		"Submission.content maxLength":                               marketplace.MaxContentChars,
		"Submission.evidence maxItems":                               marketplace.MaxEvidence,
		"Evidence.type maxLength":                                    marketplace.MaxEvidenceTypeChars,
		"Evidence.source_url maxLength":                              marketplace.MaxSourceURLChars,
		"Evidence.snapshot_uri maxLength":                            marketplace.MaxSnapshotURIChars,
		"Evidence.snapshot_hash maxLength":                           marketplace.MaxSnapshotHashChars,
		"Evidence.quote maxLength":                                   marketplace.MaxQuoteChars,
		"Evidence.claim maxLength":                                   marketplace.MaxClaimChars,
		"Evidence.confidence maximum":                                marketplace.MaxConfidence,
		"Vote.weight maximum":                                        marketplace.MaxVoteWeight,
		"BoostJobRequest.amount_agr maximum":                         marketplace.MaxBoostAGR,
		"BoostJobRequest.duration_hours maximum":                     marketplace.MaxBoostHours,
		"DevSetReputationRequest.score maximum":                      marketplace.MaxDevScore,
		"DevMintRequest.amount maximum":                              agr.MaxDevMint,
		"GET /api/v1/search/semantic?q maxLength":                    search.MaxQueryChars,
		"GET /api/v1/search/semantic?limit maximum":                  search.MaxLimit,
		"SemanticSearchResponse.query maxLength":                     search.MaxQueryChars,
		"SemanticSearchResponse.results maxItems":                    search.MaxLimit,
		"header:RequestId maxLength":                                 transport.MaxRequestIDLen,
		"param:IdempotencyKey maxLength":                             transport.MaxIdempotencyKeyLen,
		"SemanticSearchResult.similarity minimum":                    -1, // cosine similarity
		"SemanticSearchResult.similarity maximum":                    1,
		"EconomyPolicy.agent_payout_usdc_pct maximum":                1, // fractions of a bounty
		"EconomyPolicy.jury_pool_usdc_pct maximum":                   1,
		"EconomyPolicy.platform_fee_usdc_pct maximum":                1,
		"CreateJobRequest.jury_size maximum":                         marketplace.MaxJurySize,
		"CreateJobRequest.jury_commit_seconds minimum":               seconds(marketplace.MinJuryWindow),
		"CreateJobRequest.jury_commit_seconds maximum":               seconds(marketplace.MaxJuryWindow),
		"CreateJobRequest.jury_reveal_seconds minimum":               seconds(marketplace.MinJuryWindow),
		"CreateJobRequest.jury_reveal_seconds maximum":               seconds(marketplace.MaxJuryWindow),
		"Job.jury_size maximum":                                      marketplace.MaxJurySize,
		"GET /api/v1/jobs/{job_id}/jury/eligible?limit maximum":      marketplace.MaxEligibleLimit,
		"GET /api/v1/jury/duties?limit maximum":                      marketplace.MaxDutiesLimit,
		"GET /api/v1/jobs/{job_id}/payouts?limit maximum":            marketplace.MaxListLimit,
	}
	return m
}

// TestOpenAPIBoundsAreGoLimits: every bound the document states is the Go
// constant the code enforces (goLimits), or a generic one (genericBound);
// a bound written without its constant, a constant that moved, or a stale
// entry fails.
func TestOpenAPIBoundsAreGoLimits(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t, "")
	require.Empty(t, boundProblems(documentBounds(doc), goLimits()))

	// The check catches a bound that differs from its constant, a bound
	// without one, and a listed bound the document no longer has.
	changed := loadOpenAPI(t, "")
	changed.Components.Schemas["Job"].Value.Properties["title"].Value.MaxLength = openapi3.Ptr(uint64(141))
	changed.Components.Schemas["Job"].Value.Properties["status"].Value.MaxLength = openapi3.Ptr(uint64(9))
	changed.Components.Schemas["Job"].Value.Properties["tags"].Value.MaxItems = nil
	require.Equal(t, []string{
		"Job.status maxLength: 9 in the document, no Go constant (list it in goLimits)",
		"Job.tags maxItems: 16 in goLimits, not in the document",
		"Job.title maxLength: 141 in the document, 140 in Go",
	}, boundProblems(documentBounds(changed), goLimits()))
}

// boundProblems compares the document's bounds with the Go limits.
func boundProblems(doc, limits map[string]float64) []string {
	var problems []string
	for key, v := range doc {
		want, ok := limits[key]
		switch {
		case ok && want != v:
			problems = append(problems, fmt.Sprintf("%s: %v in the document, %v in Go", key, v, want))
		case !ok && !genericBound(key, v):
			problems = append(problems, fmt.Sprintf("%s: %v in the document, no Go constant (list it in goLimits)", key, v))
		}
	}
	for key, v := range limits {
		if _, ok := doc[key]; !ok {
			problems = append(problems, fmt.Sprintf("%s: %v in goLimits, not in the document", key, v))
		}
	}
	slices.Sort(problems)
	return problems
}
