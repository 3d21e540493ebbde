package contracts_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/contracts"
	"github.com/openjury/openjury/openjurytest/simchain"
)

// escrowEnv is a simulated chain whose escrow and token are driven through
// its HTTP JSON-RPC endpoint, as a wallet or the service would.
type escrowEnv struct {
	t      *testing.T
	ch     *simchain.Chain
	escrow *contracts.BountyEscrow
	usdc   *contracts.TestUSDC
	abis   []*abi.ABI
}

func newEscrowEnv(t *testing.T) *escrowEnv {
	t.Helper()
	ch := simchain.New(t, simchain.WithHTTP())
	client, err := ethclient.Dial(ch.URL)
	require.NoError(t, err)
	t.Cleanup(client.Close)
	e := &escrowEnv{t: t, ch: ch}
	e.escrow, err = contracts.NewBountyEscrow(ch.EscrowAddr, client)
	require.NoError(t, err)
	e.usdc, err = contracts.NewTestUSDC(ch.USDCAddr, client)
	require.NoError(t, err)
	for _, md := range []*bind.MetaData{contracts.BountyEscrowMetaData, contracts.TestUSDCMetaData} {
		a, err := md.GetAbi()
		require.NoError(t, err)
		e.abis = append(e.abis, a)
	}
	return e
}

func bi(n int64) *big.Int { return big.NewInt(n) }

// send mines tx and requires success.
func (e *escrowEnv) send(tx *types.Transaction, err error) *types.Receipt {
	e.t.Helper()
	return e.ch.Send(tx, err)
}

// reverts requires do (a transaction sent as from) to be refused with the
// custom error name (and args, when given): the node's estimate names the
// error, and the same transaction forced into a block with a fixed gas
// limit fails there too, so the refusal is the chain's, not the client's.
func (e *escrowEnv) reverts(from simchain.Account, do func(*bind.TransactOpts) (*types.Transaction, error), name string, args ...any) {
	e.t.Helper()
	opts := *from.Opts
	_, err := do(&opts)
	gotName, gotArgs := e.revertOf(err)
	require.Equal(e.t, name, gotName, "revert error")
	if len(args) > 0 {
		require.Equal(e.t, normalize(args), normalize(gotArgs), "%s arguments", name)
	}
	rcpt := e.forced(from, do)
	require.Equal(e.t, types.ReceiptStatusFailed, rcpt.Status, "%s: the mined transaction must fail", name)
}

// forced sends do with a fixed gas limit (no estimate) and mines it,
// whatever its outcome.
func (e *escrowEnv) forced(from simchain.Account, do func(*bind.TransactOpts) (*types.Transaction, error)) *types.Receipt {
	e.t.Helper()
	opts := *from.Opts
	opts.GasLimit = 1_000_000
	tx, err := do(&opts)
	require.NoError(e.t, err)
	e.ch.Backend.Commit()
	rcpt, err := bind.WaitMined(context.Background(), e.ch.Client, tx)
	require.NoError(e.t, err)
	return rcpt
}

// revertOf decodes the custom error of a JSON-RPC revert.
func (e *escrowEnv) revertOf(err error) (string, []any) {
	e.t.Helper()
	require.Error(e.t, err, "the transaction must revert")
	var de rpc.DataError
	require.True(e.t, errors.As(err, &de), "no revert data in %v", err)
	s, ok := de.ErrorData().(string)
	require.True(e.t, ok, "revert data %v", de.ErrorData())
	data, err := hexutil.Decode(s)
	require.NoError(e.t, err)
	require.GreaterOrEqual(e.t, len(data), 4, "revert without an error: %v", err)
	for _, a := range e.abis {
		for name, ae := range a.Errors {
			if [4]byte(ae.ID[:4]) == [4]byte(data[:4]) {
				vals, err := ae.Inputs.Unpack(data[4:])
				require.NoError(e.t, err)
				return name, vals
			}
		}
	}
	e.t.Fatalf("unknown revert data %s", s)
	return "", nil
}

