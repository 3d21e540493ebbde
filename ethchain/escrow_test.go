package ethchain_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/ethchain"
	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/openjurytest/simchain"
)

// EscrowEvents decodes every escrow event the contract emits, with the
// block-level log index, and only the configured contract's.
func TestEscrowEvents(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	c := ethchain.New(ch.Client, ethchain.Options{Escrow: openjury.AddressFromBytes(ch.EscrowAddr), Timeout: 5 * time.Second})
	ctx := context.Background()
	sponsor, winner := ch.Accounts[0], ch.Accounts[1]
	jobID := openjury.NewID()
	key := anchor.JobKey(jobID)
	start := ch.Head() + 1

	refundAfter := ch.BlockTime() + 3600
	funded := ch.Fund(sponsor, key, 1_000_005, refundAfter)
	leaf := anchor.PayoutLeaf(key, winner.Addr(), 1_000_000)
	settled := ch.Send(ch.Escrow.Settle(ch.Deployer.Opts, key, sponsor.Address, leaf, big.NewInt(1_000_000)))
	claimed := ch.Send(ch.Escrow.Claim(winner.Opts, key, sponsor.Address, winner.Address, big.NewInt(1_000_000), [][32]byte{}))
	refunded := ch.Send(ch.Escrow.Refund(sponsor.Opts, key))
	ch.Deposit(ch.Accounts[2], ch.Accounts[2].Address, 1) // a vault event: not the escrow's

	events, err := c.EscrowEvents(ctx, start, ch.Head())
	require.NoError(t, err)
	escrow, k := openjury.AddressFromBytes(ch.EscrowAddr), openjury.HashFromBytes(key)
	want := []marketplace.EscrowEvent{
		{Kind: marketplace.EscrowEventFunded, JobKey: k, Sponsor: sponsor.Addr(), Amount: 1_000_005, Total: 1_000_005, RefundAfter: int64(refundAfter)},
		{Kind: marketplace.EscrowEventSettled, JobKey: k, Sponsor: sponsor.Addr(), Root: openjury.HashFromBytes(leaf), Total: 1_000_000},
		{Kind: marketplace.EscrowEventClaimed, JobKey: k, Sponsor: sponsor.Addr(), Recipient: winner.Addr(), Amount: 1_000_000},
		{Kind: marketplace.EscrowEventRefunded, JobKey: k, Sponsor: sponsor.Addr(), Amount: 5},
	}
	require.Len(t, events, len(want))
	for i, rcpt := range []*struct {
		block int64
		tx    common.Hash
		index uint
	}{
		{funded.BlockNumber.Int64(), funded.TxHash, funded.Logs[0].Index}, // emitted before the transfer,
		{settled.BlockNumber.Int64(), settled.TxHash, settled.Logs[0].Index},
		{claimed.BlockNumber.Int64(), claimed.TxHash, claimed.Logs[len(claimed.Logs)-1].Index},
		{refunded.BlockNumber.Int64(), refunded.TxHash, refunded.Logs[len(refunded.Logs)-1].Index},
	} {
		w := want[i]
		w.Contract, w.Block, w.TxHash, w.LogIndex = escrow, rcpt.block, openjury.HashFromBytes(rcpt.tx), int64(rcpt.index)
		require.Equal(t, w, events[i], "event %d", i)
	}

	// Another contract's address: none of these.
	other := ethchain.New(ch.Client, ethchain.Options{Escrow: openjury.AddressFromBytes(ch.VaultAddr), Timeout: 5 * time.Second})
	none, err := other.EscrowEvents(ctx, start, ch.Head())
	require.NoError(t, err)
	require.Empty(t, none)
	_, err = c.EscrowEvents(ctx, 5, 4)
	require.Equal(t, openjury.Invalid, openjury.KindOf(err))
}
