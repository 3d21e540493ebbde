package stake_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest"
	"github.com/openjury/openjury/stake"
)

func newService(t *testing.T) (*stake.Service, *openjurytest.Clock) {
	clk := openjurytest.NewClock()
	return stake.NewService(openjurytest.NewDB(t).Stake(), clk, stake.Config{MinStake: 10 * openjury.MicroPerUSDC, ChainID: 8453}), clk
}

func TestStatusAndDevSet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, clk := newService(t)
	a := openjury.MustAddress("0x00000000000000000000000000000000000000a1")

	st, err := svc.Status(ctx, a.Checksum())
	require.NoError(t, err)
	require.Equal(t, stake.Status{Stake: stake.Stake{Address: a}}, st)
	_, err = svc.Status(ctx, "nope")
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))

	block, chain := int64(7), int64(8453)
	ref := openjury.ChainRef{TxHash: openjury.Hash("0x" + hex64('b')), ChainID: &chain, BlockNumber: &block}
	st, err = svc.DevSet(ctx, stake.SetInput{Address: a, Staked: 10 * openjury.MicroPerUSDC, Ref: ref})
	require.NoError(t, err)
	require.True(t, st.Eligible, "eligible at exactly the minimum")
	got, err := svc.Status(ctx, a.String())
	require.NoError(t, err)
	require.Equal(t, stake.Status{Stake: stake.Stake{Address: a, Staked: 10 * openjury.MicroPerUSDC, Ref: ref, UpdatedAt: clk.Now()}, Eligible: true}, got)

	neg := int64(-1)
	for _, tc := range []struct {
		in     stake.SetInput
		detail string
	}{
		{stake.SetInput{Staked: 1}, "address: is required"},
		{stake.SetInput{Address: a, Staked: -1}, "staked_amount: must be at least 0"},
		{stake.SetInput{Address: a, Ref: openjury.ChainRef{LogIndex: &neg}}, "stake_log_index: must be at least 0"},
		{stake.SetInput{Address: a, Ref: openjury.ChainRef{ChainID: &neg}}, "stake_chain_id: must be positive"},
	} {
		_, err := svc.DevSet(ctx, tc.in)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err))
		require.Equal(t, tc.detail, openjury.DetailOf(err))
	}
	require.False(t, stake.Eligible(stake.Stake{Staked: 10*openjury.MicroPerUSDC - 1}, 10*openjury.MicroPerUSDC))
}

func TestSlashes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, clk := newService(t)
	a := openjury.MustAddress("0x00000000000000000000000000000000000000a1")
	b := openjury.MustAddress("0x00000000000000000000000000000000000000b2")
	job := openjury.NewID()
	_, err := svc.DevSet(ctx, stake.SetInput{Address: a, Staked: 15 * openjury.MicroPerUSDC})
	require.NoError(t, err)

	e, err := svc.DevRecordSlash(ctx, stake.SlashInput{Agent: a, Amount: 6 * openjury.MicroPerUSDC, JobID: job, Recipient: b})
	require.NoError(t, err)
	require.True(t, openjury.ValidID(e.ID))
	st, err := svc.Status(ctx, a.String())
	require.NoError(t, err)
	require.Equal(t, openjury.MicroUSDC(9*openjury.MicroPerUSDC), st.Staked)
	require.False(t, st.Eligible, "a slash can cost eligibility")
	clk.Advance(1)
	_, err = svc.DevRecordSlash(ctx, stake.SlashInput{Agent: a, Amount: 100 * openjury.MicroPerUSDC})
	require.NoError(t, err)
	st, err = svc.Status(ctx, a.String())
	require.NoError(t, err)
	require.Zero(t, st.Staked, "never below zero")
	clk.Advance(1)
	_, err = svc.DevRecordSlash(ctx, stake.SlashInput{Agent: b, Amount: 1, JobID: job})
	require.NoError(t, err)

	for _, tc := range []struct {
		in     stake.SlashInput
		detail string
	}{
		{stake.SlashInput{Amount: 1}, "agent_address: is required"},
		{stake.SlashInput{Agent: a}, "amount_usdc: must be greater than 0"},
		{stake.SlashInput{Agent: a, Amount: 1, JobID: "x"}, "job_id: must be an id"},
	} {
		_, err := svc.DevRecordSlash(ctx, tc.in)
		require.Equal(t, tc.detail, openjury.DetailOf(err))
	}

	all, err := svc.Slashes(ctx, stake.ListInput{})
	require.NoError(t, err)
	require.Len(t, all.Events, 3)
	require.Equal(t, b, all.Events[0].Agent, "newest first")
	byA, err := svc.Slashes(ctx, stake.ListInput{Address: a.Checksum()})
	require.NoError(t, err)
	require.Len(t, byA.Events, 2)
	byJob, err := svc.Slashes(ctx, stake.ListInput{JobID: job})
	require.NoError(t, err)
	require.Len(t, byJob.Events, 2)

	var walked []string
	cur := ""
	for {
		p, err := svc.Slashes(ctx, stake.ListInput{Limit: 1, Cursor: cur})
		require.NoError(t, err)
		for _, e := range p.Events {
			walked = append(walked, e.ID)
		}
		if cur = p.NextCursor; cur == "" {
			break
		}
	}
	require.Equal(t, []string{all.Events[0].ID, all.Events[1].ID, all.Events[2].ID}, walked)

	for in, detail := range map[stake.ListInput]string{
		{Limit: 201}:          "limit: must be between 1 and 200",
		{Address: "0x1"}:      "address: must be 0x followed by 40 hex digits",
		{Cursor: "not-a-cur"}: "cursor: not a cursor from this list",
		{JobID: "x\x00"}:      "job_id: must be an id",
	} {
		_, err := svc.Slashes(ctx, in)
		require.Equal(t, openjury.Invalid, openjury.KindOf(err))
		require.Equal(t, detail, openjury.DetailOf(err))
	}
}

func hex64(c byte) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// TestRequireAndCheck: Require decides on a stake already read exactly as
// Check does after reading it.
func TestRequireAndCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openjurytest.NewDB(t).Stake()
	const minStake = 10 * openjury.MicroPerUSDC
	for i, tc := range []struct {
		staked openjury.MicroUSDC
		put    bool
		ok     bool
	}{
		{put: false, ok: false},           // no stake row
		{staked: 0, put: true, ok: false}, // a row at zero
		{staked: minStake - 1, put: true, ok: false},
		{staked: minStake, put: true, ok: true},
		{staked: minStake + 1, put: true, ok: true},
	} {
		a := openjury.AddressFromBytes([20]byte{19: byte(i + 1)})
		st := stake.Stake{Address: a}
		if tc.put {
			st = stake.Stake{Address: a, Staked: tc.staked}
			require.NoError(t, store.PutStake(ctx, st))
		}
		for name, err := range map[string]error{
			"Require": stake.Require(st, minStake),
			"Check":   stake.Check(ctx, store, a, minStake),
		} {
			if tc.ok {
				require.NoError(t, err, "%s case %d", name, i)
				continue
			}
			require.Equal(t, openjury.Forbidden, openjury.KindOf(err), "%s case %d", name, i)
			require.Equal(t, "insufficient stake", openjury.DetailOf(err), "%s case %d", name, i)
		}
	}
}