func normalize(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		switch v := v.(type) {
		case *big.Int:
			out[i] = v.String()
		case int:
			out[i] = fmt.Sprint(v)
		case [32]byte:
			out[i] = hexutil.Encode(v[:])
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

// event returns the only log of the event name the escrow emitted in rcpt,
// parsed.
func event[E any](e *escrowEnv, rcpt *types.Receipt, name string, parse func(types.Log) (*E, error)) *E {
	e.t.Helper()
	id := e.abis[0].Events[name].ID
	var found []*E
	for _, l := range rcpt.Logs {
		if l.Address == e.ch.EscrowAddr && len(l.Topics) > 0 && l.Topics[0] == id {
			ev, err := parse(*l)
			require.NoError(e.t, err)
			found = append(found, ev)
		}
	}
	require.Len(e.t, found, 1, "%s events", name)
	return found[0]
}

func (e *escrowEnv) balance(who common.Address) int64 {
	e.t.Helper()
	b, err := e.usdc.BalanceOf(nil, who)
	require.NoError(e.t, err)
	return b.Int64()
}

// slot is the escrow's view of a slot.
type slot = struct {
	Status         uint8
	Funded         *big.Int
	Total          *big.Int
	Claimed        *big.Int
	Root           [32]byte
	RefundAfter    uint64
	ExcessRefunded bool
}

func (e *escrowEnv) slot(jobKey [32]byte, sponsor common.Address) slot {
	e.t.Helper()
	s, err := e.escrow.SlotOf(nil, jobKey, sponsor)
	require.NoError(e.t, err)
	return s
}

// The slot states of the escrow (enum Status).
const (
	statusNone uint8 = iota
	statusFunded
	statusSettled
	statusRefunded
)

// payout is one leaf of a settle's tree.
type payout struct {
	to     common.Address
	amount uint64
}

// payoutTree is a snapshot-like tree: the payout leaves plus a JSON record
// leaf and a salt leaf, as a closed job's anchor has.
type payoutTree struct {
	key  [32]byte
	tree *anchor.Tree
}

func newPayoutTree(key [32]byte, payouts ...payout) payoutTree {
	leaves := []anchor.Node{
		anchor.Leaf([]byte(`{"id":"job:x","type":"job"}`)),
		anchor.Leaf([]byte("0123456789abcdef0123456789abcdef")),
	}
	for _, p := range payouts {
		leaves = append(leaves, anchor.PayoutLeaf(key, openjury.AddressFromBytes(p.to), p.amount))
	}
	return payoutTree{key: key, tree: anchor.NewTree(leaves)}
}

func (p payoutTree) root() [32]byte { return p.tree.Root() }

func (p payoutTree) proof(t *testing.T, to common.Address, amount uint64) [][32]byte {
	t.Helper()
	proof, ok := p.tree.Proof(anchor.PayoutLeaf(p.key, openjury.AddressFromBytes(to), amount))
	require.True(t, ok, "no leaf for %s %d", to, amount)
	return proof
}

// claim sends recipient's claim of amount with proof from sender.
func (e *escrowEnv) claim(key [32]byte, sponsor, recipient common.Address, amount uint64, proof [][32]byte) func(*bind.TransactOpts) (*types.Transaction, error) {
	return func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.escrow.Claim(o, key, sponsor, recipient, new(big.Int).SetUint64(amount), proof)
	}
}

func (e *escrowEnv) fund(key [32]byte, amount int64, refundAfter uint64) func(*bind.TransactOpts) (*types.Transaction, error) {
	return func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.escrow.Fund(o, key, bi(amount), refundAfter)
	}
}

func (e *escrowEnv) settle(key [32]byte, sponsor common.Address, root [32]byte, total int64) func(*bind.TransactOpts) (*types.Transaction, error) {
	return func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.escrow.Settle(o, key, sponsor, root, bi(total))
	}
}

func (e *escrowEnv) refund(key [32]byte) func(*bind.TransactOpts) (*types.Transaction, error) {
	return func(o *bind.TransactOpts) (*types.Transaction, error) { return e.escrow.Refund(o, key) }
}

