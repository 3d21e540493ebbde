package transport

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/wire"
)

// requestTypes makes one of each JSON request DTO the handlers decode.
var requestTypes = []func() any{
	func() any { return new(wire.AuthChallengeRequest) },
	func() any { return new(wire.AuthVerifyRequest) },
	func() any { return new(wire.CreateJobRequest) },
	func() any { return new(submissionBody) },
	func() any { return new(wire.CreateVoteRequest) },
	func() any { return new(wire.RevealVoteRequest) },
	func() any { return new(wire.CreateFinalVoteRequest) },
	func() any { return new(wire.CloseJobRequest) },
	func() any { return new(wire.CreateCommentRequest) },
	func() any { return new(wire.CreatePostRequest) },
	func() any { return new(wire.BoostJobRequest) },
	func() any { return new(wire.DevMintRequest) },
	func() any { return new(wire.DevSetReputationRequest) },
	func() any { return new(wire.DevSetStakeRequest) },
	func() any { return new(wire.DevRecordSlashRequest) },
	func() any { return new(wire.RecordAnchorReceiptRequest) },
	func() any { return new(wire.CreateWebhookRequest) },
}

// FuzzDecodeJSON feeds arbitrary bodies to decodeJSON for every request
// DTO, and the submission's evidence to decodeEvidence: each either
// decodes or fails with an Invalid error whose detail is client-safe, and
// nothing panics.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"title":"t","prompt":"p","bounty_usdc":12.5,"tags":["a"]}`,
		`{"job_id":"x","content":"c","evidence":[{"type":"url","confidence":0.5,"metadata":{"a":1e999}}]}`,
		`{"evidence":[null,{},[]]}`,
		`{"address":"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed","signature":"0x","nonce":"n"}`,
		`{"amount_usdc":"5"}`, `{"winner_submission_id":7}`, `[]`, `null`, `{}`, `{"a":"\u0000"}`, `{} {}`, `{"title":`, ``,
	} {
		for i := range requestTypes {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		dst := requestTypes[int(which)%len(requestTypes)]()
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(body)))
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 1<<16)
		_, err := decodeRequest(r, dst)
		if err == nil {
			if sub, ok := dst.(*submissionBody); ok {
				_, err = decodeEvidence(sub.Evidence)
			}
		}
		if err == nil {
			return
		}
		kind := openjury.KindOf(err)
		require.Contains(t, []openjury.Kind{openjury.Invalid, openjury.TooLarge}, kind, "%v", err)
		detail := openjury.DetailOf(err)
		require.NotEmpty(t, detail)
		_, jerr := json.Marshal(map[string]string{"detail": detail})
		require.NoError(t, jerr)
	})
}
