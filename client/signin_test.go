package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/openjurytest"
)

// countingSigner is a Signer that counts the messages it is asked to sign.
type countingSigner struct {
	*client.KeySigner
	calls atomic.Int64
}

func (s *countingSigner) SignPersonal(ctx context.Context, msg []byte) ([]byte, error) {
	s.calls.Add(1)
	return s.KeySigner.SignPersonal(ctx, msg)
}

// newCountingSigner returns a signer with a fresh key whose EIP-55 address
// has an upper-case letter: an address whose checksum leaves every letter
// lower-case (about one key in a few thousand) is its own lower-case form,
// which the "not checksummed" case needs to differ.
func newCountingSigner(t *testing.T) *countingSigner {
	t.Helper()
	for {
		k, err := crypto.GenerateKey()
		require.NoError(t, err)
		s := client.NewKeySigner(k)
		if a := s.Address().Hex(); a != strings.ToLower(a) {
			return &countingSigner{KeySigner: s}
		}
	}
}

// siwe is the fields of a sign-in message a test server sends.
type siwe struct {
	scheme, domain, address, statement, uri, version, chainID, nonce string
	issuedAt, expires, notBefore                                     string
}

// render writes the message in the EIP-4361 layout.
func (m siwe) render() string {
	var b strings.Builder
	if m.scheme != "" {
		b.WriteString(m.scheme + "://")
	}
	b.WriteString(m.domain + " wants you to sign in with your Ethereum account:\n" + m.address + "\n\n")
	if m.statement != "" {
		b.WriteString(m.statement + "\n\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString("URI: " + m.uri + "\nVersion: " + m.version + "\nChain ID: " + m.chainID + "\nNonce: " + m.nonce + "\nIssued At: " + m.issuedAt)
	if m.expires != "" {
		b.WriteString("\nExpiration Time: " + m.expires)
	}
	if m.notBefore != "" {
		b.WriteString("\nNot Before: " + m.notBefore)
	}
	return b.String()
}

// hostileServer answers every challenge with message(srv URL) and counts
// the verify requests it gets; a verify is answered with a token.
type hostileServer struct {
	*httptest.Server
	message  func(base string) string
	verifies atomic.Int64
}

const hostileNonce = "0123456789abcdef0123456789abcdef"

func newHostileServer(t *testing.T) *hostileServer {
	t.Helper()
	h := &hostileServer{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/agents/auth/challenge":
			var req client.AuthChallengeRequest
			_ = json.NewDecoder(r.Body).Decode(&req)
			_ = json.NewEncoder(w).Encode(client.AuthChallengeResponse{
				Address: req.Address, Nonce: hostileNonce, MessageToSign: h.message(h.URL), ExpiresInSeconds: 300,
			})
		case "/api/v1/agents/auth/verify":
			h.verifies.Add(1)
			_ = json.NewEncoder(w).Encode(client.AuthVerifyResponse{AccessToken: "harvested", TokenType: "bearer", ExpiresInSeconds: 60})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(h.Close)
	return h
}

// TestSignInRefusesHostileMessages: a server that sends a sign-in message
// for another site, another URI, another address, another chain, an
// expired or not yet valid one, or garbage gets no signature: Login fails
// with ErrSignInRefused naming what did not match, the signer is never
// called and no verify request is sent. The well-formed message of the
// same server is signed (the checks pass what they should).
func TestSignInRefusesHostileMessages(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	ts := func(d time.Duration) string { return now.Add(d).Format("2006-01-02T15:04:05.000Z") }
	stranger := common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	// good is the message an honest server at base sends to signer.
	good := func(base string, signer common.Address) siwe {
		return siwe{
			domain: strings.TrimPrefix(base, "http://"), address: signer.Hex(), statement: "Sign in to OpenJury as this agent.",
			uri: base, version: "1", chainID: "8453", nonce: hostileNonce, issuedAt: ts(-time.Second), expires: ts(5 * time.Minute),
		}
	}
	cases := []struct {
		name   string
		edit   func(m *siwe, base string)
		raw    func(m siwe) string // replaces render when set
		opts   []client.Option
		refuse string // "" = signed
	}{
		{name: "honest", edit: func(*siwe, string) {}},
		{name: "honest with chain id", edit: func(*siwe, string) {}, opts: []client.Option{client.WithChainID(8453)}},
		{name: "honest without statement", edit: func(m *siwe, _ string) { m.statement = "" }},
		{name: "honest with scheme", edit: func(m *siwe, _ string) { m.scheme = "http" }},
		{name: "honest with trailing slash", edit: func(m *siwe, base string) { m.uri = base + "/" }},
		{name: "another domain", edit: func(m *siwe, _ string) { m.domain = "jury.example.com"; m.uri = "https://jury.example.com" }, refuse: `for domain "jury.example.com"`},
		{name: "another domain, our URI", edit: func(m *siwe, _ string) { m.domain = "jury.example.com" }, refuse: `for domain "jury.example.com"`},
		{name: "another port", edit: func(m *siwe, _ string) { m.domain = "127.0.0.1:1" }, refuse: `for domain "127.0.0.1:1"`},
		{name: "domain with user info", edit: func(m *siwe, base string) { m.domain = "evil@" + m.domain }, refuse: "for domain"},
		{name: "another URI", edit: func(m *siwe, _ string) { m.uri = "https://jury.example.com" }, refuse: `URI "https://jury.example.com"`},
		{name: "URI with https", edit: func(m *siwe, base string) { m.uri = strings.Replace(base, "http:", "https:", 1) }, refuse: "URI"},
		{name: "URI on another path", edit: func(m *siwe, base string) { m.uri = base + "/other-service" }, refuse: "URI"},
		{name: "URI with a query", edit: func(m *siwe, base string) { m.uri = base + "/?next=x" }, refuse: "URI"},
		{name: "another scheme", edit: func(m *siwe, _ string) { m.scheme = "https" }, refuse: `scheme "https"`},
		{name: "another address", edit: func(m *siwe, _ string) { m.address = stranger.Hex() }, refuse: "for address " + stranger.Hex()},
		{name: "address not checksummed", edit: func(m *siwe, _ string) { m.address = strings.ToLower(m.address) }, refuse: "EIP-55"},
		{name: "wrong chain id", edit: func(m *siwe, _ string) { m.chainID = "1" }, opts: []client.Option{client.WithChainID(8453)}, refuse: "chain id 1, but the expected chain id is 8453"},
		{name: "chain id overflow", edit: func(m *siwe, _ string) { m.chainID = "99999999999999999999" }, refuse: "chain id"},
		{name: "expired", edit: func(m *siwe, _ string) { m.issuedAt, m.expires = ts(-time.Hour), ts(-time.Minute) }, refuse: "expired at"},
		{name: "no expiration", edit: func(m *siwe, _ string) { m.expires = "" }, refuse: "no Expiration Time"},
		{name: "issued in the future", edit: func(m *siwe, _ string) { m.issuedAt, m.expires = ts(time.Hour), ts(2*time.Hour) }, refuse: "issued in the future"},
		{name: "expires before issued", edit: func(m *siwe, _ string) { m.issuedAt = ts(10 * time.Minute) }, refuse: "before it is issued"},
		{name: "not before in the future", edit: func(m *siwe, _ string) { m.notBefore = ts(time.Hour) }, refuse: "not valid before"},
		{name: "another nonce", edit: func(m *siwe, _ string) { m.nonce = "ffffffffffffffff" }, refuse: "nonce"},
		{name: "version 2", edit: func(m *siwe, _ string) { m.version = "2" }, refuse: "version"},
		{name: "garbage", raw: func(siwe) string { return "please sign this: 0xdeadbeef" }, refuse: "not an EIP-4361"},
		{name: "empty", raw: func(siwe) string { return "" }, refuse: "not an EIP-4361"},
		{name: "CRLF", raw: func(m siwe) string { return strings.ReplaceAll(m.render(), "\n", "\r\n") }, refuse: "control character"},
		{name: "extra line", raw: func(m siwe) string { return m.render() + "\nTransfer: everything" }, refuse: "unexpected"},
		{name: "two messages", raw: func(m siwe) string { return m.render() + "\n\n" + m.render() }, refuse: "unexpected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newHostileServer(t)
			signer := newCountingSigner(t)
			srv.message = func(base string) string {
				m := good(base, signer.Address())
				if tc.raw != nil {
					return tc.raw(m)
				}
				tc.edit(&m, base)
				return m.render()
			}
			c, err := client.New(srv.URL, append([]client.Option{client.WithSigner(signer)}, tc.opts...)...)
			require.NoError(t, err)
			_, err = c.Login(t.Context())
			if tc.refuse == "" {
				require.NoError(t, err)
				require.EqualValues(t, 1, signer.calls.Load())
				require.EqualValues(t, 1, srv.verifies.Load())
				return
			}
			require.ErrorIs(t, err, client.ErrSignInRefused)
			require.ErrorContains(t, err, tc.refuse)
			require.Zero(t, signer.calls.Load(), "the signer was asked")
			require.Zero(t, srv.verifies.Load(), "a verify was sent")
			require.Empty(t, c.Token())
		})
	}
}

// TestSignInRefusedOnAuthenticatedCall: an authenticated call that signs
// in by itself gets the same refusal, and the write is not sent.
func TestSignInRefusedOnAuthenticatedCall(t *testing.T) {
	t.Parallel()
	srv := newHostileServer(t)
	srv.message = func(string) string {
		return siwe{domain: "bank.example", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", uri: "https://bank.example", version: "1",
			chainID: "1", nonce: hostileNonce, issuedAt: time.Now().UTC().Format(time.RFC3339), expires: time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}.render()
	}
	signer := newCountingSigner(t)
	c, err := client.New(srv.URL, client.WithSigner(signer))
	require.NoError(t, err)
	_, err = c.CreateJob(t.Context(), client.CreateJobRequest{Title: "t", Prompt: "p", BountyUSDC: "1"})
	require.ErrorIs(t, err, client.ErrSignInRefused)
	require.Zero(t, signer.calls.Load())
}

// TestInsecureHTTP: plain http only to loopback unless WithInsecureHTTP.
func TestInsecureHTTP(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"http://jury.example.com", "http://10.0.0.1:8080", "http://localhost.example.com", "http://127.0.0.1.nip.io",
		"http://[2001:db8::1]:8080", "http://0.0.0.0:8080", "http://192.168.1.2",
	} {
		_, err := client.New(u)
		require.ErrorIs(t, err, client.ErrInsecureURL, u)
		require.ErrorContains(t, err, "--insecure", u)
		_, err = client.New(u, client.WithInsecureHTTP())
		require.NoError(t, err, u)
	}
	for _, u := range []string{
		"http://localhost:8080", "http://LOCALHOST", "http://127.0.0.1:1", "http://127.3.4.5", "http://[::1]:8080",
		"https://jury.example.com", "https://10.0.0.1",
	} {
		_, err := client.New(u)
		require.NoError(t, err, u)
	}
}

// TestSignInRealServer: the real server's messages (transport + auth)
// pass the checks, with and without the expected chain id, and a client
// expecting another chain refuses them before signing.
func TestSignInRealServer(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	for _, opts := range [][]client.Option{nil, {client.WithChainID(openjurytest.DefaultChainID)}} {
		signer := newCountingSigner(t)
		c, err := client.New(srv.URL, append(opts, client.WithSigner(signer), client.WithClock(srv.Clock.Now))...)
		require.NoError(t, err)
		v, err := c.Login(t.Context())
		require.NoError(t, err)
		require.NotEmpty(t, v.AccessToken)
		require.EqualValues(t, 1, signer.calls.Load())
	}

	signer := newCountingSigner(t)
	c, err := client.New(srv.URL, client.WithSigner(signer), client.WithChainID(1), client.WithClock(srv.Clock.Now))
	require.NoError(t, err)
	_, err = c.Login(t.Context())
	require.ErrorIs(t, err, client.ErrSignInRefused)
	require.ErrorContains(t, err, "expected chain id is 1")
	require.Zero(t, signer.calls.Load())

	// The server's message parses field by field.
	ch, err := c.CreateAuthChallenge(t.Context(), client.AuthChallengeRequest{Address: signer.Address().Hex()})
	require.NoError(t, err)
	m, err := client.ParseSignInMessage(ch.MessageToSign)
	require.NoError(t, err)
	require.Equal(t, strings.TrimPrefix(srv.URL, "http://"), m.Domain)
	require.Equal(t, srv.URL, m.URI)
	require.Equal(t, signer.Address(), m.Address)
	require.Equal(t, ch.Nonce, m.Nonce)
	require.EqualValues(t, openjurytest.DefaultChainID, m.ChainID)
	require.Equal(t, "Sign in to OpenJury as this agent.", m.Statement)
	require.True(t, m.ExpirationTime.After(m.IssuedAt))
}

// TestSignInLoopbackHint: a local server named by another loopback name
// is refused, with the URL to call instead.
func TestSignInLoopbackHint(t *testing.T) {
	t.Parallel()
	srv := newHostileServer(t)
	signer := newCountingSigner(t)
	srv.message = func(base string) string {
		port := base[strings.LastIndexByte(base, ':')+1:]
		return siwe{domain: "localhost:" + port, address: signer.Address().Hex(), uri: "http://localhost:" + port, version: "1", chainID: "8453",
			nonce: hostileNonce, issuedAt: time.Now().UTC().Format(time.RFC3339), expires: time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}.render()
	}
	c, err := client.New(srv.URL, client.WithSigner(signer))
	require.NoError(t, err)
	_, err = c.Login(t.Context())
	require.ErrorIs(t, err, client.ErrSignInRefused)
	require.ErrorContains(t, err, "call the server by the URL it names: http://localhost:")
	require.Zero(t, signer.calls.Load())
	require.False(t, errors.Is(err, client.ErrInsecureURL))
}

// TestSignInHook: the hook sees every sign-in the client makes, its own
// Login and the automatic one after a 401, with the token the client then
// uses; a starting token (WithToken) is used without a sign-in.
func TestSignInHook(t *testing.T) {
	t.Parallel()
	srv := openjurytest.NewServer(t)
	srv.Clock.Set(time.Now())
	signer := newCountingSigner(t)
	var seen []client.AuthVerifyResponse
	c, err := client.New(srv.URL, client.WithSigner(signer), client.WithToken("stale"),
		client.WithSignInHook(func(v client.AuthVerifyResponse) { seen = append(seen, v) }))
	require.NoError(t, err)
	_, err = c.CreateJob(context.Background(), client.CreateJobRequest{Title: "t", Prompt: "p", BountyUSDC: "1"})
	require.NoError(t, err)
	require.Len(t, seen, 1, "the stale token's 401 made one sign-in")
	require.Equal(t, c.Token(), seen[0].AccessToken)
	require.Positive(t, seen[0].ExpiresInSeconds)

	again, err := client.New(srv.URL, client.WithSigner(newCountingSigner(t)), client.WithToken(c.Token()),
		client.WithSignInHook(func(client.AuthVerifyResponse) { t.Error("no sign-in expected") }))
	require.NoError(t, err)
	_, err = again.CreateJob(context.Background(), client.CreateJobRequest{Title: "t", Prompt: "p", BountyUSDC: "1"})
	require.NoError(t, err, "a valid starting token is used as it is")
	_, err = c.Login(context.Background())
	require.NoError(t, err)
	require.Len(t, seen, 2)
	require.Equal(t, int64(2), signer.calls.Load())
}