// The worked example of the split, end to end: the sponsor funds
// 100.000001 USDC, the settler posts the root and total, every recipient
// (or a stranger for one of them) claims exactly their share, and every
// way to take more, earlier or someone else's share is refused.
func TestEscrowWorkedExample(t *testing.T) {
	t.Parallel()
	e := newEscrowEnv(t)
	ch := e.ch
	settler := ch.Deployer
	sponsor, winner, juror4, juror5, treasury, stranger := ch.Accounts[0], ch.Accounts[1], ch.Accounts[2], ch.Accounts[3], ch.Accounts[4], ch.Accounts[7]
	key := anchor.JobKey("0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b")
	const F = 100_000_001
	refundAfter := ch.BlockTime() + 30*24*3600

	ch.Mint(sponsor.Address, F)
	e.reverts(sponsor, e.fund(key, F, refundAfter), "ERC20InsufficientAllowance") // no approval
	e.reverts(sponsor, e.fund(key, 0, refundAfter), "ZeroAmount")
	e.send(e.usdc.Approve(sponsor.Opts, ch.EscrowAddr, bi(F)))
	fundRcpt := e.send(e.escrow.Fund(sponsor.Opts, key, bi(F), refundAfter))
	funded := event(e, fundRcpt, "BountyFunded", e.escrow.ParseBountyFunded)
	require.Equal(t, key, [32]byte(funded.JobKey))
	require.Equal(t, sponsor.Address, funded.Sponsor)
	require.Equal(t, int64(F), funded.Amount.Int64())
	require.Equal(t, int64(F), funded.Total.Int64())
	require.Equal(t, refundAfter, funded.RefundAfter)
	require.Equal(t, int64(F), e.balance(ch.EscrowAddr))
	require.Zero(t, e.balance(sponsor.Address))

	tree := newPayoutTree(key,
		payout{winner.Address, 85_000_002}, payout{juror4.Address, 4_444_444},
		payout{juror5.Address, 5_555_555}, payout{treasury.Address, 5_000_000})
	winnerProof := tree.proof(t, winner.Address, 85_000_002)

	// Before the settle nobody claims, whatever the proof.
	e.reverts(winner, e.claim(key, sponsor.Address, winner.Address, 85_000_002, winnerProof), "NotSettled")
	// Only the settler settles; never above what is funded; never a zero root.
	e.reverts(stranger, e.settle(key, sponsor.Address, tree.root(), F), "NotSettler", stranger.Address)
	e.reverts(sponsor, e.settle(key, sponsor.Address, tree.root(), F), "NotSettler", sponsor.Address)
	e.reverts(settler, e.settle(key, sponsor.Address, tree.root(), F+1), "TotalExceedsFunded", F+1, F)
	e.reverts(settler, e.settle(key, sponsor.Address, [32]byte{}, F), "ZeroRoot")
	e.reverts(settler, e.settle(key, stranger.Address, tree.root(), 0), "NotFunded") // the stranger's slot is empty

	settleRcpt := e.send(e.escrow.Settle(settler.Opts, key, sponsor.Address, tree.root(), bi(F)))
	settled := event(e, settleRcpt, "BountySettled", e.escrow.ParseBountySettled)
	require.Equal(t, key, [32]byte(settled.JobKey))
	require.Equal(t, sponsor.Address, settled.Sponsor)
	require.Equal(t, tree.root(), [32]byte(settled.Root))
	require.Equal(t, int64(F), settled.Total.Int64())
	s := e.slot(key, sponsor.Address)
	require.Equal(t, statusSettled, s.Status)
	require.Equal(t, tree.root(), s.Root)

	// Settled: no more funding, no second settle.
	ch.Mint(sponsor.Address, 5)
	e.send(e.usdc.Approve(sponsor.Opts, ch.EscrowAddr, bi(5)))
	e.reverts(sponsor, e.fund(key, 5, refundAfter), "AlreadySettled")
	e.reverts(settler, e.settle(key, sponsor.Address, tree.root(), F), "AlreadySettled")

	// Wrong proofs: another recipient's proof, a changed amount, a proof
	// of a JSON record, an empty proof.
	e.reverts(stranger, e.claim(key, sponsor.Address, stranger.Address, 85_000_002, winnerProof), "InvalidProof")
	e.reverts(winner, e.claim(key, sponsor.Address, winner.Address, 85_000_003, winnerProof), "InvalidProof")
	e.reverts(juror4, e.claim(key, sponsor.Address, juror4.Address, 4_444_444, winnerProof), "InvalidProof")
	e.reverts(winner, e.claim(key, sponsor.Address, winner.Address, 85_000_002, nil), "InvalidProof")
	e.reverts(winner, e.claim(anchor.JobKey("another job"), sponsor.Address, winner.Address, 85_000_002, winnerProof), "NotSettled")

	// Each recipient claims its share; a stranger sends the treasury's
	// claim and the money goes to the treasury.
	gas := map[string]uint64{"fund": fundRcpt.GasUsed, "settle": settleRcpt.GasUsed}
	for _, c := range []struct {
		sender simchain.Account
		to     common.Address
		amount uint64
	}{
		{winner, winner.Address, 85_000_002},
		{juror4, juror4.Address, 4_444_444},
		{juror5, juror5.Address, 5_555_555},
		{stranger, treasury.Address, 5_000_000},
	} {
		senderBefore := e.balance(c.sender.Address)
		rcpt := e.send(e.escrow.Claim(c.sender.Opts, key, sponsor.Address, c.to, new(big.Int).SetUint64(c.amount), tree.proof(t, c.to, c.amount)))
		gas["claim"] = max(gas["claim"], rcpt.GasUsed)
		ev := event(e, rcpt, "PayoutClaimed", e.escrow.ParsePayoutClaimed)
		require.Equal(t, key, [32]byte(ev.JobKey))
		require.Equal(t, sponsor.Address, ev.Sponsor)
		require.Equal(t, c.to, ev.Recipient)
		require.Equal(t, c.amount, ev.Amount.Uint64())
		require.Equal(t, int64(c.amount), e.balance(c.to))
		if c.sender.Address != c.to {
			require.Equal(t, senderBefore, e.balance(c.sender.Address), "the sender of someone else's claim gets nothing")
		}
		claimed, err := e.escrow.IsClaimed(nil, key, sponsor.Address, c.to)
		require.NoError(t, err)
		require.True(t, claimed)
		// A second claim, by anyone, is refused.
		e.reverts(stranger, e.claim(key, sponsor.Address, c.to, c.amount, tree.proof(t, c.to, c.amount)), "AlreadyClaimed", c.to)
	}
	t.Logf("gas used: fund (first, approve before) %d, settle %d, claim (max of 4) %d", gas["fund"], gas["settle"], gas["claim"])
	require.Zero(t, e.balance(ch.EscrowAddr), "the escrow paid out exactly F")
	s = e.slot(key, sponsor.Address)
	require.Equal(t, int64(F), s.Claimed.Int64())
	require.Equal(t, int64(F), s.Funded.Int64())
	funds, err := e.escrow.FundedOf(nil, key, sponsor.Address)
	require.NoError(t, err)
	require.Equal(t, int64(F), funds.Int64(), "claims do not lower fundedOf")

	// The settle covered everything: no excess, and no full refund.
	e.reverts(sponsor, e.refund(key), "NothingToRefund")
	e.reverts(stranger, e.refund(key), "NotFunded")
}

