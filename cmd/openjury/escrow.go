package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
	"github.com/openjury/openjury/client"
	"github.com/openjury/openjury/contracts"
	"github.com/openjury/openjury/mcpserver"
)

// The escrow commands (docs/onchain.md): fund a job's escrow as its
// sponsor, settle a closed job as the operator, claim a payout, refund,
// and show a job's escrow. Transactions go through the node at --rpc-url
// (or OPENJURY_RPC_URL), signed with the agent's key, to the escrow the
// server publishes in its economy policy (or --escrow); the node must
// serve the server's settlement chain.

// receiptWait bounds the wait for a transaction's receipt.
const receiptWait = 2 * time.Minute

// chainEnv is what an escrow transaction needs: the server's client, the
// node, the escrow and the signer's transaction options.
type chainEnv struct {
	c       *client.Client
	node    *ethclient.Client
	escrow  *contracts.BountyEscrow
	address common.Address
	chainID *big.Int
	signer  client.TxSigner
}

// escrowFlags are the flags of every escrow transaction.
type escrowFlags struct {
	rpcURL, escrow string
}

// bind returns the flag set of the command name with the escrow flags
// bound to f.
func (f *escrowFlags) bind(e *env, name string) *flag.FlagSet {
	fs := e.flags(name)
	fs.StringVar(&f.rpcURL, "rpc-url", "", "the chain's JSON-RPC URL (default $OPENJURY_RPC_URL)")
	fs.StringVar(&f.escrow, "escrow", "", "the BountyEscrow address (default: the server's economy policy)")
	return fs
}

// dial connects to the node and the escrow, signed in to the server when
// signed, and checks that the node serves the server's chain.
func (f escrowFlags) dial(ctx context.Context, e *env, signed bool) (*chainEnv, error) {
	c, err := e.client(signed)
	if err != nil {
		return nil, err
	}
	rpcURL := f.rpcURL
	if rpcURL == "" {
		rpcURL = strings.TrimSpace(e.getenv("OPENJURY_RPC_URL"))
	}
	if rpcURL == "" {
		return nil, usageError("no chain node: pass --rpc-url URL or set OPENJURY_RPC_URL")
	}
	policy, err := c.GetEconomyPolicy(ctx)
	if err != nil {
		return nil, err
	}
	escrowAddr := f.escrow
	if escrowAddr == "" && policy.EscrowContractAddress != nil {
		escrowAddr = *policy.EscrowContractAddress
	}
	if escrowAddr == "" {
		return nil, errors.New("the server follows no escrow contract (its economy policy names none): pass --escrow ADDRESS")
	}
	addr, err := openjury.ParseAddress("--escrow", escrowAddr)
	if err != nil {
		return nil, usageError(err.Error())
	}
	node, err := ethclient.DialContext(ctx, rpcURL)
	if err != nil {
		return nil, errors.New("cannot reach the chain node at --rpc-url") // the URL may hold a key
	}
	id, err := node.ChainID(ctx)
	if err != nil {
		node.Close()
		return nil, errors.New("the chain node at --rpc-url does not answer eth_chainId")
	}
	if id.Int64() != policy.SettlementChainID {
		node.Close()
		return nil, fmt.Errorf("the chain node serves chain %s, the server settles on chain %d", id, policy.SettlementChainID)
	}
	escrow, err := contracts.NewBountyEscrow(common.Address(addr.Bytes()), node)
	if err != nil {
		node.Close()
		return nil, err
	}
	ce := &chainEnv{c: c, node: node, escrow: escrow, address: common.Address(addr.Bytes()), chainID: id}
	if signed {
		s, err := e.signer()
		if err != nil {
			node.Close()
			return nil, err
		}
		ts, ok := s.(client.TxSigner)
		if !ok {
			node.Close()
			return nil, errors.New("this key cannot sign transactions")
		}
		ce.signer = ts
	}
	return ce, nil
}

