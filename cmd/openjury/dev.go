package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/openjury/openjury/client"
)

// devUsage is the synopsis of the dev command.
const devUsage = "dev (stake|reputation|mint) [ADDRESS] VALUE"

// cmdDev calls a development server's dev endpoints: stake sets an
// address's stake in USDC, reputation its reputation score, mint credits
// it AGR. ADDRESS defaults to the key's. A server in local development
// mode needs no secret; another one needs --dev-secret or
// OPENJURY_DEV_SECRET (its SERVICE_DEV_SECRET).
func cmdDev(ctx context.Context, e *env, args []string) error {
	fs := e.flags("dev")
	secret := fs.String("dev-secret", "", "the server's dev secret (default $OPENJURY_DEV_SECRET; not needed in local development mode)")
	pos, err := parse(fs, args, -1)
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos) > 3 {
		return usageError("want " + devUsage)
	}
	what, value := pos[0], pos[len(pos)-1]
	if what != "stake" && what != "reputation" && what != "mint" {
		return usageError(fmt.Sprintf("unknown dev command %q: want stake, reputation or mint", what))
	}
	if *secret == "" {
		*secret = e.getenv("OPENJURY_DEV_SECRET")
	}
	dev, err := e.client(false, client.WithDevSecret(*secret))
	if err != nil {
		return err
	}
	addr := ""
	if len(pos) == 3 {
		addr = pos[1]
	} else {
		s, err := e.signer()
		if err != nil {
			return err
		}
		addr = s.Address().Hex()
	}
	switch what {
	case "stake":
		amount, err := strconv.ParseFloat(value, 64)
		if err != nil || amount < 0 {
			return usageError(fmt.Sprintf("stake: want an amount of USDC, got %q", value))
		}
		st, err := dev.DevSetStake(ctx, client.DevSetStakeRequest{Address: addr, StakedAmount: client.FloatNumber(amount)})
		if err != nil {
			return err
		}
		return e.print(st, func(w io.Writer) {
			fmt.Fprintf(w, "stake of %s is now %s USDC (may submit and vote: %v)\n", st.Address, st.StakedAmount.String(), st.IsEligible)
		})
	case "reputation":
		score, err := strconv.ParseInt(value, 10, 64)
		if err != nil || score < 0 {
			return usageError(fmt.Sprintf("reputation: want a whole score, got %q", value))
		}
		r, err := dev.DevSetReputation(ctx, client.DevSetReputationRequest{Address: addr, Score: score})
		if err != nil {
			return err
		}
		return e.print(r, func(w io.Writer) {
			fmt.Fprintf(w, "reputation of %s is now %s (level %d)\n", r.Address, strconv.FormatInt(r.Score, 10), r.Level)
		})
	default:
		amount, err := strconv.ParseInt(value, 10, 64)
		if err != nil || amount <= 0 {
			return usageError(fmt.Sprintf("mint: want a whole amount of AGR, got %q", value))
		}
		a, err := dev.DevMintAgr(ctx, client.DevMintRequest{Address: addr, Amount: amount})
		if err != nil {
			return err
		}
		return e.print(a, func(w io.Writer) { fmt.Fprintf(w, "AGR balance of %s is now %d\n", a.Address, a.Balance) })
	}
}