// A root whose leaves sum above the settled total: the claims stop at the
// total; the sponsor takes the excess funded - total back once.
func TestEscrowClaimsNeverExceedTotal(t *testing.T) {
	t.Parallel()
	e := newEscrowEnv(t)
	ch := e.ch
	sponsor, a, b := ch.Accounts[0], ch.Accounts[1], ch.Accounts[2]
	key := anchor.JobKey("job-over")
	ch.Fund(sponsor, key, 12, ch.BlockTime()+3600)
	tree := newPayoutTree(key, payout{a.Address, 6}, payout{b.Address, 6})
	e.send(e.escrow.Settle(ch.Deployer.Opts, key, sponsor.Address, tree.root(), bi(10)))

	e.send(e.escrow.Claim(a.Opts, key, sponsor.Address, a.Address, bi(6), tree.proof(t, a.Address, 6)))
	rcpt := e.send(e.escrow.Refund(sponsor.Opts, key))
	ev := event(e, rcpt, "BountyRefunded", e.escrow.ParseBountyRefunded)
	require.Equal(t, key, [32]byte(ev.JobKey))
	require.Equal(t, sponsor.Address, ev.Sponsor)
	require.Equal(t, int64(2), ev.Amount.Int64(), "the excess 12 - 10")
	require.Equal(t, int64(2), e.balance(sponsor.Address))
	require.True(t, e.slot(key, sponsor.Address).ExcessRefunded)
	e.reverts(sponsor, e.refund(key), "AlreadyRefunded")

	// b's leaf is valid, but only 4 of the total remain.
	e.reverts(b, e.claim(key, sponsor.Address, b.Address, 6, tree.proof(t, b.Address, 6)), "ClaimExceedsTotal", 6, 4)
	require.Zero(t, e.balance(b.Address))
	require.Equal(t, int64(4), e.balance(ch.EscrowAddr), "what is left stays for the slot's remaining total")
}