// opts are the transaction options of the signer.
func (ce *chainEnv) opts(ctx context.Context) *bind.TransactOpts {
	return &bind.TransactOpts{
		From:    ce.signer.Address(),
		Context: ctx,
		Signer: func(_ common.Address, tx *types.Transaction) (*types.Transaction, error) {
			return ce.signer.SignTx(tx, ce.chainID)
		},
	}
}

// sent waits for tx to be mined and requires it to succeed; it returns
// its receipt. A transaction the node refuses to estimate (a revert)
// never gets here: its error is err.
func (ce *chainEnv) sent(ctx context.Context, what string, tx *types.Transaction, err error) (*types.Receipt, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	ctx, cancel := context.WithTimeout(ctx, receiptWait)
	defer cancel()
	rcpt, err := bind.WaitMined(ctx, ce.node, tx)
	if err != nil {
		return nil, fmt.Errorf("%s: waiting for %s: %w", what, tx.Hash().Hex(), err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		return rcpt, fmt.Errorf("%s: transaction %s reverted", what, tx.Hash().Hex())
	}
	return rcpt, nil
}

// txReport is what an escrow transaction command prints.
type txReport struct {
	Action      string `json:"action"`
	JobID       string `json:"job_id"`
	TxHash      string `json:"tx_hash"`
	BlockNumber int64  `json:"block_number"`
	Details     any    `json:"details,omitempty"`
}

func (e *env) printTx(r txReport, line string) error {
	return e.print(r, func(w io.Writer) {
		fmt.Fprintf(w, "%s (tx %s, block %d)\n", line, r.TxHash, r.BlockNumber)
	})
}

func report(action, jobID string, rcpt *types.Receipt, details any) txReport {
	return txReport{Action: action, JobID: jobID, TxHash: rcpt.TxHash.Hex(), BlockNumber: rcpt.BlockNumber.Int64(), Details: details}
}

// cmdEscrow dispatches escrow fund|settle|refund|status.
func cmdEscrow(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
			// Every subcommand's flags: fund's are the escrow flags and more.
			var f escrowFlags
			fs := f.bind(e, "escrow")
			fundFlags(fs)
			_, err := parse(fs, args, -1)
			return err
		}
		return usageError("the escrow command is: escrow fund|settle|refund|status JOB_ID ...")
	}
	switch args[0] {
	case "fund":
		return escrowFund(ctx, e, args[1:])
	case "settle":
		return escrowSettle(ctx, e, args[1:])
	case "refund":
		return escrowRefund(ctx, e, args[1:])
	case "status":
		return escrowStatus(ctx, e, args[1:])
	}
	return usageError(fmt.Sprintf("unknown escrow command %q: fund, settle, refund or status", args[0]))
}

// jobKeyOf is the escrow key of a job id.
func jobKeyOf(jobID string) [32]byte { return anchor.JobKey(jobID) }

// parseRefundAfter reads --refund-after: unix seconds, an RFC 3339 time,
// or a duration from now ("72h").
func parseRefundAfter(s string, now time.Time) (uint64, error) {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return n, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return uint64(t.Unix()), nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return uint64(now.Add(d).Unix()), nil
	}
	return 0, usageError(fmt.Sprintf("--refund-after: want unix seconds, an RFC 3339 time or a duration, got %q", s))
}

// receiveTypeHash is EIP-3009's ReceiveWithAuthorization type hash.
var receiveTypeHash = crypto.Keccak256Hash([]byte("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"))

// word is v as one ABI word.
func word(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }

// fundFlags adds escrow fund's own flags to fs.
func fundFlags(fs *flag.FlagSet) (refundAfter *string, authorization *bool) {
	refundAfter = fs.String("refund-after", "", "fund: when you may take an unsettled bounty back: unix seconds, RFC 3339 or a duration from now (default: the job's final-vote end + 7 days)")
	authorization = fs.Bool("authorization", false, "fund: in one transaction with a USDC EIP-3009 authorization instead of approve + fund")
	return refundAfter, authorization
}

