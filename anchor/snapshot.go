package anchor

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gowebpki/jcs"

	"github.com/openjury/openjury"
)

// SchemaVersion is the version of the snapshot rules in the package doc.
const SchemaVersion = 1

// SaltRecordID is the record id of the salt's leaf.
const SaltRecordID = "salt"

// SaltSize is the size of the salt in bytes.
const SaltSize = 32

// Record is one record of a snapshot: its id (unique in the snapshot), its
// type, and its other members. Fields must marshal to JSON; they may not
// use the names "id" and "type".
type Record struct {
	ID     string
	Type   string
	Fields map[string]any
}

// Snapshot is a built snapshot: the canonical document and its root.
type Snapshot struct {
	// Document is the canonical JSON document, stored and served as is.
	Document []byte
	// Root is the Merkle root of the records and the salt.
	Root openjury.Hash
	// Salt is the salt, a leaf of the tree.
	Salt openjury.Hash
	// ids are the record ids in document order, then SaltRecordID;
	// leaves[i] is the leaf of ids[i]; tree is the tree Build made.
	ids    []string
	leaves []Node
	tree   *Tree
}

// documentJSON is the document's shape (see the package doc).
type documentJSON struct {
	SchemaVersion int               `json:"schema_version"`
	JobID         string            `json:"job_id"`
	CreatedAt     string            `json:"created_at"`
	Salt          string            `json:"salt"`
	Root          string            `json:"root"`
	Records       []json.RawMessage `json:"records"`
}

// Canonical returns the RFC 8785 (JCS) form of a JSON text.
// Errors: Invalid when it is not JSON.
func Canonical(data []byte) ([]byte, error) {
	out, err := jcs.Transform(data)
	if err != nil {
		return nil, openjury.Errorf(openjury.Invalid, "anchor.Canonical", "not canonicalisable JSON: %v", err)
	}
	return out, nil
}

// Build makes the snapshot of a job from its records and salt, at
// createdAt: of schema version 1, or SchemaVersionPayouts when a record is
// a payout (whose leaf is then PayoutLeaf). Errors: Invalid for a record
// that is not JSON, a duplicate, reserved or not UTF-8 id, a malformed
// payout record.
func Build(jobID string, salt [SaltSize]byte, createdAt time.Time, records []Record) (*Snapshot, error) {
	const op = "anchor.Build"
	raws := make([]json.RawMessage, len(records))
	ids := make([]string, 0, len(records)+1)
	leaves := make([]Node, 0, len(records)+1)
	seen := make(map[string]bool, len(records))
	version := SchemaVersion
	for i, r := range records {
		if seen[r.ID] {
			return nil, openjury.Errorf(openjury.Invalid, op, "record id %q: empty, reserved or repeated", r.ID)
		}
		seen[r.ID] = true
		var err error
		if raws[i], err = CanonicalRecord(r); err != nil {
			return nil, openjury.Wrap(op, err)
		}
		leaf, err := RecordLeaf(jobID, r.Type, raws[i])
		if err != nil {
			return nil, openjury.Wrap(op, err)
		}
		if r.Type == PayoutRecordType {
			version = SchemaVersionPayouts
		}
		ids, leaves = append(ids, r.ID), append(leaves, leaf)
	}
	ids, leaves = append(ids, SaltRecordID), append(leaves, Leaf(salt[:]))
	tree := NewTree(leaves)
	root := openjury.HashFromBytes(tree.Root())
	doc, err := json.Marshal(documentJSON{
		SchemaVersion: version,
		JobID:         jobID,
		CreatedAt:     openjury.FormatTime(createdAt),
		Salt:          string(openjury.HashFromBytes(salt)),
		Root:          string(root),
		Records:       raws,
	})
	if err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if doc, err = Canonical(doc); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return &Snapshot{Document: doc, Root: root, Salt: openjury.HashFromBytes(salt), ids: ids, leaves: leaves, tree: tree}, nil
}

// Proofs returns the proof of every record of the snapshot, in document
// order, then the salt's (record id SaltRecordID): each one what
// Document.Prove returns for that record of the parsed document. They come
// from the tree Build made, so a snapshot's proofs can be stored with it
// and served one by one without reading the document again. A Snapshot
// not made by Build has none.
func (s *Snapshot) Proofs() []Proof {
	if s.tree == nil {
		return nil
	}
	out := make([]Proof, len(s.ids))
	for i, id := range s.ids {
		out[i] = prove(s.tree, id, s.leaves[i])
	}
	return out
}

// Document is a parsed snapshot document.
type Document struct {
	SchemaVersion int
	JobID         string
	CreatedAt     string
	// Root and Salt are as the document states them.
	Root openjury.Hash
	Salt openjury.Hash
	// Records are the records' canonical bytes by record id, in document
	// order in IDs.
	Records map[string][]byte
	IDs     []string
	salt    Node
	// leaves are the records' leaves by record id (RecordLeaf).
	leaves map[string]Node
}