// Before the settle the sponsor gets everything back only after
// refundAfter, once; the slot is then closed to funding, settling and
// claims. refundAfter may only be raised.
func TestEscrowRefundBeforeSettle(t *testing.T) {
	t.Parallel()
	e := newEscrowEnv(t)
	ch := e.ch
	sponsor, stranger := ch.Accounts[0], ch.Accounts[7]
	key := anchor.JobKey("job-refund")
	refundAfter := ch.BlockTime() + 3600
	ch.Fund(sponsor, key, 7_000_000, refundAfter)

	e.reverts(sponsor, e.refund(key), "RefundTooEarly", refundAfter)
	e.reverts(stranger, e.refund(key), "NotFunded") // the stranger has no slot of this job

	// Later fundings may keep or raise refundAfter, never lower it.
	ch.Mint(sponsor.Address, 3_000_000)
	e.send(e.usdc.Approve(sponsor.Opts, ch.EscrowAddr, bi(3_000_000)))
	e.reverts(sponsor, e.fund(key, 1_000_000, refundAfter-1), "RefundAfterLowered", refundAfter, refundAfter-1)
	e.send(e.escrow.Fund(sponsor.Opts, key, bi(1_000_000), refundAfter))
	refundAfter += 600
	rcpt := e.send(e.escrow.Fund(sponsor.Opts, key, bi(2_000_000), refundAfter))
	ev := event(e, rcpt, "BountyFunded", e.escrow.ParseBountyFunded)
	require.Equal(t, int64(2_000_000), ev.Amount.Int64())
	require.Equal(t, int64(10_000_000), ev.Total.Int64(), "the slot's funded total")
	require.Equal(t, refundAfter, ev.RefundAfter)
	s := e.slot(key, sponsor.Address)
	require.Equal(t, statusFunded, s.Status)
	require.Equal(t, refundAfter, s.RefundAfter)

	// The boundary, on chain: a refund mined at block.timestamp ==
	// refundAfter fails, one second later it pays.
	ch.AdjustTime(time.Duration(refundAfter-1-ch.BlockTime()) * time.Second)
	require.Equal(t, refundAfter-1, ch.BlockTime())
	early := e.forced(sponsor, e.refund(key))
	require.Equal(t, types.ReceiptStatusFailed, early.Status)
	require.Equal(t, refundAfter, ch.BlockTime(), "the failed refund was mined at refundAfter")
	rcpt = e.forced(sponsor, e.refund(key))
	require.Equal(t, types.ReceiptStatusSuccessful, rcpt.Status)
	refunded := event(e, rcpt, "BountyRefunded", e.escrow.ParseBountyRefunded)
	require.Equal(t, int64(10_000_000), refunded.Amount.Int64())
	require.Equal(t, sponsor.Address, refunded.Sponsor)
	require.Equal(t, int64(10_000_000), e.balance(sponsor.Address))
	require.Zero(t, e.balance(ch.EscrowAddr))
	require.Equal(t, statusRefunded, e.slot(key, sponsor.Address).Status)

	// Refunded is final.
	e.reverts(sponsor, e.refund(key), "AlreadyRefunded")
	ch.Mint(sponsor.Address, 1)
	e.send(e.usdc.Approve(sponsor.Opts, ch.EscrowAddr, bi(1)))
	e.reverts(sponsor, e.fund(key, 1, refundAfter+3600), "AlreadyRefunded")
	tree := newPayoutTree(key, payout{stranger.Address, 1})
	e.reverts(ch.Deployer, e.settle(key, sponsor.Address, tree.root(), 0), "AlreadyRefunded")
	e.reverts(stranger, e.claim(key, sponsor.Address, stranger.Address, 1, tree.proof(t, stranger.Address, 1)), "NotSettled")
}

