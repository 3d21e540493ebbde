package anchor

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"time"
	"unicode/utf8"

	"github.com/openjury/openjury"
)

// CanonicalRecord returns the canonical bytes of one record, its element
// of the document's "records" (see the package doc): r's fields with "id"
// and "type", in RFC 8785 form. Build and the service's streaming close
// both use it, so a record has the same bytes whichever made it.
// Errors: Invalid for an empty, reserved or not UTF-8 id, or fields that
// do not marshal to JSON.
func CanonicalRecord(r Record) ([]byte, error) {
	const op = "anchor.CanonicalRecord"
	if r.ID == "" || r.ID == SaltRecordID {
		return nil, openjury.Errorf(openjury.Invalid, op, "record id %q: empty or reserved", r.ID)
	}
	if !utf8.ValidString(r.ID) {
		// JSON would store another id (with U+FFFD) than the one given.
		return nil, openjury.Errorf(openjury.Invalid, op, "record id %q: not UTF-8", r.ID)
	}
	obj := make(map[string]any, len(r.Fields)+2)
	maps.Copy(obj, r.Fields)
	obj["id"], obj["type"] = r.ID, r.Type
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, openjury.Errorf(openjury.Invalid, op, "record %s: %v", r.ID, err)
	}
	return Canonical(raw)
}

// recordsKey is the "records" member of a framed document with no
// records: where the records go.
var recordsKey = []byte(`"records":[]`)

// DocumentFrame returns the bytes of a snapshot document of schema
// version version around its records: prefix ends with `"records":[` and
// suffix starts with the `]` that closes the list. A document is prefix,
// the records' canonical bytes joined by commas, and suffix, byte for byte
// what Build makes of the same records (JCS orders the members created_at,
// job_id, records, root, salt, schema_version), so it can be written as a
// stream without holding the records. Errors: Invalid when the members do
// not canonicalise.
func DocumentFrame(version int, jobID string, createdAt time.Time, salt, root openjury.Hash) (prefix, suffix []byte, err error) {
	const op = "anchor.DocumentFrame"
	doc, err := json.Marshal(documentJSON{
		SchemaVersion: version,
		JobID:         jobID,
		CreatedAt:     openjury.FormatTime(createdAt),
		Salt:          string(salt),
		Root:          string(root),
		Records:       []json.RawMessage{},
	})
	if err != nil {
		return nil, nil, openjury.Wrap(op, err)
	}
	if doc, err = Canonical(doc); err != nil {
		return nil, nil, openjury.Wrap(op, err)
	}
	// Only the member name can appear unescaped: a string value holding
	// it has its quotes escaped.
	i := bytes.Index(doc, recordsKey)
	if i < 0 {
		return nil, nil, openjury.E(openjury.Internal, op, "the framed document has no records member")
	}
	cut := i + len(recordsKey) - 1 // before the ]
	return doc[:cut], doc[cut:], nil
}

// DocumentHeader is a snapshot document without its records.
type DocumentHeader struct {
	SchemaVersion int
	JobID         string
	CreatedAt     string
	Root          openjury.Hash
	Salt          openjury.Hash
}

// ScanDocument reads a snapshot document from r as a stream and calls fn
// with each record's id and canonical bytes (its element of "records", as
// served; fn must not keep raw), in document order. It never holds more
// than one record, so a document of any size can be checked. It returns
// the other members. Errors: Invalid when r is not a schema version 1 or 2
// document (a record without a string id included, payout records in a
// version 1 document or none in a version 2 one), or fn's error.
func ScanDocument(r io.Reader, fn func(id string, raw []byte) error) (*DocumentHeader, error) {
	return scanDocument(r, func(_ *DocumentHeader, id, _ string, raw []byte) error {
		if fn == nil {
			return nil
		}
		return fn(id, raw)
	})
}

