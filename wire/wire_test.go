package wire_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/wire"
)

// TestTimeIsTheServersFormat: an instant is written exactly as the
// kernel formats times (openjury.FormatTime: UTC, milliseconds, even when
// they are zero), whatever its zone and precision, and read back as the
// same instant.
func TestTimeIsTheServersFormat(t *testing.T) {
	t.Parallel()
	paris := time.FixedZone("CET", 3600)
	for _, at := range []time.Time{
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 500_000_000, time.UTC),
		time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, paris),
		time.Date(1999, 2, 3, 0, 0, 0, 120_000, time.UTC),
		time.Unix(0, 0),
	} {
		b, err := json.Marshal(wire.NewTime(at))
		require.NoError(t, err)
		require.Equal(t, `"`+openjury.FormatTime(at)+`"`, string(b))
		require.Equal(t, openjury.FormatTime(at), wire.NewTime(at).String())
		var back wire.Time
		require.NoError(t, json.Unmarshal(b, &back))
		require.True(t, back.Equal(at.Truncate(time.Millisecond)), "%s read back as %s", at, back)
	}
}

// TestTimeRefusesWhatIsNotAnInstant: a number, an object or text that is
// not RFC 3339 is an error; null leaves the value as it was.
func TestTimeRefusesWhatIsNotAnInstant(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{`12`, `{}`, `"yesterday"`, `"2026-01-02"`, `true`} {
		var v wire.Time
		require.Error(t, json.Unmarshal([]byte(bad), &v), bad)
	}
	var te *json.UnmarshalTypeError
	var v struct {
		At wire.Time `json:"at"`
	}
	require.ErrorAs(t, json.Unmarshal([]byte(`{"at":5}`), &v), &te)
	require.Equal(t, "at", te.Field)
	before := wire.NewTime(time.Unix(1, 0))
	v.At = before
	require.NoError(t, json.Unmarshal([]byte(`{"at":null}`), &v))
	require.Equal(t, before, v.At)
}

// TestNumberIsExactAndRefusesStrings: a request amount keeps its decimal
// text, refuses a JSON string (what json.Number would accept) and every
// other non-number, and never writes text that is not a JSON number.
func TestNumberIsExactAndRefusesStrings(t *testing.T) {
	t.Parallel()
	var req wire.CreateJobRequest
	require.NoError(t, json.Unmarshal([]byte(`{"bounty_usdc": 100.000001}`), &req))
	require.Equal(t, wire.Number("100.000001"), req.BountyUSDC)
	for _, bad := range []string{`"5"`, `true`, `[]`, `{}`} {
		var r wire.CreateJobRequest
		var te *json.UnmarshalTypeError
		require.ErrorAs(t, json.Unmarshal([]byte(`{"bounty_usdc":`+bad+`}`), &r), &te, bad)
		require.Equal(t, "bounty_usdc", te.Field)
		require.Equal(t, reflect.TypeFor[wire.Number](), te.Type)
	}
	for _, bad := range []wire.Number{"abc", "1e", "5 ", "NaN", "\"5\"", "{}"} {
		_, err := json.Marshal(wire.CreateJobRequest{BountyUSDC: bad})
		require.Error(t, err, "%q", bad)
	}
	require.Equal(t, wire.Number("12.5"), wire.FloatNumber(12.5))
	require.Equal(t, wire.Number("0.000001"), wire.FloatNumber(0.000001))
	f, err := wire.Number("12.5").Float64()
	require.NoError(t, err)
	require.InDelta(t, 12.5, f, 0)
	// An amount left unset is absent, so the server names it as required.
	b, err := json.Marshal(wire.CreateJobRequest{Title: "t", Prompt: "p"})
	require.NoError(t, err)
	require.NotContains(t, string(b), "bounty_usdc")
}

// answers are the types the server answers with: every member of each is
// always written (null when unknown), so none may carry omitempty.
var answers = []any{
	wire.AuthChallengeResponse{}, wire.AuthVerifyResponse{}, wire.LogoutResponse{}, wire.HealthStatus{}, wire.Error{},
	wire.Job{}, wire.ListJobsResponse{}, wire.BoostJobResponse{}, wire.CloseJobResponse{},
	wire.Evidence{}, wire.Submission{}, wire.CreateSubmissionResponse{},
	wire.Comment{}, wire.CreateCommentResponse{}, wire.ListCommentsResponse{}, wire.Post{}, wire.ListPostsResponse{},
	wire.Vote{}, wire.CreateVoteResponse{}, wire.JuryCommitment{}, wire.CreateCommitmentResponse{}, wire.VoteTally{},
	wire.JobVotingSummary{}, wire.CommitRevealVotingSummary{}, wire.FinalVote{}, wire.CreateFinalVoteResponse{},
	wire.FinalVoteTally{}, wire.JobFinalDecisionSummary{},
	wire.JuryDraw{}, wire.JuryPanelMember{}, wire.JobJury{}, wire.JuryEligibleJuror{}, wire.ListJuryEligibleResponse{},
	wire.JuryDuty{}, wire.ListJuryDutiesResponse{},
	wire.AnchorBatch{}, wire.AnchorProof{}, wire.Payout{}, wire.JobPayouts{},
	wire.StakeRequirements{}, wire.StakeStatus{}, wire.SlashingEvent{}, wire.ListSlashingEventsResponse{},
	wire.AgrStatus{}, wire.AgrLedgerEntry{}, wire.ListAgrLedgerResponse{},
	wire.Reputation{}, wire.LeaderboardEntry{}, wire.LeaderboardResponse{},
	wire.EconomyPolicy{}, wire.USDCSplit{}, wire.VotingRules{}, wire.TreasuryInfo{}, wire.Constitution{},
	wire.AgentSpecLinks{}, wire.AgentBootstrapResponse{}, wire.SemanticSearchResult{}, wire.SemanticSearchResponse{},
	wire.Event{}, wire.ListEventsResponse{}, wire.Webhook{}, wire.WebhookWithSecret{}, wire.ListWebhooksResponse{},
	wire.WebhookDelivery{}, wire.ListWebhookDeliveriesResponse{},
}

// TestAnswersWriteEveryMember: no answer type leaves a member out, and
// the zero value of each writes every json field, nil ones as null.
func TestAnswersWriteEveryMember(t *testing.T) {
	t.Parallel()
	for _, v := range answers {
		typ := reflect.TypeOf(v)
		b, err := json.Marshal(v)
		if typ == reflect.TypeFor[wire.Event]() || typ == reflect.TypeFor[wire.ListEventsResponse]() {
			// A zero Event has no data; the server always writes {} there.
			v = wire.Event{Data: json.RawMessage(`{}`)}
			b, err = json.Marshal(v)
		}
		require.NoError(t, err, typ.Name())
		var got map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &got), typ.Name())
		n := 0
		for _, f := range reflect.VisibleFields(reflect.TypeOf(v)) {
			if f.Anonymous || !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			require.NotContainsf(t, opts, "omitempty", "%s.%s: an answer writes every member", typ.Name(), f.Name)
			require.Containsf(t, got, name, "%s.%s is not written", typ.Name(), f.Name)
			if k := f.Type.Kind(); k == reflect.Pointer || k == reflect.Slice || k == reflect.Map {
				if f.Type != reflect.TypeFor[json.RawMessage]() {
					require.Equalf(t, "null", string(got[name]), "%s.%s: nil is null", typ.Name(), f.Name)
				}
			}
			n++
		}
		require.Len(t, got, n, typ.Name())
	}
}