// Slots are per (job, sponsor): someone else funding the same job key gets
// their own slot and can neither touch nor block the sponsor's.
func TestEscrowSlotPerSponsor(t *testing.T) {
	t.Parallel()
	e := newEscrowEnv(t)
	ch := e.ch
	sponsor, squatter, winner := ch.Accounts[0], ch.Accounts[5], ch.Accounts[1]
	key := anchor.JobKey("job-squat")
	refundAfter := ch.BlockTime() + 3600
	require.Equal(t, statusNone, e.slot(key, sponsor.Address).Status)
	// The squatter funds first, with an immediate refund time.
	ch.Fund(squatter, key, 3, 0)
	ch.Fund(sponsor, key, 10, refundAfter)
	require.Equal(t, refundAfter, e.slot(key, sponsor.Address).RefundAfter, "the squatter's refund time is not the sponsor's")
	for who, want := range map[common.Address]int64{sponsor.Address: 10, squatter.Address: 3} {
		f, err := e.escrow.FundedOf(nil, key, who)
		require.NoError(t, err)
		require.Equal(t, want, f.Int64())
	}
	// The squatter takes back only its own slot; the sponsor's cannot be
	// refunded early.
	e.send(e.escrow.Refund(squatter.Opts, key))
	require.Equal(t, int64(3), e.balance(squatter.Address))
	require.Equal(t, int64(10), e.balance(ch.EscrowAddr))
	e.reverts(sponsor, e.refund(key), "RefundTooEarly", refundAfter)
	e.reverts(squatter, e.refund(key), "AlreadyRefunded")

	// The squatter cannot settle, nor claim from the sponsor's slot with
	// a tree of its own.
	own := newPayoutTree(key, payout{squatter.Address, 10})
	e.reverts(squatter, e.settle(key, sponsor.Address, own.root(), 10), "NotSettler", squatter.Address)
	tree := newPayoutTree(key, payout{winner.Address, 10})
	e.send(e.escrow.Settle(ch.Deployer.Opts, key, sponsor.Address, tree.root(), bi(10)))
	e.reverts(squatter, e.claim(key, sponsor.Address, squatter.Address, 10, own.proof(t, squatter.Address, 10)), "InvalidProof")
	// The sponsor's settled root opens no claim on the squatter's slot.
	e.reverts(winner, e.claim(key, squatter.Address, winner.Address, 10, tree.proof(t, winner.Address, 10)), "NotSettled")
	e.send(e.escrow.Claim(squatter.Opts, key, sponsor.Address, winner.Address, bi(10), tree.proof(t, winner.Address, 10)))
	require.Equal(t, int64(10), e.balance(winner.Address))
	require.Equal(t, int64(3), e.balance(squatter.Address))
}

// signedAuth is a ReceiveWithAuthorization for the escrow and the
// payer's signature; a test may change the fields and keep the signature.
type signedAuth struct {
	a      simchain.Authorization
	v      uint8
	r, s   [32]byte
	refund uint64 // the refundAfter sent with it
	jobKey [32]byte
}

// signAuth has from sign amount for the escrow's slot (key, from) with
// refundAfter, valid until validBefore (after validAfter).
func (e *escrowEnv) signAuth(from simchain.Account, key [32]byte, amount int64, refundAfter, validAfter, validBefore uint64) signedAuth {
	e.t.Helper()
	nonce, err := e.escrow.AuthorizationNonce(nil, key, refundAfter)
	require.NoError(e.t, err)
	a := simchain.Authorization{From: from.Address, To: e.ch.EscrowAddr, Value: bi(amount),
		ValidAfter: new(big.Int).SetUint64(validAfter), ValidBefore: new(big.Int).SetUint64(validBefore), Nonce: nonce}
	sa := signedAuth{a: a, refund: refundAfter, jobKey: key}
	sa.v, sa.r, sa.s = e.ch.SignAuthorization(from, "ReceiveWithAuthorization", a)
	return sa
}

// relay sends sa through fundWithAuthorization.
func (e *escrowEnv) relay(sa signedAuth) func(*bind.TransactOpts) (*types.Transaction, error) {
	return func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.escrow.FundWithAuthorization(o, sa.jobKey, sa.a.From, sa.a.Value, sa.refund,
			sa.a.ValidAfter, sa.a.ValidBefore, sa.a.Nonce, sa.v, sa.r, sa.s)
	}
}

