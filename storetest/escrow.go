package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/marketplace"
)

func (s *suite) escrowTests() []test {
	return []test{
		{name: "JobByKey", run: testJobByKey},
		{name: "EventOnceByChainRef", run: testEscrowEventOnce},
		{name: "EventRaceOneInsert", run: testEscrowEventRace},
		{name: "JobEscrowRoundTrip", run: testJobEscrowRoundTrip},
		{name: "FundedFilter", run: testFundedFilter},
		{name: "PayoutsRoundTripAndPages", run: testPayouts},
		{name: "AdvanceSync", run: testAdvanceSync},
	}
}

// escrowRef is the onchain reference of an escrow event.
func escrowRef(tx int, block, index int64) openjury.ChainRef {
	return openjury.ChainRef{TxHash: hash(tx), ChainID: ptr(int64(8453)), Contract: other, BlockNumber: &block, LogIndex: &index}
}

// escrowEvent is an event of the slot (job n, sponsor) at (block, index).
func escrowEvent(kind marketplace.EscrowEventKind, n, tx int, block, index int64) marketplace.EscrowEvent {
	return marketplace.EscrowEvent{Kind: kind, JobKey: openjury.HashFromBytes(anchor.JobKey(id(n))), Sponsor: sponsor,
		Amount: 5, Total: 10, RefundAfter: 1_900_000_000, TxHash: hash(tx), Contract: other, Block: block, LogIndex: index}
}

func testJobByKey(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, at(0)), newJob(2, at(1)))
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		j, err := tx.Escrow().JobByKey(ctx, openjury.HashFromBytes(anchor.JobKey(id(2))))
		require.NoError(t, err)
		require.Equal(t, id(2), j.ID)
		_, err = tx.Escrow().JobByKey(ctx, openjury.HashFromBytes(anchor.JobKey(id(3))))
		requireKind(t, openjury.NotFound, err)
		return nil
	}))
}

func testEscrowEventOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, at(0)))
	add := func(ev marketplace.EscrowEvent) bool {
		var ok bool
		require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			var err error
			ok, err = tx.Escrow().AddEscrowEvent(ctx, id(1), 8453, ev, at(5))
			return err
		}))
		return ok
	}
	ev := escrowEvent(marketplace.EscrowEventFunded, 1, 1, 7, 2)
	require.True(t, add(ev))
	again := ev
	again.Amount, again.Block = 99, 8 // the same (chain, tx, log index) with other contents
	require.False(t, add(again), "recorded once by (chain id, tx hash, log index)")
	ev.LogIndex = 3
	require.True(t, add(ev), "another log of the same transaction")
	for i, kind := range []marketplace.EscrowEventKind{marketplace.EscrowEventSettled, marketplace.EscrowEventClaimed, marketplace.EscrowEventRefunded} {
		e := escrowEvent(kind, 1, 2, 9, int64(i))
		e.Recipient, e.Root = other, hash(77)
		require.True(t, add(e), kind)
	}
}

func testEscrowEventRace(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, at(0)))
	ev := escrowEvent(marketplace.EscrowEventFunded, 1, 1, 7, 2)
	inserted := make(chan bool, racers)
	errs := race(func(int) error {
		var ok bool
		err := b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			var err error
			ok, err = tx.Escrow().AddEscrowEvent(ctx, id(1), 8453, ev, at(5))
			return err
		})
		if ok && err == nil { // what the run that committed did (InTx may run fn again)
			inserted <- true
		}
		return err
	})
	for _, err := range errs {
		require.NoError(t, err)
	}
	close(inserted)
	require.Len(t, inserted, 1, "one racer records the event")
}

func testJobEscrowRoundTrip(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, at(0)))
	require.Nil(t, getJob(t, b, id(1)).Escrow, "no escrow event yet")
	e := &marketplace.JobEscrow{Status: marketplace.EscrowFunded, Amount: 100_000_001, RefundAfter: ptr(at(9000)), Ref: escrowRef(1, 7, 2)}
	require.NoError(t, b.Escrow().SetJobEscrow(ctx, id(1), e))
	require.Equal(t, e, getJob(t, b, id(1)).Escrow)
	settled := &marketplace.JobEscrow{Status: marketplace.EscrowSettled, Amount: 100_000_001, RefundAfter: ptr(at(9000)),
		Ref: escrowRef(2, 9, 0), SettledRoot: hash(5), SettledTotal: 100_000_000, Mismatch: true}
	require.NoError(t, b.Escrow().SetJobEscrow(ctx, id(1), settled))
	j := getJob(t, b, id(1))
	require.Equal(t, settled, j.Escrow)

	// UpdateJob (a close) writes the payout total and leaves the escrow
	// state to the sync.
	j.Escrow = nil
	j.Status, j.PayoutTotal = marketplace.StatusClosed, ptr(openjury.MicroUSDC(100_000_001))
	require.NoError(t, b.Jobs().UpdateJob(ctx, j))
	j = getJob(t, b, id(1))
	require.Equal(t, settled, j.Escrow)
	require.Equal(t, openjury.MicroUSDC(100_000_001), *j.PayoutTotal)
	requireKind(t, openjury.NotFound, b.Escrow().SetJobEscrow(ctx, id(9), e))
}

