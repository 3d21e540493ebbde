package main

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"
)

func TestSignRecoversToAddress(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-new"}, nil, &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2)
	// Shell assignments, for the README's eval "$(walletsign -new)".
	require.Regexp(t, `^key=0x[0-9a-f]{64}$`, lines[0])
	require.Regexp(t, `^address=0x[0-9a-fA-F]{40}$`, lines[1])
	key := strings.TrimPrefix(lines[0], "key=")
	addr := strings.TrimPrefix(lines[1], "address=")

	out.Reset()
	require.NoError(t, run([]string{"-key", key, "-address"}, nil, &out))
	require.Equal(t, addr, strings.TrimSpace(out.String()))

	out.Reset()
	msg := "example.com wants you to sign in with your Ethereum account:\n" + addr
	require.NoError(t, run([]string{"-key", key}, strings.NewReader(msg), &out))
	sig, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(out.String()), "0x"))
	require.NoError(t, err)
	require.Len(t, sig, 65)
	require.Contains(t, []byte{27, 28}, sig[64])
	sig[64] -= 27
	pub, err := crypto.SigToPub(accounts.TextHash([]byte(msg)), sig)
	require.NoError(t, err)
	require.Equal(t, addr, crypto.PubkeyToAddress(*pub).Hex())

	require.Error(t, run(nil, nil, &out), "no key")
	require.Error(t, run([]string{"-key", "0xzz"}, nil, &out))
}