// fundWithAuthorization: a stranger relays the sponsor's EIP-3009
// signature into the sponsor's slot; the signature cannot be replayed,
// redirected to another job, refund time, amount or payer, nor used by
// anyone but the escrow.
func TestEscrowFundWithAuthorization(t *testing.T) {
	t.Parallel()
	e := newEscrowEnv(t)
	ch := e.ch
	sponsor, relayer, other := ch.Accounts[0], ch.Accounts[6], ch.Accounts[3]
	key, otherKey := anchor.JobKey("job-auth"), anchor.JobKey("job-other")
	now := ch.BlockTime()
	refundAfter := now + 7200
	const amount = 50_000_000
	ch.Mint(sponsor.Address, amount)
	ch.Mint(other.Address, amount)
	sa := e.signAuth(sponsor, key, amount, refundAfter, 0, now+3600)

	// Redirections before the real relay: the signature stays, what is
	// sent with it changes.
	otherNonce, err := e.escrow.AuthorizationNonce(nil, otherKey, refundAfter)
	require.NoError(t, err)
	laterNonce, err := e.escrow.AuthorizationNonce(nil, key, refundAfter+1)
	require.NoError(t, err)
	for _, tc := range []struct {
		what   string
		change func(*signedAuth)
		err    string
		args   []any
	}{
		{"another job", func(x *signedAuth) { x.jobKey = otherKey }, "NonceMismatch",
			[]any{hexutil.Encode(otherNonce[:]), hexutil.Encode(sa.a.Nonce[:])}},
		{"another job and its nonce", func(x *signedAuth) { x.jobKey, x.a.Nonce = otherKey, otherNonce }, "InvalidSignature", nil},
		{"a later refund time", func(x *signedAuth) { x.refund++ }, "NonceMismatch", nil},
		{"a later refund time and its nonce", func(x *signedAuth) { x.refund, x.a.Nonce = refundAfter+1, laterNonce }, "InvalidSignature", nil},
		{"more money", func(x *signedAuth) { x.a.Value = bi(amount + 1) }, "InvalidSignature", nil},
		{"another payer", func(x *signedAuth) { x.a.From = other.Address }, "InvalidSignature", nil},
		{"a longer validity", func(x *signedAuth) { x.a.ValidBefore = new(big.Int).SetUint64(now + 7200) }, "InvalidSignature", nil},
	} {
		x := sa
		tc.change(&x)
		t.Log(tc.what)
		e.reverts(relayer, e.relay(x), tc.err, tc.args...)
	}
	// Nobody can take the signature to the token directly: receive is
	// for the payee only, and it is no transfer signature.
	a := sa.a
	e.reverts(relayer, func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.usdc.ReceiveWithAuthorization(o, a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, sa.v, sa.r, sa.s)
	}, "CallerNotPayee")
	e.reverts(relayer, func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.usdc.TransferWithAuthorization(o, a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, sa.v, sa.r, sa.s)
	}, "InvalidSignature")
	require.Equal(t, int64(amount), e.balance(sponsor.Address), "nothing moved")

	rcpt := e.send(e.relay(sa)(relayer.Opts))
	t.Logf("gas used: fundWithAuthorization %d", rcpt.GasUsed)
	ev := event(e, rcpt, "BountyFunded", e.escrow.ParseBountyFunded)
	require.Equal(t, key, [32]byte(ev.JobKey))
	require.Equal(t, sponsor.Address, ev.Sponsor, "the signer's slot, not the relayer's")
	require.Equal(t, int64(amount), ev.Amount.Int64())
	require.Equal(t, int64(amount), ev.Total.Int64())
	require.Equal(t, refundAfter, ev.RefundAfter)
	require.Zero(t, e.balance(sponsor.Address))
	require.Equal(t, int64(amount), e.balance(ch.EscrowAddr))
	f, err := e.escrow.FundedOf(nil, key, relayer.Address)
	require.NoError(t, err)
	require.Zero(t, f.Int64(), "the relayer has no slot")
	used, err := e.usdc.AuthorizationState(nil, sponsor.Address, sa.a.Nonce)
	require.NoError(t, err)
	require.True(t, used)

	// Replays fail, whoever sends them.
	e.reverts(relayer, e.relay(sa), "AuthorizationUsedOrCanceled")
	e.reverts(sponsor, e.relay(sa), "AuthorizationUsedOrCanceled")

	// Another payer's authorization outside its time window, and one the
	// payer canceled, are refused.
	e.reverts(relayer, e.relay(e.signAuth(other, key, 1, refundAfter, 0, now)), "AuthorizationExpired")
	e.reverts(relayer, e.relay(e.signAuth(other, key, 1, refundAfter, now+600, now+3600)), "AuthorizationNotYetValid")
	canceled := e.signAuth(other, key, 1, refundAfter, 0, now+3600)
	cancelMsg := map[string]any{"authorizer": other.Address.Hex(), "nonce": hexutil.Encode(canceled.a.Nonce[:])}
	cancel := func(signer simchain.Account) func(*bind.TransactOpts) (*types.Transaction, error) {
		v, r, s := ch.SignUSDC(signer, "CancelAuthorization", cancelMsg)
		return func(o *bind.TransactOpts) (*types.Transaction, error) {
			return e.usdc.CancelAuthorization(o, other.Address, canceled.a.Nonce, v, r, s)
		}
	}
	e.reverts(relayer, cancel(relayer), "InvalidSignature") // only the payer cancels
	rcpt = e.send(cancel(other)(relayer.Opts))
	require.Len(t, rcpt.Logs, 1)
	e.reverts(relayer, e.relay(canceled), "AuthorizationUsedOrCanceled")
	require.Equal(t, int64(amount), e.balance(other.Address))

	// A slot funded by authorization settles and refunds like any other;
	// once settled, no authorization funds it.
	tree := newPayoutTree(key, payout{relayer.Address, 1})
	e.send(e.escrow.Settle(ch.Deployer.Opts, key, sponsor.Address, tree.root(), bi(1)))
	ch.Mint(sponsor.Address, 1)
	e.reverts(relayer, e.relay(e.signAuth(sponsor, key, 1, refundAfter+1, 0, now+3600)), "AlreadySettled")
	e.send(e.escrow.Refund(sponsor.Opts, key))
	require.Equal(t, int64(amount), e.balance(sponsor.Address), "the excess back, plus the 1 just minted")
}

