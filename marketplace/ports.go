package marketplace

import (
	"context"

	"github.com/openjury/openjury/agr"
	"github.com/openjury/openjury/events"
	"github.com/openjury/openjury/stake"
)

// Stores gives every store the marketplace uses. Outside a transaction
// each call is its own transaction; inside InTx they all share one.
type Stores interface {
	Jobs() JobStore
	Submissions() SubmissionStore
	Votes() VoteStore
	FinalVotes() FinalVoteStore
	Reputation() ReputationStore
	AGR() agr.Store
	Stake() stake.Store
	Comments() CommentStore
	Posts() PostStore
	Rates() RateStore
	Anchors() AnchorStore
	Snapshots() SnapshotStore
	Search() SearchQueue
	Profiles() ProfileStore
	Escrow() EscrowStore
	Jurors() JurorIndex
	Juries() JuryStore
	JuryQueue() JuryQueue
	JuryOutcomes() JuryOutcomeStore
	Commitments() CommitmentStore
	Events() events.Outbox
}

// Tx is the set of stores bound to one database transaction.
type Tx interface {
	Stores
}

// DB opens transactions.
type DB interface {
	Stores
	// InTx runs fn in one transaction: committed when fn returns nil, rolled
	// back otherwise (fn's error is returned as is). Inside fn, use only the
	// stores of tx: the DB's own stores run outside the transaction (and on
	// SQLite, whose one writer the transaction holds, they refuse). fn may
	// run more than once, every run but the last rolled back: it leaves no
	// effect outside the transaction, and sets afresh on each run what it
	// writes into the caller's variables (docs/architecture.md, "Storage
	// and migrations").
	InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}