func escrowFund(ctx context.Context, e *env, args []string) error {
	var f escrowFlags
	fs := f.bind(e, "escrow fund")
	refund, auth := fundFlags(fs)
	pos, err := parse(fs, args, 2)
	if err != nil {
		return err
	}
	jobID := pos[0]
	amount, err := openjury.ParseUSDC("AMOUNT", pos[1])
	if err != nil || amount <= 0 {
		return usageError("AMOUNT: want a positive USDC amount with at most 6 decimals")
	}
	ce, err := f.dial(ctx, e, true)
	if err != nil {
		return err
	}
	defer ce.node.Close()
	job, err := ce.c.GetJob(ctx, jobID)
	if err != nil {
		return err
	}
	me := strings.ToLower(ce.signer.Address().Hex())
	if job.SponsorAddress == nil || *job.SponsorAddress != me {
		return fmt.Errorf("you (%s) are not the sponsor of job %s: the service follows only its sponsor's escrow slot", me, jobID)
	}
	var refundAfter uint64
	switch {
	case *refund != "":
		if refundAfter, err = parseRefundAfter(*refund, time.Now()); err != nil {
			return err
		}
	case job.FinalVoteEndsAt != nil:
		refundAfter = uint64(job.FinalVoteEndsAt.Add(7 * 24 * time.Hour).Unix())
	default:
		refundAfter = uint64(time.Now().Add(30 * 24 * time.Hour).Unix())
	}
	key := jobKeyOf(jobID)
	usdcAddr, err := ce.escrow.Usdc(&bind.CallOpts{Context: ctx})
	if err != nil {
		return fmt.Errorf("the escrow's token: %w", err)
	}
	usdc, err := contracts.NewTestUSDC(usdcAddr, ce.node) // the ERC-20 and EIP-3009 functions of USDC
	if err != nil {
		return err
	}
	value := big.NewInt(int64(amount))
	var rcpt *types.Receipt
	if *auth {
		nonce, err := ce.escrow.AuthorizationNonce(&bind.CallOpts{Context: ctx}, key, refundAfter)
		if err != nil {
			return fmt.Errorf("the authorization nonce: %w", err)
		}
		domain, err := usdc.DOMAINSEPARATOR(&bind.CallOpts{Context: ctx})
		if err != nil {
			return fmt.Errorf("the token's EIP-712 domain: %w", err)
		}
		validAfter, validBefore := big.NewInt(0), big.NewInt(time.Now().Add(time.Hour).Unix())
		structHash := crypto.Keccak256(receiveTypeHash[:], common.LeftPadBytes(ce.signer.Address().Bytes(), 32),
			common.LeftPadBytes(ce.address.Bytes(), 32), word(value), word(validAfter), word(validBefore), nonce[:])
		digest := crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], structHash)
		sig, err := ce.signer.SignDigest(digest)
		if err != nil {
			return err
		}
		var r, s [32]byte
		copy(r[:], sig[:32])
		copy(s[:], sig[32:64])
		tx, err := ce.escrow.FundWithAuthorization(ce.opts(ctx), key, ce.signer.Address(), value, refundAfter, validAfter, validBefore, nonce, sig[64], r, s)
		if rcpt, err = ce.sent(ctx, "fundWithAuthorization", tx, err); err != nil {
			return err
		}
	} else {
		tx, err := usdc.Approve(ce.opts(ctx), ce.address, value)
		if _, err := ce.sent(ctx, "approve", tx, err); err != nil {
			return err
		}
		tx, err = ce.escrow.Fund(ce.opts(ctx), key, value, refundAfter)
		if rcpt, err = ce.sent(ctx, "fund", tx, err); err != nil {
			return err
		}
	}
	return e.printTx(report("fund", jobID, rcpt, map[string]any{"amount_usdc": amount.String(), "refund_after": refundAfter}),
		fmt.Sprintf("funded job %s with %s USDC (refundable after %s if never settled); it shows as funded once the transaction is confirmed",
			jobID, amount, time.Unix(int64(refundAfter), 0).UTC().Format(time.RFC3339)))
}

