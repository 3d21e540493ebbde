package search

import (
	"crypto/sha256"
	"encoding/base64"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/internal/cursor"
)

// A search cursor carries the rest of the ranking its first page computed
// (docs/rules.md#search): the following pages read their documents from
// it instead of ranking again, so the pages of one query never repeat a
// document and never skip one that the first page's ranking held, whatever
// is written, changed or deleted meanwhile and whichever replica answers.
// A document written after the first page is not in its pages; one
// deleted meanwhile is left out; one changed meanwhile keeps its place and
// shows its current text.
//
// The cursor is base64url of bytes: a header (cursorVersion, the rankings
// used, the query's fingerprint), then per document its kind (bit 7 set
// when the id is not a canonical UUID), its lexical and vector ranks, and
// its id (16 bytes of UUID, or a length byte and up to maxRawID bytes).
// Its similarity is computed again from the ranks. A UUID entry takes 19
// bytes, so a cursor is at most about 5 KB.

// cursorVersion is the first byte of every search cursor.
const cursorVersion = 1

const (
	// fingerprintBytes is the size of a query's fingerprint.
	fingerprintBytes = 8
	// cursorHeader is the header's size: version, rankings, fingerprint.
	cursorHeader = 2 + fingerprintBytes
	// maxRawID is the longest id that is not a canonical UUID a cursor
	// holds (ids are UUIDs; others come from tests).
	maxRawID = 64
	// rawIDFlag marks an entry whose id is stored as text.
	rawIDFlag = 0x80
	// maxCursorChars bounds the cursors decoded: MaxResults entries of
	// the longest ids, in base64.
	maxCursorChars = (cursorHeader + MaxResults*(4+maxRawID) + 2) / 3 * 4
)

// fingerprint identifies a query and type in its cursors.
func fingerprint(q string, kind Kind) [fingerprintBytes]byte {
	h := sha256.Sum256([]byte(string(kind) + "\x00" + q))
	return [fingerprintBytes]byte(h[:fingerprintBytes])
}

// rawIDOK reports whether a cursor can hold id as text: 1..maxRawID
// letters, digits, '-' and '_'.
func rawIDOK(id string) bool {
	if id == "" || len(id) > maxRawID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// encodeCursor returns the cursor of rest (the ranking after a page, not
// empty) of the query with fingerprint fp. It ends before a document whose
// id it cannot hold ("" when that is the first): ids are UUIDs.
func encodeCursor(fp [fingerprintBytes]byte, used rankings, rest []ranked) string {
	b := make([]byte, 0, cursorHeader+19*len(rest))
	flags := byte(0)
	if used.lex {
		flags |= 1
	}
	if used.vec {
		flags |= 2
	}
	b = append(b, cursorVersion, flags)
	b = append(b, fp[:]...)
	n := 0
	for _, r := range rest {
		if u, ok := parseUUID(r.ID); ok {
			b = append(b, r.Kind.rank(), r.Lex, r.Vec)
			b = append(b, u[:]...)
		} else if rawIDOK(r.ID) {
			b = append(b, r.Kind.rank()|rawIDFlag, r.Lex, r.Vec, byte(len(r.ID)))
			b = append(b, r.ID...)
		} else {
			break
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor parses a cursor of the query with fingerprint fp and kind
// filter kind into the rest of its ranking, with the similarities f gives
// the ranks. Anything encodeCursor could not have made for this query
// (garbage, another query's or type's cursor, a kind outside the filter,
// ranks out of range or repeated, an order that is not the ranking's) is
// Invalid "cursor: not a cursor from this list", with op.
func decodeCursor(op, s string, fp [fingerprintBytes]byte, kind Kind, f Fusion) (rankings, []ranked, error) {
	bad := openjury.E(openjury.Invalid, op, cursor.Invalid)
	if len(s) > maxCursorChars {
		return rankings{}, nil, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) <= cursorHeader || b[0] != cursorVersion || b[1] == 0 || b[1]&^3 != 0 ||
		[fingerprintBytes]byte(b[2:cursorHeader]) != fp {
		return rankings{}, nil, bad
	}
	used := rankings{lex: b[1]&1 != 0, vec: b[1]&2 != 0}
	var lexSeen, vecSeen [MaxResults + 1]bool
	var out []ranked
	for b = b[cursorHeader:]; len(b) > 0; {
		if len(b) < 4 || len(out) == MaxResults {
			return rankings{}, nil, bad
		}
		kr, lex, vec := b[0]&^rawIDFlag, b[1], b[2]
		if kr < 1 || int(kr) > len(Kinds) || lex > MaxResults || vec > MaxResults ||
			(lex > 0 && (!used.lex || lexSeen[lex])) || (vec > 0 && (!used.vec || vecSeen[vec])) {
			return rankings{}, nil, bad
		}
		r := ranked{Key: Key{Kind: kindOfRank(kr)}, Lex: lex, Vec: vec}
		if b[0]&rawIDFlag == 0 {
			if len(b) < 3+16 {
				return rankings{}, nil, bad
			}
			r.ID, b = formatUUID([16]byte(b[3:19])), b[19:]
		} else {
			n := int(b[3])
			if len(b) < 4+n || !rawIDOK(string(b[4:4+n])) {
				return rankings{}, nil, bad
			}
			r.ID, b = string(b[4:4+n]), b[4+n:]
		}
		r.Similarity = f.similarity(used, lex, vec)
		if (kind != "" && r.Kind != kind) || r.Similarity <= 0 || (len(out) > 0 && !out[len(out)-1].less(r)) {
			return rankings{}, nil, bad
		}
		lexSeen[lex] = lexSeen[lex] || lex > 0
		vecSeen[vec] = vecSeen[vec] || vec > 0
		out = append(out, r)
	}
	return used, out, nil
}