// TestUSDC's EIP-3009 on its own: a relayed transfer, the payee-only
// receive, the domain of USDC (name, version "2") and wrong signers.
func TestUSDCAuthorizations(t *testing.T) {
	t.Parallel()
	e := newEscrowEnv(t)
	ch := e.ch
	payer, payee, relayer := ch.Accounts[0], ch.Accounts[1], ch.Accounts[2]
	ch.Mint(payer.Address, 100)
	dom, err := e.usdc.Eip712Domain(nil)
	require.NoError(t, err)
	require.Equal(t, "Test USD Coin", dom.Name)
	require.Equal(t, "2", dom.Version)
	require.Equal(t, int64(simchain.ChainID), dom.ChainId.Int64())
	require.Equal(t, ch.USDCAddr, dom.VerifyingContract)

	a := simchain.Authorization{From: payer.Address, To: payee.Address, Value: bi(40), ValidAfter: bi(0),
		ValidBefore: new(big.Int).SetUint64(ch.BlockTime() + 600), Nonce: [32]byte{1}}
	transfer := func(sigFrom simchain.Account, kind string) func(*bind.TransactOpts) (*types.Transaction, error) {
		v, r, s := ch.SignAuthorization(sigFrom, kind, a)
		return func(o *bind.TransactOpts) (*types.Transaction, error) {
			return e.usdc.TransferWithAuthorization(o, a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, v, r, s)
		}
	}
	e.reverts(relayer, transfer(relayer, "TransferWithAuthorization"), "InvalidSignature")
	e.reverts(relayer, transfer(payer, "ReceiveWithAuthorization"), "InvalidSignature")
	ok := transfer(payer, "TransferWithAuthorization")
	e.send(ok(relayer.Opts))
	require.Equal(t, int64(40), e.balance(payee.Address))
	require.Equal(t, int64(60), e.balance(payer.Address))
	e.reverts(relayer, ok, "AuthorizationUsedOrCanceled")

	a.Nonce = [32]byte{2}
	v, r, s := ch.SignAuthorization(payer, "ReceiveWithAuthorization", a)
	receive := func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.usdc.ReceiveWithAuthorization(o, a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, v, r, s)
	}
	e.reverts(relayer, receive, "CallerNotPayee")
	e.send(receive(payee.Opts))
	require.Equal(t, int64(80), e.balance(payee.Address))
	cv, cr, cs := ch.SignUSDC(payer, "CancelAuthorization", map[string]any{"authorizer": payer.Address.Hex(), "nonce": hexutil.Encode(a.Nonce[:])})
	e.reverts(payer, func(o *bind.TransactOpts) (*types.Transaction, error) {
		return e.usdc.CancelAuthorization(o, payer.Address, a.Nonce, cv, cr, cs)
	}, "AuthorizationUsedOrCanceled")
}

// The escrow's leaf is anchor.PayoutLeaf for any inputs, and the nonce
// rule is keccak256(abi.encode(jobKey, refundAfter)).
func TestPayoutLeafMatchesEscrow(t *testing.T) {
	t.Parallel()
	ch := simchain.New(t)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 20 {
		key := anchor.JobKey(fmt.Sprintf("job-%d", rng.Uint64()))
		var who common.Address
		for j := range who {
			who[j] = byte(rng.Uint32())
		}
		amount := rng.Uint64()
		if i == 0 {
			amount = ^uint64(0)
		}
		got, err := ch.Escrow.PayoutLeaf(nil, key, who, new(big.Int).SetUint64(amount))
		require.NoError(t, err)
		require.Equal(t, anchor.PayoutLeaf(key, openjury.AddressFromBytes(who), amount), got, "leaf %d", i)

		refundAfter := rng.Uint64()
		nonce, err := ch.Escrow.AuthorizationNonce(nil, key, refundAfter)
		require.NoError(t, err)
		var words [64]byte
		copy(words[:32], key[:])
		new(big.Int).SetUint64(refundAfter).FillBytes(words[32:])
		require.Equal(t, [32]byte(crypto.Keccak256(words[:])), nonce)
	}
}