// payoutsOf reads every payout of a job (all pages), with the settle's
// parameters.
func payoutsOf(ctx context.Context, c *client.Client, jobID, recipient string) (client.JobPayouts, error) {
	var all client.JobPayouts
	cursor := ""
	for {
		p, err := c.GetJobPayouts(ctx, jobID, client.PayoutFilter{Recipient: recipient, Page: client.Page{Limit: 200, Cursor: cursor}})
		if err != nil {
			return all, err
		}
		payouts := append(all.Payouts, p.Payouts...)
		all = p
		all.Payouts = payouts
		if p.NextCursor == nil {
			return all, nil
		}
		cursor = *p.NextCursor
	}
}

// onChain runs the signed transaction command name on its one argument,
// JOB_ID: it parses the escrow flags (and those extra binds), dials the
// chain and calls fn.
func onChain(ctx context.Context, e *env, name string, args []string, extra func(*flag.FlagSet), fn func(ce *chainEnv, jobID string) error) error {
	var f escrowFlags
	fs := f.bind(e, name)
	if extra != nil {
		extra(fs)
	}
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	ce, err := f.dial(ctx, e, true)
	if err != nil {
		return err
	}
	defer ce.node.Close()
	return fn(ce, pos[0])
}

func escrowSettle(ctx context.Context, e *env, args []string) error {
	return onChain(ctx, e, "escrow settle", args, nil, func(ce *chainEnv, jobID string) error { return settle(ctx, e, ce, jobID) })
}

// settle sends the settle of a closed funded job: its anchor_root and
// payout total, once the snapshot re-derives the root.
func settle(ctx context.Context, e *env, ce *chainEnv, jobID string) error {
	p, err := ce.c.GetJobPayouts(ctx, jobID, client.PayoutFilter{Page: client.Page{Limit: 1}})
	if err != nil {
		return err
	}
	if p.AnchorRoot == nil || p.TotalMicroUSDC == nil {
		return fmt.Errorf("job %s has no payouts to settle (open, or closed without escrow funding)", jobID)
	}
	// The root posted is the one the public snapshot re-derives.
	rep, err := verifyAnchor(ctx, ce.c, jobID)
	if err != nil {
		return fmt.Errorf("the snapshot does not check out, nothing sent: %w", err)
	}
	if rep.Root != *p.AnchorRoot {
		return fmt.Errorf("the payouts name root %s, the anchor %s: nothing sent", *p.AnchorRoot, rep.Root)
	}
	total, ok := new(big.Int).SetString(*p.TotalMicroUSDC, 10)
	if !ok {
		return fmt.Errorf("the server's total %q is not a number", *p.TotalMicroUSDC)
	}
	tx, err := ce.escrow.Settle(ce.opts(ctx), jobKeyOf(jobID), common.HexToAddress(p.SponsorAddress), common.HexToHash(*p.AnchorRoot), total)
	rcpt, err := ce.sent(ctx, "settle", tx, err)
	if err != nil {
		return err
	}
	return e.printTx(report("settle", jobID, rcpt, map[string]any{"root": *p.AnchorRoot, "total_micro_usdc": *p.TotalMicroUSDC}),
		fmt.Sprintf("settled job %s: root %s, total %s micro-USDC", jobID, *p.AnchorRoot, *p.TotalMicroUSDC))
}

