package anchor

import (
	"encoding/binary"
	"encoding/json"
	"strconv"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/openjury/openjury"
)

// JobKey returns the bounty escrow's key of a job: keccak256 of the job id's
// bytes, the UUID string exactly as served (docs/onchain.md). The escrow
// keeps one slot per (job key, sponsor).
func JobKey(jobID string) [32]byte {
	return [32]byte(crypto.Keccak256([]byte(jobID)))
}

// PayoutLeaf returns the Merkle leaf of a payout record, the one rule that
// is not the JSON leaf rule (docs/onchain.md): keccak256(keccak256(
// abi.encode(jobKey, recipient, amount))), so that the escrow's claim can
// check it with OpenZeppelin's MerkleProof. abi.encode of (bytes32,
// address, uint256) is three 32-byte words: the key, the address
// left-padded with zeros, the amount big-endian left-padded with zeros.
// amountMicroUSDC is unsigned so that no negative amount can be encoded.
func PayoutLeaf(jobKey [32]byte, recipient openjury.Address, amountMicroUSDC uint64) Node {
	var words [3 * 32]byte
	copy(words[:32], jobKey[:])
	addr := recipient.Bytes()
	copy(words[32+12:64], addr[:])
	binary.BigEndian.PutUint64(words[96-8:], amountMicroUSDC)
	return Leaf(words[:])
}

// SchemaVersionPayouts is the schema version of the snapshot of a job that
// has payouts (a funded job, docs/rules.md#escrow-and-payouts): version 1
// plus payout records, whose leaf is PayoutLeaf.
const SchemaVersionPayouts = 2

// PayoutRecordType is the type of a payout record.
const PayoutRecordType = "payout"

// The roles of a payout's recipient.
const (
	RoleWinner   = "winner"
	RoleJuror    = "juror"
	RolePlatform = "platform"
)

// Payout is one payout of a closed funded job: what one recipient may
// claim from the escrow, in micro-USDC, and why (its roles, in the order
// winner, juror, platform).
type Payout struct {
	Recipient openjury.Address
	Amount    uint64
	Roles     []string
}

// PayoutRecordID returns the record id of the payout to recipient.
func PayoutRecordID(recipient openjury.Address) string {
	return PayoutRecordType + ":" + recipient.String()
}

// PayoutRecord returns the snapshot record of a payout of job jobID:
// {"id":"payout:<recipient>","type":"payout","job_key","recipient",
// "amount_micro_usdc","roles"}.
func PayoutRecord(jobID string, p Payout) Record {
	roles := p.Roles
	if roles == nil {
		roles = []string{}
	}
	key := JobKey(jobID)
	return Record{ID: PayoutRecordID(p.Recipient), Type: PayoutRecordType, Fields: map[string]any{
		"job_key":           openjury.HashFromBytes(key).String(),
		"recipient":         p.Recipient.String(),
		"amount_micro_usdc": strconv.FormatUint(p.Amount, 10),
		"roles":             roles,
	}}
}

// Leaf returns the Merkle leaf of the payout of job jobID: PayoutLeaf.
func (p Payout) Leaf(jobID string) Node {
	return PayoutLeaf(JobKey(jobID), p.Recipient, p.Amount)
}

// payoutJSON is a payout record as a document holds it.
type payoutJSON struct {
	ID        string   `json:"id"`
	JobKey    string   `json:"job_key"`
	Recipient string   `json:"recipient"`
	Amount    string   `json:"amount_micro_usdc"`
	Roles     []string `json:"roles"`
}

// ParsePayoutRecord reads the canonical bytes of a payout record of job
// jobID. Errors: Invalid when a member is missing or malformed, the id is
// not "payout:<recipient>", or job_key is not JobKey(jobID): a verifier
// then refuses the document.
func ParsePayoutRecord(jobID string, raw []byte) (Payout, error) {
	const op = "anchor.ParsePayoutRecord"
	var pj payoutJSON
	if err := json.Unmarshal(raw, &pj); err != nil {
		return Payout{}, openjury.Errorf(openjury.Invalid, op, "snapshot: payout record: %v", err)
	}
	bad := func(what string) (Payout, error) {
		return Payout{}, openjury.Errorf(openjury.Invalid, op, "snapshot: payout record %q: %s", pj.ID, what)
	}
	recipient, err := openjury.ParseAddress("recipient", pj.Recipient)
	if err != nil || recipient.String() != pj.Recipient {
		return bad("recipient is not a lowercase address")
	}
	if pj.ID != PayoutRecordID(recipient) {
		return bad("id is not payout:<recipient>")
	}
	if key := JobKey(jobID); pj.JobKey != openjury.HashFromBytes(key).String() {
		return bad("job_key is not keccak256 of the document's job_id")
	}
	amount, err := strconv.ParseUint(pj.Amount, 10, 64)
	if err != nil || strconv.FormatUint(amount, 10) != pj.Amount {
		return bad("amount_micro_usdc is not a decimal integer")
	}
	for _, r := range pj.Roles {
		if r != RoleWinner && r != RoleJuror && r != RolePlatform {
			return bad("unknown role " + strconv.Quote(r))
		}
	}
	return Payout{Recipient: recipient, Amount: amount, Roles: pj.Roles}, nil
}

// RecordLeaf returns the leaf of a record of job jobID from its canonical
// bytes and type: PayoutLeaf of its members for a payout record (checked
// by ParsePayoutRecord), else Leaf(raw), the JSON rule.
func RecordLeaf(jobID, recordType string, raw []byte) (Node, error) {
	if recordType != PayoutRecordType {
		return Leaf(raw), nil
	}
	p, err := ParsePayoutRecord(jobID, raw)
	if err != nil {
		return Node{}, err
	}
	return p.Leaf(jobID), nil
}

// checkVersion checks that a document's schema version agrees with its
// records: 1 without payout records, SchemaVersionPayouts with at least
// one.
func checkVersion(op string, version, payouts int) error {
	switch {
	case version == SchemaVersion && payouts == 0, version == SchemaVersionPayouts && payouts > 0:
		return nil
	case version == SchemaVersion:
		return openjury.E(openjury.Invalid, op, "snapshot: payout records in a schema_version 1 document")
	case version == SchemaVersionPayouts:
		return openjury.E(openjury.Invalid, op, "snapshot: a schema_version 2 document without payout records")
	}
	return openjury.Errorf(openjury.Invalid, op, "snapshot: schema_version %d, want %d or %d", version, SchemaVersion, SchemaVersionPayouts)
}
