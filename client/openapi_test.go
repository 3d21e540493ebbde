package client_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/transport"
)

// operation is one operation of the OpenAPI document.
type operation struct {
	method, path, id string
}

// servedDocument is the document the server serves at /openapi.json.
type servedDocument struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"schemas"`
	} `json:"components"`
}

func loadDocument(t *testing.T) servedDocument {
	t.Helper()
	var doc servedDocument
	require.NoError(t, json.Unmarshal(transport.OpenAPIDocument(""), &doc))
	return doc
}

// operations lists every operation of the served document.
func operations(t *testing.T) []operation {
	t.Helper()
	methods := map[string]bool{http.MethodGet: true, http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true}
	var ops []operation
	for path, item := range loadDocument(t).Paths {
		for m, raw := range item {
			if !methods[strings.ToUpper(m)] {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			ops = append(ops, operation{method: strings.ToUpper(m), path: path, id: op.OperationID})
		}
	}
	require.NotEmpty(t, ops)
	return ops
}

// TestEveryOperationHasAMethod holds the client's methods equal to the
// document's operations: operationId createJob is (*Client).CreateJob.
func TestEveryOperationHasAMethod(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[*client.Client]()
	for _, op := range operations(t) {
		name := strings.ToUpper(op.id[:1]) + op.id[1:]
		_, ok := typ.MethodByName(name)
		require.True(t, ok, "operation %s (%s %s) has no client method %s", op.id, op.method, op.path, name)
	}
}

// schemaTypes maps every object schema of the document to its Go type.
var schemaTypes = map[string]any{
	"Error":                         client.Error{},
	"AuthChallengeRequest":          client.AuthChallengeRequest{},
	"AuthChallengeResponse":         client.AuthChallengeResponse{},
	"AuthVerifyRequest":             client.AuthVerifyRequest{},
	"AuthVerifyResponse":            client.AuthVerifyResponse{},
	"LogoutResponse":                client.LogoutResponse{},
	"HealthStatus":                  client.HealthStatus{},
	"StakeRequirements":             client.StakeRequirements{},
	"StakeStatus":                   client.StakeStatus{},
	"DevSetStakeRequest":            client.DevSetStakeRequest{},
	"SlashingEvent":                 client.SlashingEvent{},
	"DevRecordSlashRequest":         client.DevRecordSlashRequest{},
	"ListSlashingEventsResponse":    client.ListSlashingEventsResponse{},
	"AgrStatus":                     client.AgrStatus{},
	"AgrLedgerEntry":                client.AgrLedgerEntry{},
	"ListAgrLedgerResponse":         client.ListAgrLedgerResponse{},
	"DevMintRequest":                client.DevMintRequest{},
	"BoostJobRequest":               client.BoostJobRequest{},
	"BoostJobResponse":              client.BoostJobResponse{},
	"Evidence":                      client.Evidence{},
	"Job":                           client.Job{},
	"CreateJobRequest":              client.CreateJobRequest{},
	"Post":                          client.Post{},
	"CreatePostRequest":             client.CreatePostRequest{},
	"ListPostsResponse":             client.ListPostsResponse{},
	"ListJobsResponse":              client.ListJobsResponse{},
	"CreateSubmissionRequest":       client.CreateSubmissionRequest{},
	"Submission":                    client.Submission{},
	"CreateSubmissionResponse":      client.CreateSubmissionResponse{},
	"Comment":                       client.Comment{},
	"CreateCommentRequest":          client.CreateCommentRequest{},
	"CreateCommentResponse":         client.CreateCommentResponse{},
	"ListCommentsResponse":          client.ListCommentsResponse{},
	"CreateVoteRequest":             client.CreateVoteRequest{},
	"Vote":                          client.Vote{},
	"CreateVoteResponse":            client.CreateVoteResponse{},
	"VoteTally":                     client.VoteTally{},
	"JobVotingSummary":              client.JobVotingSummary{},
	"CreateFinalVoteRequest":        client.CreateFinalVoteRequest{},
	"FinalVote":                     client.FinalVote{},
	"CreateFinalVoteResponse":       client.CreateFinalVoteResponse{},
	"FinalVoteTally":                client.FinalVoteTally{},
	"JobFinalDecisionSummary":       client.JobFinalDecisionSummary{},
	"CloseJobRequest":               client.CloseJobRequest{},
	"CloseJobResponse":              client.CloseJobResponse{},
	"AnchorBatch":                   client.AnchorBatch{},
	"RecordAnchorReceiptRequest":    client.RecordAnchorReceiptRequest{},
	"AnchorProof":                   client.AnchorProof{},
	"AnchorSnapshot":                client.AnchorSnapshot{},
	"Reputation":                    client.Reputation{},
	"DevSetReputationRequest":       client.DevSetReputationRequest{},
	"LeaderboardEntry":              client.LeaderboardEntry{},
	"LeaderboardResponse":           client.LeaderboardResponse{},
	"EconomyPolicy":                 client.EconomyPolicy{},
	"TreasuryInfo":                  client.TreasuryInfo{},
	"Constitution":                  client.Constitution{},
	"SemanticSearchResult":          client.SemanticSearchResult{},
	"SemanticSearchResponse":        client.SemanticSearchResponse{},
	"AgentSpecLinks":                client.AgentSpecLinks{},
	"AgentBootstrapResponse":        client.AgentBootstrapResponse{},
	"JsonRpcRequest":                client.JsonRpcRequest{},
	"JsonRpcResponse":               client.JsonRpcResponse{},
	"Event":                         client.Event{},
	"ListEventsResponse":            client.ListEventsResponse{},
	"CreateWebhookRequest":          client.CreateWebhookRequest{},
	"Webhook":                       client.Webhook{},
	"WebhookWithSecret":             client.WebhookWithSecret{},
	"ListWebhooksResponse":          client.ListWebhooksResponse{},
	"WebhookDelivery":               client.WebhookDelivery{},
	"ListWebhookDeliveriesResponse": client.ListWebhookDeliveriesResponse{},
	"CommitRevealVotingSummary":     client.CommitRevealVotingSummary{},
	"JuryCommitment":                client.JuryCommitment{},
	"CreateCommitmentResponse":      client.CreateCommitmentResponse{},
	"RevealVoteRequest":             client.RevealVoteRequest{},
	"JuryDraw":                      client.JuryDraw{},
	"JuryPanelMember":               client.JuryPanelMember{},
	"JobJury":                       client.JobJury{},
	"JuryEligibleJuror":             client.JuryEligibleJuror{},
	"ListJuryEligibleResponse":      client.ListJuryEligibleResponse{},
	"JuryDuty":                      client.JuryDuty{},
	"ListJuryDutiesResponse":        client.ListJuryDutiesResponse{},
	"JobPayouts":                    client.JobPayouts{},
	"Payout":                        client.Payout{},
}

// TestSchemasMatchTypes holds every property of every object schema equal
// to a json field of its Go type, both ways.
func TestSchemasMatchTypes(t *testing.T) {
	t.Parallel()
	for name, schema := range loadDocument(t).Components.Schemas {
		if len(schema.Properties) == 0 {
			continue
		}
		v, ok := schemaTypes[name]
		require.True(t, ok, "schema %s has no Go type in package client", name)
		fields := map[string]bool{}
		typ := reflect.TypeOf(v)
		for _, f := range reflect.VisibleFields(typ) {
			if f.Anonymous {
				continue // its fields are promoted, as encoding/json does
			}
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag != "" && tag != "-" {
				fields[tag] = true
			}
		}
		for prop := range schema.Properties {
			require.True(t, fields[prop], "schema %s property %q has no field in client.%s", name, prop, typ.Name())
		}
		for f := range fields {
			_, ok := schema.Properties[f]
			require.True(t, ok, "client.%s field %q is not a property of schema %s", typ.Name(), f, name)
		}
	}
}
