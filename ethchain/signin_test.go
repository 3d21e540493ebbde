package ethchain_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest"
)

// contractSignIn asks a challenge for wallet, has signer sign it and
// returns the verify response.
func contractSignIn(t *testing.T, srv *openjurytest.Server, wallet openjury.Address, signer *openjurytest.Wallet) *openjurytest.Response {
	t.Helper()
	ch := srv.Do(t, http.MethodPost, "/api/v1/agents/auth/challenge", "", map[string]string{"address": wallet.String()})
	require.Equal(t, http.StatusOK, ch.Status, string(ch.Body))
	var c struct {
		Message string `json:"message_to_sign"`
	}
	ch.JSON(t, &c)
	return srv.Do(t, http.MethodPost, "/api/v1/agents/auth/verify", "", map[string]string{
		"address": wallet.String(), "signature": signer.Sign(t, c.Message),
	})
}

// TestContractWalletSignIn: an ERC-1271 wallet on the simulated chain signs
// in with its owner key's signature; another key's gets 401; with the node
// unreachable the sign-in answers 503.
func TestContractWalletSignIn(t *testing.T) {
	t.Parallel()
	ch, client := httpChain(t)
	srv := openjurytest.NewServer(t, openjurytest.WithContractVerifier(client))

	owner, stranger := openjurytest.NewWallet(t), openjurytest.NewWallet(t)
	wallet := openjury.AddressFromBytes(ch.DeployWallet(common.Address(owner.Address().Bytes())))

	r := contractSignIn(t, srv, wallet, owner)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var tok struct {
		Token string `json:"access_token"`
	}
	r.JSON(t, &tok)
	require.NotEmpty(t, tok.Token)
	addr, err := srv.Auth.Authenticate(context.Background(), tok.Token)
	require.NoError(t, err)
	require.Equal(t, wallet, addr, "the token is the contract wallet's")

	r = contractSignIn(t, srv, wallet, stranger)
	require.Equal(t, http.StatusUnauthorized, r.Status, string(r.Body))

	// Plain wallets still sign in as before.
	require.NotEmpty(t, srv.SignIn(t, stranger))

	ch.Proxy().Stop()
	r = contractSignIn(t, srv, wallet, owner)
	require.Equal(t, http.StatusServiceUnavailable, r.Status, string(r.Body))
	require.NotContains(t, string(r.Body), ch.Proxy().Addr(), "the RPC URL is never returned")
	ch.Proxy().Start()
	r = contractSignIn(t, srv, wallet, owner)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
}
