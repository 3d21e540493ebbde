package transport

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/wire"
)

// TestDecodeRequestTellsAbsentFromEmpty: a wire request decodes into
// values, and the members say which the body held, as pointers did: absent
// and null are missing, "" and 0 are given (the domain judges them), a
// member named in another case counts as encoding/json reads it.
func TestDecodeRequestTellsAbsentFromEmpty(t *testing.T) {
	t.Parallel()
	decode := func(body string) (wire.RecordAnchorReceiptRequest, members, error) {
		var req wire.RecordAnchorReceiptRequest
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		m, err := decodeRequest(r, &req)
		return req, m, err
	}
	req, m, err := decode(`{"anchor_tx_hash":"","anchor_chain_id":null,"anchor_block_number":0,"Anchor_Log_Index":7}`)
	require.NoError(t, err)
	require.True(t, m.has("anchor_tx_hash"), `"" is given`)
	require.False(t, m.has("anchor_chain_id"), "null is missing")
	require.False(t, m.has("anchor_contract_address"), "absent is missing")
	require.True(t, m.has("anchor_block_number"), "0 is given")
	require.True(t, m.has("anchor_log_index"), "another case is the member, as encoding/json reads it")
	require.EqualValues(t, 7, req.AnchorLogIndex)
	require.Nil(t, given(m, "anchor_chain_id", &req.AnchorChainID))
	require.Equal(t, &req.AnchorBlockNumber, given(m, "anchor_block_number", &req.AnchorBlockNumber))
	require.EqualError(t, m.require("anchor_tx_hash", "anchor_chain_id", "anchor_contract_address"), "transport.decode: invalid: anchor_chain_id: is required")
	require.NoError(t, m.require("anchor_tx_hash", "anchor_block_number"))

	for body, detail := range map[string]string{
		``:                        "request body is required",
		`null`:                    "",
		`[]`:                      "request body must be a JSON object",
		`{"anchor_chain_id":"1"}`: "anchor_chain_id: must be an integer",
		`{} {}`:                   "request body must hold a single JSON object",
	} {
		_, m, err := decode(body)
		if detail == "" {
			require.NoError(t, err, body)
			require.Error(t, m.require("anchor_tx_hash"), "a null body holds no member")
			continue
		}
		require.ErrorContains(t, err, detail, body)
	}
}

// TestEmbeddedViewNamesTheMember: a type error inside a server-side view
// that embeds a wire request names the body's member, not the Go type.
func TestEmbeddedViewNamesTheMember(t *testing.T) {
	t.Parallel()
	var req submissionBody
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"job_id":5}`))
	_, err := decodeRequest(r, &req)
	require.EqualError(t, err, "transport.decode: invalid: job_id: must be a string")
}
