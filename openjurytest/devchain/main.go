// Command devchain serves a local development chain for trying OpenJury's
// onchain features from a shell: go-ethereum's simulated chain (chain id
// 1337) over JSON-RPC, with the project's contracts deployed (test USDC,
// stake vault, anchor registry, Merkle verifier, bounty escrow settled by
// the deployer), a new block every
// -block-time, and scripted actions taken once the chain is up.
//
//	go run ./openjurytest/devchain -addr 127.0.0.1:8545 \
//	    -wallet-owner 0xOWNER       # deploy an ERC-1271 TestWallet owned by 0xOWNER
//	    -stake 0xAGENT=15           # deposit 15 USDC into the vault for 0xAGENT
//	    -slash 0xAGENT=2            # then slash 2 USDC of it
//
// It prints the SERVICE_* settings the host needs (eval-able lines) and
// the addresses it deployed, then serves until interrupted. A test and dev
// aid only: the chain lives in memory.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/openjurytest/simchain"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "devchain:", err)
		os.Exit(2)
	}
}

// cmdTB lets simchain run outside a test: a failure stops the command.
type cmdTB struct{ cleanups []func() }

func (c *cmdTB) Errorf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "devchain: "+format+"\n", args...)
}
func (c *cmdTB) FailNow()         { c.close(); os.Exit(1) }
func (c *cmdTB) Helper()          {}
func (c *cmdTB) Cleanup(f func()) { c.cleanups = append(c.cleanups, f) }
func (c *cmdTB) close() {
	for i := len(c.cleanups) - 1; i >= 0; i-- {
		c.cleanups[i]()
	}
	c.cleanups = nil
}

// amounts is a repeatable ADDRESS=USDC flag.
type amounts []struct {
	addr   common.Address
	micros int64
}

func (a *amounts) String() string { return fmt.Sprint(len(*a)) }

func (a *amounts) Set(v string) error {
	addr, amount, ok := strings.Cut(v, "=")
	if !ok {
		return errors.New("want ADDRESS=USDC")
	}
	parsed, err := openjury.ParseAddress("address", addr)
	if err != nil {
		return err
	}
	m, err := openjury.ParseUSDC("amount", amount)
	if err != nil {
		return err
	}
	*a = append(*a, struct {
		addr   common.Address
		micros int64
	}{common.Address(parsed.Bytes()), int64(m)})
	return nil
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("devchain", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8545", "JSON-RPC listen address")
	blockTime := fs.Duration("block-time", time.Second, "seal a block this often (0: only when a script action runs)")
	var owners []string
	fs.Func("wallet-owner", "deploy an ERC-1271 TestWallet owned by this address (repeatable)", func(v string) error {
		owners = append(owners, v)
		return nil
	})
	var stakes, slashes amounts
	fs.Var(&stakes, "stake", "deposit ADDRESS=USDC into the stake vault (repeatable)")
	fs.Var(&slashes, "slash", "slash ADDRESS=USDC from the stake vault, to the deployer (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tb := &cmdTB{}
	defer tb.close()
	ch := simchain.New(tb, simchain.WithHTTPAddr(*addr))

	addrOf := func(a common.Address) string { return openjury.AddressFromBytes(a).String() }
	fmt.Fprintf(stdout, "export SERVICE_RPC_URL=%s\n", ch.URL)
	fmt.Fprintf(stdout, "export SERVICE_CHAIN_ID=%d\n", simchain.ChainID)
	fmt.Fprintf(stdout, "export SERVICE_USDC_ADDRESS=%s\n", addrOf(ch.USDCAddr))
	fmt.Fprintf(stdout, "export SERVICE_STAKE_CONTRACT_ADDRESS=%s\n", addrOf(ch.VaultAddr))
	fmt.Fprintf(stdout, "export SERVICE_ANCHOR_REGISTRY_ADDRESS=%s\n", addrOf(ch.RegistryAddr))
	fmt.Fprintf(stdout, "export MERKLE_VERIFIER_ADDRESS=%s\n", addrOf(ch.VerifierAddr))
	fmt.Fprintf(stdout, "export SERVICE_ESCROW_CONTRACT_ADDRESS=%s  # BountyEscrow, settler %s\n", addrOf(ch.EscrowAddr), addrOf(ch.Deployer.Address))
	fmt.Fprintf(stdout, "export SERVICE_TREASURY_ADDRESS=%s  # receives the platform fee\n", addrOf(ch.Accounts[len(ch.Accounts)-1].Address))
	fmt.Fprintf(stdout, "# the settler's key, for openjury escrow settle (a development chain's, never a real one): %x\n", crypto.FromECDSA(ch.Deployer.Key))
	for _, o := range owners {
		owner, err := openjury.ParseAddress("wallet-owner", o)
		if err != nil {
			return err
		}
		w := ch.DeployWallet(common.Address(owner.Bytes()))
		fmt.Fprintf(stdout, "export CONTRACT_WALLET=%s  # ERC-1271 wallet of %s\n", addrOf(w), owner)
	}
	for _, s := range stakes {
		ch.Deposit(ch.Accounts[0], s.addr, s.micros)
		fmt.Fprintf(stdout, "# deposited %s USDC for %s\n", openjury.MicroUSDC(s.micros), addrOf(s.addr))
	}
	for _, s := range slashes {
		ch.Slash(s.addr, ch.Deployer.Address, s.micros)
		fmt.Fprintf(stdout, "# slashed %s USDC of %s\n", openjury.MicroUSDC(s.micros), addrOf(s.addr))
	}
	fmt.Fprintf(stdout, "# serving chain %d at %s, head %s; Ctrl-C stops\n", simchain.ChainID, ch.URL, strconv.FormatInt(ch.Head(), 10))

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	var tick <-chan time.Time
	if *blockTime > 0 {
		t := time.NewTicker(*blockTime)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-stop:
			return nil
		case <-tick:
			ch.Mine(1)
		}
	}
}
