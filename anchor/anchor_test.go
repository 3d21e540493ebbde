package anchor_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gowebpki/jcs"
	"github.com/stretchr/testify/require"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/anchor"
)

// RFC 8785, Appendix B: IEEE 754 double (hex) -> JCS number.
var rfcNumbers = []struct {
	ieee string
	want string // "" means the value cannot be serialised
}{
	{"0000000000000000", "0"},
	{"8000000000000000", "0"},
	{"0000000000000001", "5e-324"},
	{"8000000000000001", "-5e-324"},
	{"7fefffffffffffff", "1.7976931348623157e+308"},
	{"ffefffffffffffff", "-1.7976931348623157e+308"},
	{"4340000000000000", "9007199254740992"},
	{"c340000000000000", "-9007199254740992"},
	{"4430000000000000", "295147905179352830000"},
	{"7fffffffffffffff", ""},
	{"7ff0000000000000", ""},
	{"44b52d02c7e14af5", "9.999999999999997e+22"},
	{"44b52d02c7e14af6", "1e+23"},
	{"44b52d02c7e14af7", "1.0000000000000001e+23"},
	{"444b1ae4d6e2ef4e", "999999999999999700000"},
	{"444b1ae4d6e2ef4f", "999999999999999900000"},
	{"444b1ae4d6e2ef50", "1e+21"},
	{"3eb0c6f7a0b5ed8c", "9.999999999999997e-7"},
	{"3eb0c6f7a0b5ed8d", "0.000001"},
	{"41b3de4355555553", "333333333.3333332"},
	{"41b3de4355555554", "333333333.33333325"},
	{"41b3de4355555555", "333333333.3333333"},
	{"41b3de4355555556", "333333333.3333334"},
	{"41b3de4355555557", "333333333.33333343"},
	{"becbf647612f3696", "-0.0000033333333333333333"},
	{"43143ff3c1cb0959", "1424953923781206.2"},
}

func TestRFC8785Numbers(t *testing.T) {
	t.Parallel()
	for _, tc := range rfcNumbers {
		var b [8]byte
		_, err := hex.Decode(b[:], []byte(tc.ieee))
		require.NoError(t, err)
		f := math.Float64frombits(binary.BigEndian.Uint64(b[:]))
		got, err := jcs.NumberToJSON(f)
		if tc.want == "" {
			require.Error(t, err, tc.ieee)
			continue
		}
		require.NoError(t, err, tc.ieee)
		require.Equal(t, tc.want, got, tc.ieee)
		if !math.IsInf(f, 0) && f != 0 && !math.Signbit(f) {
			// Through the document path too: the shortest round-trip form
			// of the value, canonicalised.
			doc, err := anchor.Canonical([]byte(`{"n":` + tc.want + `}`))
			require.NoError(t, err)
			require.Equal(t, `{"n":`+tc.want+`}`, string(doc))
		}
	}
}

// RFC 8785, section 3.2.2 and 3.2.3: the sample documents.
func TestRFC8785Documents(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{
			`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
			`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
	}
	for _, tc := range cases {
		got, err := anchor.Canonical([]byte(tc.in))
		require.NoError(t, err)
		require.Equal(t, tc.want, string(got))
	}
	// RFC 8785, section 3.2.4: the UTF-8 bytes of the first sample.
	got, err := anchor.Canonical([]byte(cases[0].in))
	require.NoError(t, err)
	require.Equal(t, strings.Join(strings.Fields(`
7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72
75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a
5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31
65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37
5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30
30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d`), ""), hex.EncodeToString(got))
	_, err = anchor.Canonical([]byte(`{"a":`))
	require.Error(t, err)
}

var (
	fixedTime = time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC)
	fixedSalt = [32]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}
)

