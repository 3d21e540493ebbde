package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
)

// TestSignMessage: a sign-in message piped into sign-message (with the
// newline an echo adds) gives a signature the server accepts for the
// key's address; a wrong key's signature is refused; no key and an empty
// message are usage errors.
func TestSignMessage(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	ctx := context.Background()
	a, other := newAgent(t), newAgent(t)
	anon, err := client.New(srv.URL)
	require.NoError(t, err)
	sign := func(key, msg string, args ...string) result {
		cmd := exec.Command(binary, append([]string{"sign-message"}, args...)...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OPENJURY_HOME=" + t.TempDir()}
		if key != "" {
			cmd.Env = append(cmd.Env, "OPENJURY_PRIVATE_KEY="+key)
		}
		cmd.Stdin = strings.NewReader(msg)
		return runCmd(t, cmd)
	}
	verify := func(sig string) error {
		ch, err := anon.CreateAuthChallenge(ctx, client.AuthChallengeRequest{Address: a.addr})
		require.NoError(t, err)
		r := sign(sig, ch.MessageToSign+"\n")
		require.Equal(t, 0, r.code, r.stderr)
		_, err = anon.VerifyAuthChallenge(ctx, client.AuthVerifyRequest{Address: a.addr, Signature: strings.TrimSpace(r.stdout), Nonce: &ch.Nonce})
		return err
	}
	require.NoError(t, verify(a.key), "the server accepts the signature")
	require.Error(t, verify(other.key), "another key's signature is refused")

	r := sign(a.key, "hello", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var out struct{ Address, Signature string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out))
	require.Equal(t, a.addr, out.Address)
	require.Len(t, out.Signature, 2+65*2)
	require.Equal(t, 2, sign(a.key, "\n").code, "an empty message is a usage error")
	require.NotEqual(t, 0, sign("", "hello").code, "no key")
}