// scanDocument is ScanDocument calling fn also with each record's type and
// the members read before the records (in a canonical document
// created_at and job_id).
func scanDocument(r io.Reader, fn func(h *DocumentHeader, id, recordType string, raw []byte) error) (*DocumentHeader, error) {
	const op = "anchor.ScanDocument"
	bad := func(err error) error { return openjury.Errorf(openjury.Invalid, op, "snapshot: %v", err) }
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, bad(err)
	}
	var (
		h                     DocumentHeader
		root, salt            string
		sawVersion, sawRecord bool
		payouts               int
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, bad(err)
		}
		key, _ := tok.(string)
		var dst any
		switch key {
		case "records":
			if err := scanRecords(dec, func(id, recordType string, raw []byte) error {
				if recordType == PayoutRecordType {
					payouts++
				}
				return fn(&h, id, recordType, raw)
			}); err != nil {
				if isOJ(err) {
					return nil, err
				}
				return nil, bad(err)
			}
			sawRecord = true
			continue
		case "schema_version":
			dst, sawVersion = &h.SchemaVersion, true
		case "job_id":
			dst = &h.JobID
		case "created_at":
			dst = &h.CreatedAt
		case "root":
			dst = &root
		case "salt":
			dst = &salt
		default:
			dst = new(json.RawMessage)
		}
		if err := dec.Decode(dst); err != nil {
			return nil, bad(err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, bad(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad(errors.New("data after the document"))
	}
	if !sawVersion {
		return nil, openjury.E(openjury.Invalid, op, "snapshot: no schema_version")
	}
	if err := checkVersion(op, h.SchemaVersion, payouts); err != nil {
		return nil, err
	}
	if !sawRecord {
		return nil, bad(errors.New("no records"))
	}
	var err error
	if h.Root, err = openjury.ParseHash("root", root); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	if h.Salt, err = openjury.ParseHash("salt", salt); err != nil {
		return nil, openjury.Wrap(op, err)
	}
	return &h, nil
}

// isOJ reports whether err is an *openjury.Error.
func isOJ(err error) bool {
	var oj *openjury.Error
	return errors.As(err, &oj)
}

// scanRecords reads the records array at dec and calls fn for each with
// its id and type.
func scanRecords(dec *json.Decoder, fn func(id, recordType string, raw []byte) error) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	var raw json.RawMessage
	for dec.More() {
		raw = raw[:0]
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var head struct {
			ID   *string `json:"id"`
			Type string  `json:"type"`
		}
		if err := json.Unmarshal(raw, &head); err != nil || head.ID == nil || *head.ID == "" || *head.ID == SaltRecordID {
			return openjury.E(openjury.Invalid, "anchor.ScanDocument", "snapshot: a record without a unique string id")
		}
		if err := fn(*head.ID, head.Type, raw); err != nil {
			return err
		}
	}
	return expectDelim(dec, ']')
}

// expectDelim reads the next token of dec, which must be d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return errors.New("not a snapshot document")
	}
	return nil
}

// VerifyReader checks a snapshot document read from r as a stream against
// root, like VerifyDocument: the root re-derived from its records and salt,
// and the root it states, must both equal root, and record ids must be
// unique. Each record's leaf is RecordLeaf's: in a schema version 2
// document a payout record's is PayoutLeaf of its members, checked to
// name the document's job. It holds the records' leaves and ids, never
// their bytes, so a document of any size can be checked; each, when not
// nil, is called with every record's id and leaf, in document order. It
// returns the header and the number of records. Errors: Invalid.
func VerifyReader(r io.Reader, root openjury.Hash, each func(id string, leaf Node)) (*DocumentHeader, int, error) {
	const op = "anchor.VerifyDocument"
	var leaves []Node
	seen := map[string]struct{}{}
	h, err := scanDocument(r, func(h *DocumentHeader, id, recordType string, raw []byte) error {
		if _, dup := seen[id]; dup {
			return openjury.E(openjury.Invalid, op, "snapshot: a record without a unique string id")
		}
		seen[id] = struct{}{}
		leaf, err := RecordLeaf(h.JobID, recordType, raw)
		if err != nil {
			return err
		}
		leaves = append(leaves, leaf)
		if each != nil {
			each(id, leaf)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	salt, err := NodeOf(h.Salt)
	if err != nil {
		return nil, 0, openjury.Wrap(op, err)
	}
	n := len(leaves)
	if got := openjury.HashFromBytes(NewTree(append(leaves, Leaf(salt[:]))).Root()); got != root {
		return nil, 0, openjury.Errorf(openjury.Invalid, op, "root: the records give %s, want %s", got, root)
	}
	if h.Root != root {
		return nil, 0, openjury.Errorf(openjury.Invalid, op, "root: the document states %s, want %s", h.Root, root)
	}
	return h, n, nil
}

// NodeAt is a position in a Merkle tree: Level 0 holds the sorted leaves,
// the last level the root; Index counts from 0 within the level.
type NodeAt struct {
	Level int
	Index int64
}

// ProofPath returns the positions of the proof of the leaf at index among
// leaves sorted leaves: the sibling of each level from the bottom up,
// leaving out the levels where the node moves up unchanged (an odd last
// node). The proof is the nodes at these positions, in this order, so a
// tree stored level by level proves a leaf in O(log n) reads.
func ProofPath(index, leaves int64) []NodeAt {
	var out []NodeAt
	for level, size := 0, leaves; size > 1; level++ {
		if sib := index ^ 1; sib < size {
			out = append(out, NodeAt{Level: level, Index: sib})
		}
		index /= 2
		size = (size + 1) / 2
	}
	return out
}

// NextLevel returns the level above level (nodes in tree order): pairs
// hashed with HashPair, an odd last node moved up unchanged. A tree is
// built from the sorted leaves by NextLevel until one node is left.
func NextLevel(level []Node) []Node {
	next := make([]Node, 0, (len(level)+1)/2)
	for i := 0; i < len(level); i += 2 {
		if i+1 == len(level) {
			next = append(next, level[i])
			continue
		}
		next = append(next, HashPair(level[i], level[i+1]))
	}
	return next
}