func fixedRecords() []anchor.Record {
	return []anchor.Record{
		{ID: "job:j1", Type: "job", Fields: map[string]any{"title": "Find the bug", "bounty_micro_usdc": "12500000", "tags": []string{"go"}, "closed_at": nil}},
		{ID: "submission:s1", Type: "submission", Fields: map[string]any{"content": "It is in <close>", "evidence": []any{map[string]any{"confidence": 0.5}}}},
		{ID: "submission:s2", Type: "submission", Fields: map[string]any{"content": "café €"}},
		{ID: "vote:v1", Type: "vote", Fields: map[string]any{"weight": 3, "review": nil}},
		{ID: "comment:c1", Type: "comment", Fields: map[string]any{"deleted": true}},
	}
}

// goldenRoot is the root of fixedRecords with fixedSalt: a change of it
// is a change of the published rules (and needs a new schema version).
const goldenRoot = "0x3a0aec822d38dbf872d84966aaf2ba64ff3e03a54b91aeb6de233629c936fd9d"

func TestFixedSnapshotGivesFixedRoot(t *testing.T) {
	t.Parallel()
	s, err := anchor.Build("j1", fixedSalt, fixedTime, fixedRecords())
	require.NoError(t, err)
	require.Equal(t, openjury.Hash(goldenRoot), s.Root, "document: %s", s.Document)
	require.Equal(t, openjury.HashFromBytes(fixedSalt), s.Salt)
	again, err := anchor.Build("j1", fixedSalt, fixedTime, fixedRecords())
	require.NoError(t, err)
	require.Equal(t, s.Document, again.Document)
	require.NoError(t, anchor.VerifyDocument(s.Document, s.Root))
	canon, err := anchor.Canonical(s.Document)
	require.NoError(t, err)
	require.Equal(t, string(canon), string(s.Document), "the document is canonical")
}

func TestEveryByteOfEveryRecordCountsInTheRoot(t *testing.T) {
	t.Parallel()
	s, err := anchor.Build("j1", fixedSalt, fixedTime, fixedRecords())
	require.NoError(t, err)
	d, err := anchor.ParseDocument(s.Document)
	require.NoError(t, err)
	require.Len(t, d.IDs, 5)
	for _, id := range d.IDs {
		raw := d.Records[id]
		for i := range raw {
			tampered := bytes.Clone(raw)
			tampered[i] ^= 0x01
			doc := bytes.Replace(s.Document, raw, tampered, 1)
			td, err := anchor.ParseDocument(doc)
			if err != nil {
				continue // no longer JSON: no root at all
			}
			require.NotEqual(t, s.Root, openjury.HashFromBytes(td.Tree().Root()), "record %s byte %d", id, i)
			require.Error(t, anchor.VerifyDocument(doc, s.Root))
		}
	}
	// A different salt, a missing or an extra record change the root too.
	other := fixedSalt
	other[31] ^= 1
	s2, err := anchor.Build("j1", other, fixedTime, fixedRecords())
	require.NoError(t, err)
	require.NotEqual(t, s.Root, s2.Root)
	s3, err := anchor.Build("j1", fixedSalt, fixedTime, fixedRecords()[1:])
	require.NoError(t, err)
	require.NotEqual(t, s.Root, s3.Root)
	s4, err := anchor.Build("j1", fixedSalt, fixedTime, append(fixedRecords(), anchor.Record{ID: "x", Type: "x"}))
	require.NoError(t, err)
	require.NotEqual(t, s.Root, s4.Root)
}

