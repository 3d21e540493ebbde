package openjurytest_test

import (
	"bytes"
	"net/http"
	"sort"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/transport"
)

// FuzzPostBodies sends arbitrary JSON bodies to every documented POST
// operation (signed in, with the dev secret, path parameters set to a real
// job's id; logout aside) of a server on SQLite: no answer is a 5xx and every answer
// matches the OpenAPI document. It covers every request decoder together
// with the validation behind it.
func FuzzPostBodies(f *testing.F) {
	doc, err := openapi3.NewLoader().LoadFromData(transport.OpenAPIDocument(""))
	require.NoError(f, err)
	srv := openjurytest.NewServer(f)
	w := openjurytest.NewWallet(f)
	token := srv.SignIn(f, w)
	srv.SetStake(f, w.Address(), 100)
	srv.MintAGR(f, w.Address(), 1000)
	job := srv.Do(f, http.MethodPost, "/api/v1/jobs", token, map[string]any{"title": "t", "prompt": "p", "bounty_usdc": 1}).Map(f)
	jobID := job["id"].(string)
	var paths []string
	for p, item := range doc.Paths.Map() {
		// Logout would end the fuzzing session's sign-in.
		if item.Post != nil && p != "/api/v1/agents/auth/logout" {
			paths = append(paths, pathParam.ReplaceAllString(p, jobID))
		}
	}
	sort.Strings(paths)
	require.NotEmpty(f, paths)
	for i := range paths {
		for _, b := range oddBodies {
			f.Add(uint8(i), []byte(b))
		}
		f.Add(uint8(i), []byte(`{"job_id":"`+jobID+`","content":"c","evidence":[{"type":"url","source_url":"https://x","confidence":0.5,"metadata":{"n":1e999}}]}`))
		f.Add(uint8(i), []byte(`{"address":"`+w.Address().String()+`","amount":5,"staked_amount":10,"score":3,"amount_agr":1,"duration_hours":1,"winner_submission_id":"`+jobID+`"}`))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := paths[int(which)%len(paths)]
		sendHostile(t, srv, token, http.MethodPost, path, bytes.NewReader(body))
	})
}
