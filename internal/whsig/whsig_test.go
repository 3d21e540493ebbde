package whsig_test

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/internal/whsig"
)

// TestAgainstTheStandardWebhooksLibrary: what whsig signs, the scheme's
// own Go library verifies, and what the library signs, whsig verifies;
// with the new and the old secret after a rotation.
func TestAgainstTheStandardWebhooksLibrary(t *testing.T) {
	t.Parallel()
	secret, err := whsig.NewSecret(nil)
	require.NoError(t, err)
	old, err := whsig.NewSecret(bytes.NewReader(bytes.Repeat([]byte{7}, 32)))
	require.NoError(t, err)
	require.Equal(t, "whsec_BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=", old)
	now := time.Now()
	body := []byte(`{"id":"evt_0000000000000001","type":"job.created","data":{"title":"ünïcode"}}`)
	sig, err := whsig.SignatureHeader([]string{secret, old}, "evt_0000000000000001", now, body)
	require.NoError(t, err)
	h := http.Header{}
	h.Set(standardwebhooks.HeaderWebhookID, "evt_0000000000000001")
	h.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(now.Unix(), 10))
	h.Set(standardwebhooks.HeaderWebhookSignature, sig)
	for _, s := range []string{secret, old} {
		wh, err := standardwebhooks.NewWebhook(s)
		require.NoError(t, err)
		require.NoError(t, wh.Verify(body, h), "the library verifies whsig's signature")
		require.NoError(t, whsig.Verify(s, h.Get, body, now, 0))
	}

	// The library signs; whsig verifies.
	wh, err := standardwebhooks.NewWebhook(secret)
	require.NoError(t, err)
	libSig, err := wh.Sign("msg_1", now, body)
	require.NoError(t, err)
	h2 := http.Header{}
	h2.Set(whsig.HeaderID, "msg_1")
	h2.Set(whsig.HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	h2.Set(whsig.HeaderSignature, libSig)
	require.NoError(t, whsig.Verify(secret, h2.Get, body, now, 0))
}

// TestVerifyRefuses: tampering with the body, the id or the timestamp,
// another secret, a stale or future timestamp, or missing headers fail.
func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	secret, _ := whsig.NewSecret(nil)
	other, _ := whsig.NewSecret(nil)
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"a":1}`)
	sig, err := whsig.Sign(secret, "evt_1", now, body)
	require.NoError(t, err)
	headers := func(id string, ts time.Time, s string) func(string) string {
		m := map[string]string{whsig.HeaderID: id, whsig.HeaderTimestamp: strconv.FormatInt(ts.Unix(), 10), whsig.HeaderSignature: s}
		return func(k string) string { return m[k] }
	}
	require.NoError(t, whsig.Verify(secret, headers("evt_1", now, sig), body, now, 0))
	require.ErrorIs(t, whsig.Verify(secret, headers("evt_1", now, sig), []byte(`{"a":2}`), now, 0), whsig.ErrNoSignature)
	require.ErrorIs(t, whsig.Verify(secret, headers("evt_2", now, sig), body, now, 0), whsig.ErrNoSignature)
	require.ErrorIs(t, whsig.Verify(other, headers("evt_1", now, sig), body, now, 0), whsig.ErrNoSignature)
	later := now.Add(time.Second)
	require.ErrorIs(t, whsig.Verify(secret, headers("evt_1", later, sig), body, later, 0), whsig.ErrNoSignature, "the timestamp is signed")
	require.ErrorIs(t, whsig.Verify(secret, headers("evt_1", now, sig), body, now.Add(6*time.Minute), 0), whsig.ErrTooOld)
	require.ErrorIs(t, whsig.Verify(secret, headers("evt_1", now, sig), body, now.Add(-6*time.Minute), 0), whsig.ErrTooNew)
	require.NoError(t, whsig.Verify(secret, headers("evt_1", now, sig), body, now.Add(6*time.Minute), 10*time.Minute))
	require.ErrorIs(t, whsig.Verify(secret, headers("", now, sig), body, now, 0), whsig.ErrMissingHeaders)
	require.ErrorIs(t, whsig.Verify(secret, headers("evt_1", now, "v2,"+sig[3:]), body, now, 0), whsig.ErrNoSignature)
	require.ErrorIs(t, whsig.Verify(secret, func(k string) string {
		if k == whsig.HeaderTimestamp {
			return "yesterday"
		}
		return headers("evt_1", now, sig)(k)
	}, body, now, 0), whsig.ErrBadTimestamp)
	_, err = whsig.Sign("whsec_!!!", "evt_1", now, body)
	require.Error(t, err)
}
