package client_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
)

// renderSignIn writes m back in the EIP-4361 layout (the statement-less
// form with two empty lines).
func renderSignIn(m *client.SignInMessage) string {
	var b strings.Builder
	if m.Scheme != "" {
		b.WriteString(m.Scheme + "://")
	}
	b.WriteString(m.Domain + " wants you to sign in with your Ethereum account:\n" + m.Address.Hex() + "\n\n")
	if m.Statement != "" {
		b.WriteString(m.Statement + "\n")
	}
	b.WriteString("\nURI: " + m.URI + "\nVersion: " + m.Version + "\nChain ID: " + strconv.FormatInt(m.ChainID, 10) +
		"\nNonce: " + m.Nonce + "\nIssued At: " + m.IssuedAt.Format(time.RFC3339Nano))
	if !m.ExpirationTime.IsZero() {
		b.WriteString("\nExpiration Time: " + m.ExpirationTime.Format(time.RFC3339Nano))
	}
	if !m.NotBefore.IsZero() {
		b.WriteString("\nNot Before: " + m.NotBefore.Format(time.RFC3339Nano))
	}
	if m.HasRequestID {
		b.WriteString("\nRequest ID: " + m.RequestID)
	}
	if m.Resources != nil {
		b.WriteString("\nResources:")
		for _, r := range m.Resources {
			b.WriteString("\n- " + r)
		}
	}
	return b.String()
}

// FuzzParseSignInMessage: the parser never panics; what it accepts holds
// the grammar's invariants (a checksummed address, version 1, a nonce of
// 8+ alphanumerics, one-line fields) and reads back the same after being
// written out again.
func FuzzParseSignInMessage(f *testing.F) {
	for _, seed := range []string{
		"127.0.0.1:8080 wants you to sign in with your Ethereum account:\n0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n\nSign in to OpenJury as this agent.\n\nURI: http://127.0.0.1:8080\nVersion: 1\nChain ID: 8453\nNonce: 0123456789abcdef0123456789abcdef\nIssued At: 2026-11-25T10:00:00.000Z\nExpiration Time: 2026-11-25T10:05:00.000Z",
		"https://example.com wants you to sign in with your Ethereum account:\n0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359\n\n\nURI: https://example.com/login\nVersion: 1\nChain ID: 1\nNonce: abcdefgh\nIssued At: 2021-09-30T16:25:24+02:00\nNot Before: 2021-09-30T16:25:24Z\nRequest ID: r-1%20\nResources:\n- ipfs://bafy\n- https://example.com/a?b=c",
		"[::1]:80 wants you to sign in with your Ethereum account:\n0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB\n\nURI: http://[::1]\nVersion: 1\nChain ID: 10\nNonce: 12345678\nIssued At: 2026-01-01T00:00:00Z",
		"x wants you to sign in with your Ethereum account:\n0x",
		"",
		"\n\n\n\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		m, err := client.ParseSignInMessage(msg)
		if err != nil {
			require.ErrorIs(t, err, client.ErrMalformedSignIn)
			return
		}
		require.Equal(t, "1", m.Version)
		require.GreaterOrEqual(t, len(m.Nonce), 8)
		require.GreaterOrEqual(t, m.ChainID, int64(0))
		require.Contains(t, msg, m.Address.Hex()) // as written: checksummed
		for _, s := range append([]string{m.Domain, m.Statement, m.URI, m.RequestID}, m.Resources...) {
			require.NotContains(t, s, "\n")
		}
		again, err := client.ParseSignInMessage(renderSignIn(m))
		require.NoError(t, err, "re-rendered:\n%s", renderSignIn(m))
		require.True(t, again.IssuedAt.Equal(m.IssuedAt))
		require.True(t, again.ExpirationTime.Equal(m.ExpirationTime))
		require.True(t, again.NotBefore.Equal(m.NotBefore))
		again.IssuedAt, again.ExpirationTime, again.NotBefore = m.IssuedAt, m.ExpirationTime, m.NotBefore
		require.Equal(t, m, again)
	})
}