// ParseDocument parses a snapshot document. Errors: Invalid when it is not
// a schema version 1 or 2 document (see ScanDocument) or a payout record
// is malformed.
func ParseDocument(data []byte) (*Document, error) {
	const op = "anchor.ParseDocument"
	var dj documentJSON
	if err := json.Unmarshal(data, &dj); err != nil {
		return nil, openjury.Errorf(openjury.Invalid, op, "snapshot: %v", err)
	}
	d := &Document{SchemaVersion: dj.SchemaVersion, JobID: dj.JobID, CreatedAt: dj.CreatedAt,
		Records: make(map[string][]byte, len(dj.Records)), leaves: make(map[string]Node, len(dj.Records))}
	var err error
	if d.Root, err = openjury.ParseHash("root", dj.Root); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if d.Salt, err = openjury.ParseHash("salt", dj.Salt); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if d.salt, err = NodeOf(d.Salt); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	payouts := 0
	for _, raw := range dj.Records {
		var head struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		}
		if err := json.Unmarshal(raw, &head); err != nil || head.ID == "" || head.ID == SaltRecordID || d.Records[head.ID] != nil {
			return nil, openjury.E(openjury.Invalid, op, "snapshot: a record without a unique string id")
		}
		if head.Type == PayoutRecordType {
			payouts++
		}
		if d.leaves[head.ID], err = RecordLeaf(d.JobID, head.Type, raw); err != nil {
			return nil, openjury.Wrap(op, err)
		}
		d.Records[head.ID] = raw
		d.IDs = append(d.IDs, head.ID)
	}
	if err := checkVersion(op, d.SchemaVersion, payouts); err != nil {
		return nil, err
	}
	return d, nil
}

// Leaf returns the leaf of a record id (SaltRecordID for the salt); ok is
// false for an unknown id.
func (d *Document) Leaf(recordID string) (leaf Node, ok bool) {
	if recordID == SaltRecordID {
		return Leaf(d.salt[:]), true
	}
	leaf, ok = d.leaves[recordID]
	return leaf, ok
}

// Tree builds the Merkle tree of the document's records and salt.
func (d *Document) Tree() *Tree {
	leaves := make([]Node, 0, len(d.IDs)+1)
	for _, id := range d.IDs {
		leaves = append(leaves, d.leaves[id])
	}
	return NewTree(append(leaves, Leaf(d.salt[:])))
}

// Proof is the Merkle proof of one record.
type Proof struct {
	Record string
	Leaf   openjury.Hash
	Proof  []openjury.Hash
	Root   openjury.Hash
}

// Prove returns the proof of a record of the document against the root
// re-derived from it. Errors: NotFound for an unknown record id.
func (d *Document) Prove(recordID string) (Proof, error) {
	leaf, ok := d.Leaf(recordID)
	if !ok {
		return Proof{}, openjury.E(openjury.NotFound, "anchor.Prove", "record not found")
	}
	return prove(d.Tree(), recordID, leaf), nil
}

// prove returns the proof of leaf, the leaf of record id recordID in t.
func prove(t *Tree, recordID string, leaf Node) Proof {
	nodes, _ := t.Proof(leaf)
	p := Proof{Record: recordID, Leaf: openjury.HashFromBytes(leaf), Proof: make([]openjury.Hash, len(nodes)), Root: openjury.HashFromBytes(t.Root())}
	for i, n := range nodes {
		p.Proof[i] = openjury.HashFromBytes(n)
	}
	return p
}

// VerifyDocument checks a fetched snapshot document against the root
// posted onchain (or published as anchor_root): the root re-derived from
// its records and salt, and the root it states, must both equal root.
func VerifyDocument(data []byte, root openjury.Hash) error {
	_, _, err := VerifyReader(bytes.NewReader(data), root, nil)
	return err
}

// VerifyProof checks that a record's canonical bytes (or, for the salt,
// its 32 raw bytes), with proof, lead to root.
func VerifyProof(record []byte, proof []openjury.Hash, root openjury.Hash) error {
	nodes := make([]Node, len(proof))
	for i, h := range proof {
		b, err := NodeOf(h)
		if err != nil {
			return err
		}
		nodes[i] = b
	}
	r, err := NodeOf(root)
	if err != nil {
		return err
	}
	if !Verify(nodes, r, Leaf(record)) {
		return openjury.E(openjury.Invalid, "anchor.VerifyProof", "proof: does not lead to the root")
	}
	return nil
}

// NodeOf returns the 32 bytes of a hash in canonical or any-case form.
// Errors: Invalid when h is not 0x and 64 hex digits.
func NodeOf(h openjury.Hash) (Node, error) {
	p, err := openjury.ParseHash("hash", string(h))
	if err != nil {
		return Node{}, err
	}
	var n Node
	if _, err := hex.Decode(n[:], []byte(p[2:])); err != nil {
		return Node{}, fmt.Errorf("anchor: %w", err)
	}
	return n, nil
}