// cmdClaim sends the claim of the caller's payout (or --recipient's).
func cmdClaim(ctx context.Context, e *env, args []string) error {
	var recipient *string
	return onChain(ctx, e, "claim", args, func(fs *flag.FlagSet) {
		recipient = fs.String("recipient", "", "claim this recipient's payout (the money goes to them; default: you)")
	}, func(ce *chainEnv, jobID string) error {
		rep, err := ce.claim(ctx, jobID, *recipient)
		if err != nil {
			return err
		}
		d := rep.Details.(map[string]any)
		amount, _ := strconv.ParseInt(d["amount_micro_usdc"].(string), 10, 64)
		return e.printTx(rep, fmt.Sprintf("claimed %s USDC for %s from job %s", openjury.MicroUSDC(amount), d["recipient"], rep.JobID))
	})
}

// claim sends BountyEscrow.claim for recipient's payout of job jobID (the
// signer's own when recipient is ""), after checking the server's proof
// against the job's anchor root. Errors: no payout, claimed already, a
// proof that does not lead to the root (nothing sent), a revert.
func (ce *chainEnv) claim(ctx context.Context, jobID, recipient string) (txReport, error) {
	who := strings.ToLower(ce.signer.Address().Hex())
	if recipient != "" {
		a, err := openjury.ParseAddress("recipient", recipient)
		if err != nil {
			return txReport{}, usageError(err.Error())
		}
		who = a.String()
	}
	p, err := ce.c.GetJobPayouts(ctx, jobID, client.PayoutFilter{Recipient: who})
	if err != nil {
		return txReport{}, err
	}
	if len(p.Payouts) == 0 {
		return txReport{}, fmt.Errorf("job %s has no payout to %s", jobID, who)
	}
	po := p.Payouts[0]
	if po.Claimed {
		return txReport{}, fmt.Errorf("the payout to %s is claimed already (tx %s)", who, deref(po.ClaimTxHash))
	}
	amount, err := strconv.ParseUint(po.AmountMicroUSDC, 10, 64)
	if err != nil {
		return txReport{}, fmt.Errorf("the server's amount %q is not a number", po.AmountMicroUSDC)
	}
	if p.AnchorRoot == nil {
		return txReport{}, fmt.Errorf("job %s has no anchor root", jobID)
	}
	// Check the proof against the root before paying gas for it.
	key := jobKeyOf(jobID)
	leaf := anchor.PayoutLeaf(key, openjury.Address(who), amount)
	proof := make([][32]byte, len(po.Proof))
	nodes := make([]anchor.Node, len(po.Proof))
	for i, h := range po.Proof {
		n, err := anchor.NodeOf(openjury.Hash(h))
		if err != nil {
			return txReport{}, fmt.Errorf("the server's proof: %w", err)
		}
		proof[i], nodes[i] = n, n
	}
	root, err := anchor.NodeOf(openjury.Hash(*p.AnchorRoot))
	if err != nil {
		return txReport{}, err
	}
	if !anchor.Verify(nodes, root, leaf) {
		return txReport{}, errors.New("the server's proof does not lead to the job's anchor root: nothing sent")
	}
	tx, err := ce.escrow.Claim(ce.opts(ctx), key, common.HexToAddress(p.SponsorAddress), common.HexToAddress(who), new(big.Int).SetUint64(amount), proof)
	rcpt, err := ce.sent(ctx, "claim", tx, err)
	if err != nil {
		return txReport{}, err
	}
	return report("claim", jobID, rcpt, map[string]any{"recipient": who, "amount_micro_usdc": po.AmountMicroUSDC}), nil
}

func escrowRefund(ctx context.Context, e *env, args []string) error {
	return onChain(ctx, e, "escrow refund", args, nil, func(ce *chainEnv, jobID string) error {
		tx, err := ce.escrow.Refund(ce.opts(ctx), jobKeyOf(jobID))
		rcpt, err := ce.sent(ctx, "refund", tx, err)
		if err != nil {
			return err
		}
		return e.printTx(report("refund", jobID, rcpt, nil), fmt.Sprintf("refunded your escrow of job %s", jobID))
	})
}

