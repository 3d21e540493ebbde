package auth_test

import (
	"context"
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/openjurytest"
)

// BenchmarkSignIn measures a sign-in on SQLite next to its ceiling, in
// one run:
//
//   - ecrecover: recovering the signer of a challenge message and
//     comparing the address, the cryptographic work a verify cannot skip;
//   - verify: Service.Verify of a signed challenge (the live challenges
//     read, the recovery, the token and the challenge redeemed in one
//     transaction); the challenge and the client's signature are made with
//     the timer stopped;
//   - challenge+verify: both requests of a sign-in, the signature made
//     with the timer stopped;
//   - authenticate: the bearer lookup of every later request.
//
// BENCHMARKS.md gives each as a ratio to ecrecover.
func BenchmarkSignIn(b *testing.B) {
	ctx := context.Background()
	f := newFixture(b, nil)
	w := openjurytest.NewWallet(b)
	addr := w.Address().String()
	signed := func(b *testing.B) auth.VerifyInput {
		c, err := f.svc.Challenge(ctx, addr)
		if err != nil {
			b.Fatal(err)
		}
		return auth.VerifyInput{Address: addr, Nonce: c.Nonce, Signature: "0x" + hex.EncodeToString(w.SignBytes(b, c.Message))}
	}
	b.Run("ecrecover", func(b *testing.B) {
		c, err := f.svc.Challenge(ctx, addr)
		if err != nil {
			b.Fatal(err)
		}
		sig := w.SignBytes(b, c.Message)
		sig[64] -= 27
		for b.Loop() {
			pub, err := crypto.SigToPub(accounts.TextHash([]byte(c.Message)), sig)
			if err != nil || openjury.AddressFromBytes(crypto.PubkeyToAddress(*pub)) != w.Address() {
				b.Fatal("the signature does not recover to the wallet", err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			in := signed(b)
			b.StartTimer()
			if _, err := f.svc.Verify(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("challenge+verify", func(b *testing.B) {
		for b.Loop() {
			c, err := f.svc.Challenge(ctx, addr)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			sig := "0x" + hex.EncodeToString(w.SignBytes(b, c.Message))
			b.StartTimer()
			if _, err := f.svc.Verify(ctx, auth.VerifyInput{Address: addr, Nonce: c.Nonce, Signature: sig}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("authenticate", func(b *testing.B) {
		token, err := f.svc.Verify(ctx, signed(b))
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if got, err := f.svc.Authenticate(ctx, token); err != nil || got != w.Address() {
				b.Fatal("the token does not authenticate the wallet", err)
			}
		}
	})
}