func testFundedFilter(t *testing.T, b Backend) {
	ctx := context.Background()
	for n := 1; n <= 6; n++ {
		create(t, b, newJob(n, at(n)))
	}
	fund := func(n int, status marketplace.EscrowStatus) {
		require.NoError(t, b.Escrow().SetJobEscrow(ctx, id(n), &marketplace.JobEscrow{Status: status, Amount: 1, Ref: escrowRef(n, int64(n), 0)}))
	}
	fund(2, marketplace.EscrowFunded)
	fund(3, marketplace.EscrowSettled)
	fund(4, marketplace.EscrowRefunded)
	fund(5, marketplace.EscrowFunded)
	closed := getJob(t, b, id(5))
	closed.Status = marketplace.StatusClosed
	require.NoError(t, b.Jobs().UpdateJob(ctx, closed))
	boosted := getJob(t, b, id(2))
	boosted.FeaturedScore, boosted.FeaturedUntil = 10, ptr(at(1_000_000))
	require.NoError(t, b.Jobs().UpdateJob(ctx, boosted))
	require.Equal(t, []string{id(2), id(5)}, list(t, b, marketplace.JobFilter{Funded: true, Ref: at(10), Limit: 10}))
	require.Equal(t, []string{id(2)}, list(t, b, marketplace.JobFilter{Funded: true, Status: marketplace.StatusOpen, Ref: at(10), Limit: 10}))
	all, _ := walk(t, b, marketplace.JobFilter{Funded: true, Ref: at(10), Limit: 1})
	require.Equal(t, []string{id(2), id(5)}, all, "page by page, the boosted phase then the plain one")
	require.Len(t, list(t, b, marketplace.JobFilter{Ref: at(10), Limit: 10}), 6, "without the filter: every job")
}

func testPayouts(t *testing.T, b Backend) {
	ctx := context.Background()
	create(t, b, newJob(1, at(0)), newJob(2, at(1)))
	a := openjury.MustAddress("0x00000000000000000000000000000000000000a1")
	c := openjury.MustAddress("0x00000000000000000000000000000000000000c1")
	payouts := []anchor.Payout{
		{Recipient: c, Amount: 3, Roles: []string{anchor.RolePlatform}},
		{Recipient: a, Amount: 1, Roles: []string{anchor.RoleJuror, anchor.RolePlatform}},
		{Recipient: other, Amount: 2, Roles: []string{anchor.RoleWinner}},
	}
	var many []anchor.Payout
	for i := range 450 { // several insert statements
		var w [20]byte
		w[18], w[19] = byte(i>>8), byte(i)
		w[0] = 0x77
		many = append(many, anchor.Payout{Recipient: openjury.AddressFromBytes(w), Amount: uint64(i + 1), Roles: []string{anchor.RoleJuror}})
	}
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		if err := tx.Escrow().PutPayouts(ctx, id(1), payouts); err != nil {
			return err
		}
		return tx.Escrow().PutPayouts(ctx, id(2), many)
	}))
	requireKind(t, openjury.Conflict, b.Escrow().PutPayouts(ctx, id(1), payouts[:1]))
	claim := escrowEvent(marketplace.EscrowEventClaimed, 1, 4, 12, 1)
	claim.Recipient = other
	require.NoError(t, b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
		_, err := tx.Escrow().AddEscrowEvent(ctx, id(1), 8453, claim, at(5))
		return err
	}))
	got, err := b.Escrow().Payouts(ctx, id(1), "", "", 10)
	require.NoError(t, err)
	require.Equal(t, []marketplace.JobPayout{
		{Payout: payouts[1]},
		{Payout: payouts[0]},
		{Payout: payouts[2], Claim: escrowRef(4, 12, 1)},
	}, got, "recipient order; the claim joined")
	got, err = b.Escrow().Payouts(ctx, id(1), "", a, 1)
	require.NoError(t, err)
	require.Equal(t, []marketplace.JobPayout{{Payout: payouts[0]}}, got, "after a, one")
	got, err = b.Escrow().Payouts(ctx, id(1), other, "", 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, other, got[0].Recipient)
	var walked []marketplace.JobPayout
	var after openjury.Address
	for {
		page, err := b.Escrow().Payouts(ctx, id(2), "", after, 200)
		require.NoError(t, err)
		if len(page) == 0 {
			break
		}
		walked = append(walked, page...)
		after = page[len(page)-1].Recipient
	}
	require.Len(t, walked, len(many))
	for i, p := range walked {
		require.Equal(t, many[i].Recipient, p.Recipient)
		require.Equal(t, many[i].Amount, p.Amount)
	}
}

func testAdvanceSync(t *testing.T, b Backend) {
	ctx := context.Background()
	s := syncStoreOf(t, b)
	takeLease(t, s, "a")
	const cursor = "bounty-escrow:8453:test"
	advance := func(owner string, now time.Time, from, next int64) error {
		return b.InTx(ctx, func(ctx context.Context, tx marketplace.Tx) error {
			return tx.Escrow().AdvanceSync(ctx, leaseName, owner, now, cursor, from, next)
		})
	}
	require.NoError(t, advance("a", at(1000), 5, 9), "an absent cursor counts as from")
	next, found, err := s.SyncCursor(ctx, cursor)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, int64(9), next)
	requireKind(t, openjury.Conflict, advance("a", at(1000), 5, 9))
	requireKind(t, openjury.Conflict, advance("b", at(1000), 9, 12))
	requireKind(t, openjury.Conflict, advance("a", at(700_000), 9, 12))
	require.NoError(t, advance("a", at(2000), 9, 12))
	vault, found, err := s.SyncCursor(ctx, leaseName)
	require.NoError(t, err)
	require.False(t, found, "the vault's cursor is another: %d", vault)
}