// escrowReport is what escrow status prints.
// It is the escrow_status tool's view with every payout (all pages) and,
// with a node, the slot on chain.
type escrowReport struct {
	mcpserver.EscrowView
	OnChain      *slotJSON `json:"onchain"`
	EscrowAtNode string    `json:"escrow_contract_address,omitempty"`
}

// slotJSON is the escrow slot as the chain holds it.
type slotJSON struct {
	Status      string `json:"status"`
	Funded      string `json:"funded_micro_usdc"`
	Total       string `json:"total_micro_usdc"`
	Claimed     string `json:"claimed_micro_usdc"`
	Root        string `json:"root"`
	RefundAfter uint64 `json:"refund_after"`
}

func escrowStatus(ctx context.Context, e *env, args []string) error {
	var f escrowFlags
	fs := f.bind(e, "escrow status")
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	jobID := pos[0]
	c, err := e.client(false)
	if err != nil {
		return err
	}
	job, err := c.GetJob(ctx, jobID)
	if err != nil {
		return err
	}
	p, err := payoutsOf(ctx, c, jobID, "")
	if err != nil {
		return err
	}
	rep := escrowReport{EscrowView: mcpserver.EscrowView{JobID: jobID, EscrowStatus: job.EscrowStatus, EscrowAmountUSDC: job.EscrowAmountUSDC,
		EscrowRefundAfter: job.EscrowRefundAfter, EscrowMismatch: job.EscrowMismatch, EscrowTxHash: job.EscrowTxHash,
		AnchorRoot: p.AnchorRoot, TotalUSDC: p.TotalUSDC, Payouts: p.Payouts}}
	if f.rpcURL != "" || e.getenv("OPENJURY_RPC_URL") != "" {
		ce, err := f.dial(ctx, e, false)
		if err != nil {
			return err
		}
		defer ce.node.Close()
		slot, err := ce.escrow.SlotOf(&bind.CallOpts{Context: ctx}, jobKeyOf(jobID), common.HexToAddress(deref(job.SponsorAddress)))
		if err != nil {
			return fmt.Errorf("the escrow slot: %w", err)
		}
		rep.OnChain = &slotJSON{Status: [...]string{"none", "funded", "settled", "refunded"}[min(int(slot.Status), 3)],
			Funded: slot.Funded.String(), Total: slot.Total.String(), Claimed: slot.Claimed.String(),
			Root: common.Hash(slot.Root).Hex(), RefundAfter: slot.RefundAfter}
		rep.EscrowAtNode = strings.ToLower(ce.address.Hex())
	}
	return e.print(rep, func(w io.Writer) {
		if rep.EscrowStatus == nil {
			fmt.Fprintf(w, "job %s: the server follows no escrow\n", jobID)
			return
		}
		fmt.Fprintf(w, "job %s: escrow %s", jobID, *rep.EscrowStatus)
		if rep.EscrowAmountUSDC != nil {
			fmt.Fprintf(w, ", %s USDC funded", rep.EscrowAmountUSDC.String())
		}
		if rep.EscrowRefundAfter != nil {
			fmt.Fprintf(w, ", refundable after %s if never settled", rep.EscrowRefundAfter.UTC().Format(time.RFC3339))
		}
		if rep.EscrowMismatch != nil && *rep.EscrowMismatch {
			fmt.Fprint(w, " - SETTLED WITH ANOTHER ROOT OR TOTAL THAN THE JOB'S")
		}
		fmt.Fprintln(w)
		for _, po := range rep.Payouts {
			state := "unclaimed"
			if po.Claimed {
				state = "claimed in " + deref(po.ClaimTxHash)
			}
			fmt.Fprintf(w, "  %s  %s USDC  %s  %s\n", po.Recipient, po.AmountUSDC.String(), strings.Join(po.Roles, ","), state)
		}
		if s := rep.OnChain; s != nil {
			fmt.Fprintf(w, "on chain: %s, funded %s, settled total %s, claimed %s, root %s\n", s.Status, s.Funded, s.Total, s.Claimed, s.Root)
		}
	})
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
