package auth_test

import (
	"context"
	"encoding/hex"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/auth"
	"github.com/openjury/openjury/bunstore"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/openjurytest/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// attacker floods sign-in requests for a victim address it cannot sign for.
type attacker struct {
	t      *testing.T
	svc    *auth.Service
	victim openjury.Address
	wallet *openjurytest.Wallet // a key that is not the victim's
}

// challenges asks for n challenges for the victim, from 4 goroutines.
func (a attacker) challenges(n int) {
	a.t.Helper()
	a.parallel(n, func() error {
		_, err := a.svc.Challenge(context.Background(), a.victim.String())
		return err
	})
}

// badVerifies sends n verifies for the victim that must fail: its own
// signature over msg, garbage and a zero signature, with nonce (may be "").
func (a attacker) badVerifies(n int, msg, nonce string) {
	a.t.Helper()
	sigs := []string{a.wallet.Sign(a.t, msg), "0x" + hex.EncodeToString(make([]byte, 65)), "0xdeadbeef"}
	i := 0
	var mu sync.Mutex
	a.parallel(n, func() error {
		mu.Lock()
		sig := sigs[i%len(sigs)]
		i++
		mu.Unlock()
		_, err := a.svc.Verify(context.Background(), auth.VerifyInput{Address: a.victim.String(), Signature: sig, Nonce: nonce})
		if openjury.KindOf(err) != openjury.Unauthenticated {
			return err
		}
		return nil
	})
}

func (a attacker) parallel(n int, fn func() error) {
	a.t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 4 {
				errs <- fn()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(a.t, err)
	}
}

// TestNoLoginLockout plays the attacker against a victim wallet on both
// engines: floods of challenges for the victim's address and floods of
// bad verifies with and without the victim's nonce. The owner's fresh
// challenge signs in every time, with and without the nonce; the address
// never holds more than 2*FreshPerAddress live challenges.
func TestNoLoginLockout(t *testing.T) {
	t.Parallel()
	openjurytest.OnEachDB(t, func(t *testing.T, db *bunstore.DB) {
		ctx := context.Background()
		clk := openjurytest.NewClock()
		svc := auth.NewService(db, clk, testConfig, nil)
		owner := openjurytest.NewWallet(t)
		a := attacker{t: t, svc: svc, victim: owner.Address(), wallet: openjurytest.NewWallet(t)}
		signIn := func(c auth.Challenge, nonce string) {
			t.Helper()
			_, err := svc.Verify(ctx, auth.VerifyInput{Address: owner.Address().Checksum(), Signature: owner.Sign(t, c.Message), Nonce: nonce})
			require.NoError(t, err, "the owner must sign in (nonce %q)", nonce)
		}

		// The owner's challenge first, then the floods.
		c, err := svc.Challenge(ctx, owner.Address().String())
		require.NoError(t, err)
		a.challenges(200)
		a.badVerifies(60, c.Message, c.Nonce)
		a.badVerifies(60, c.Message, "")
		signIn(c, "")

		// Floods first, then the owner asks; the attacker keeps going.
		a.challenges(100)
		c1, err := svc.Challenge(ctx, owner.Address().String())
		require.NoError(t, err)
		c2, err := svc.Challenge(ctx, owner.Address().String())
		require.NoError(t, err)
		a.badVerifies(60, c1.Message, c1.Nonce)
		a.badVerifies(60, c1.Message, "")
		signIn(c1, c1.Nonce)
		if c2.Nonce != c1.Nonce { // a reused challenge is consumed already
			signIn(c2, "")
		}

		// A steady flood over two TTLs: each step the attacker issues
		// challenges and bad verifies, and the owner signs in, alternately
		// with and without the nonce, on a challenge with at least half its
		// life left.
		for step := range 2 * 20 {
			clk.Advance(testConfig.ChallengeTTL / 20)
			a.challenges(8)
			c, err := svc.Challenge(ctx, owner.Address().String())
			require.NoError(t, err)
			require.GreaterOrEqual(t, c.ExpiresAt.Sub(clk.Now()), testConfig.ChallengeTTL/2, "step %d", step)
			a.badVerifies(4, c.Message, c.Nonce)
			a.badVerifies(4, c.Message, "")
			all, err := db.LiveChallenges(ctx, owner.Address(), "", clk.Now(), 1000)
			require.NoError(t, err)
			require.LessOrEqual(t, len(all), 2*auth.FreshPerAddress, "step %d: storage per address is bounded", step)
			if step%2 == 0 {
				signIn(c, c.Nonce)
			} else {
				signIn(c, "")
			}
			if step%10 == 0 {
				_, err := svc.Cleanup(ctx)
				require.NoError(t, err)
			}
		}
		// Cleanup leaves only live challenges behind.
		clk.Advance(testConfig.ChallengeTTL)
		_, err = svc.Cleanup(ctx)
		require.NoError(t, err)
		all, err := db.LiveChallenges(ctx, owner.Address(), "", time.Time{}, 1000)
		require.NoError(t, err)
		require.Empty(t, all)
	})
}