func TestEveryProofVerifiesAndTamperedOnesDoNot(t *testing.T) {
	t.Parallel()
	for n := 0; n <= 9; n++ { // odd and even leaf counts, 1..10 leaves
		var recs []anchor.Record
		for i := range n {
			recs = append(recs, anchor.Record{ID: "r" + string(rune('a'+i)), Type: "t", Fields: map[string]any{"i": i}})
		}
		s, err := anchor.Build("j", fixedSalt, fixedTime, recs)
		require.NoError(t, err)
		d, err := anchor.ParseDocument(s.Document)
		require.NoError(t, err)
		for _, id := range append(d.IDs, anchor.SaltRecordID) {
			p, err := d.Prove(id)
			require.NoError(t, err)
			require.Equal(t, s.Root, p.Root)
			data := d.Records[id]
			if id == anchor.SaltRecordID {
				data = fixedSalt[:]
			}
			require.NoError(t, anchor.VerifyProof(data, p.Proof, s.Root), "n=%d %s", n, id)
			require.Equal(t, openjury.HashFromBytes(anchor.Leaf(data)), p.Leaf)
			// Tampered record bytes, proof nodes or root do not verify.
			require.Error(t, anchor.VerifyProof(append(bytes.Clone(data), ' '), p.Proof, s.Root))
			for i := range p.Proof {
				bad := append([]openjury.Hash(nil), p.Proof...)
				bad[i] = flip(bad[i])
				require.Error(t, anchor.VerifyProof(data, bad, s.Root))
			}
			if len(p.Proof) > 0 {
				require.Error(t, anchor.VerifyProof(data, p.Proof[1:], s.Root))
			}
			require.Error(t, anchor.VerifyProof(data, p.Proof, flip(s.Root)))
		}
		_, err = d.Prove("nope")
		require.True(t, openjury.IsKind(err, openjury.NotFound))
	}
}

// The tree is OpenZeppelin's: commutative keccak256 of the sorted pair, so
// a proof is processed exactly as MerkleProof.processProof does.
func TestSortedPairHashingAsOpenZeppelin(t *testing.T) {
	t.Parallel()
	a, b, c := anchor.Leaf([]byte("a")), anchor.Leaf([]byte("b")), anchor.Leaf([]byte("c"))
	lo, hi := a, b
	if bytes.Compare(a[:], b[:]) > 0 {
		lo, hi = b, a
	}
	require.Equal(t, anchor.Node(crypto.Keccak256(lo[:], hi[:])), anchor.HashPair(a, b))
	require.Equal(t, anchor.HashPair(a, b), anchor.HashPair(b, a))
	require.Equal(t, anchor.Node(crypto.Keccak256(crypto.Keccak256([]byte("a")))), a)

	tree := anchor.NewTree([]anchor.Node{c, b, a})
	sorted := []anchor.Node{a, b, c}
	slices.SortFunc(sorted, func(x, y anchor.Node) int { return bytes.Compare(x[:], y[:]) })
	want := anchor.HashPair(anchor.HashPair(sorted[0], sorted[1]), sorted[2])
	require.Equal(t, want, tree.Root())
	p, ok := tree.Proof(sorted[2])
	require.True(t, ok)
	require.Equal(t, []anchor.Node{anchor.HashPair(sorted[0], sorted[1])}, p)
	p, ok = tree.Proof(sorted[0])
	require.True(t, ok)
	require.Equal(t, []anchor.Node{sorted[1], sorted[2]}, p)
	require.True(t, anchor.Verify(p, tree.Root(), sorted[0]))
	_, ok = tree.Proof(anchor.Leaf([]byte("d")))
	require.False(t, ok)
}

func TestBuildRefusesBadRecords(t *testing.T) {
	t.Parallel()
	for _, recs := range [][]anchor.Record{
		{{ID: "", Type: "t"}},
		{{ID: anchor.SaltRecordID, Type: "t"}},
		{{ID: "a", Type: "t"}, {ID: "a", Type: "t"}},
		{{ID: "a", Type: "t", Fields: map[string]any{"f": math.Inf(1)}}},
	} {
		_, err := anchor.Build("j", fixedSalt, fixedTime, recs)
		require.True(t, openjury.IsKind(err, openjury.Invalid), "%v", err)
	}
	_, err := anchor.ParseDocument([]byte(`{"schema_version":2}`))
	require.True(t, openjury.IsKind(err, openjury.Invalid))
}

func flip(h openjury.Hash) openjury.Hash {
	b := []byte(h)
	if b[2] == '0' {
		b[2] = '1'
	} else {
		b[2] = '0'
	}
	return openjury.Hash(b)
}
