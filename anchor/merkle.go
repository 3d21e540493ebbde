package anchor

import (
	"bytes"
	"slices"

	"github.com/ethereum/go-ethereum/crypto"
)

// Node is a 32-byte node of the Merkle tree: a leaf, an inner node or the
// root.
type Node = [32]byte

// Leaf returns the leaf hash of a record's canonical bytes (or of the
// salt's 32 raw bytes): keccak256(keccak256(data)).
func Leaf(data []byte) Node {
	inner := crypto.Keccak256(data)
	return Node(crypto.Keccak256(inner))
}

// HashPair is OpenZeppelin's commutative keccak256: keccak256(a ‖ b) with
// the smaller node first.
func HashPair(a, b Node) Node {
	if bytes.Compare(a[:], b[:]) > 0 {
		a, b = b, a
	}
	return Node(crypto.Keccak256(a[:], b[:]))
}

// ProcessProof returns the root that leaf and proof lead to, as
// OpenZeppelin's MerkleProof.processProof.
func ProcessProof(proof []Node, leaf Node) Node {
	h := leaf
	for _, p := range proof {
		h = HashPair(h, p)
	}
	return h
}

// Verify reports whether proof proves leaf to be part of the tree of root,
// as OpenZeppelin's MerkleProof.verify.
func Verify(proof []Node, root, leaf Node) bool {
	return ProcessProof(proof, leaf) == root
}

// Tree is a Merkle tree over a set of leaves (see the package doc).
type Tree struct {
	// levels[0] are the sorted leaves; the last level holds the root.
	levels [][]Node
}

// NewTree builds the tree of leaves (in any order; they are sorted). It
// needs at least one leaf; NewTree(nil) has the zero root.
func NewTree(leaves []Node) *Tree {
	level := slices.Clone(leaves)
	slices.SortFunc(level, func(a, b Node) int { return bytes.Compare(a[:], b[:]) })
	t := &Tree{levels: [][]Node{level}}
	for len(level) > 1 {
		level = NextLevel(level)
		t.levels = append(t.levels, level)
	}
	return t
}

// Root returns the root (the zero node for an empty tree).
func (t *Tree) Root() Node {
	top := t.levels[len(t.levels)-1]
	if len(top) == 0 {
		return Node{}
	}
	return top[0]
}

// Proof returns the proof of leaf: its sibling nodes from the bottom up.
// ok is false when leaf is not in the tree.
func (t *Tree) Proof(leaf Node) (proof []Node, ok bool) {
	i, found := slices.BinarySearchFunc(t.levels[0], leaf, func(a, b Node) int { return bytes.Compare(a[:], b[:]) })
	if !found {
		return nil, false
	}
	proof = []Node{}
	for _, level := range t.levels[:len(t.levels)-1] {
		if sib := i ^ 1; sib < len(level) {
			proof = append(proof, level[sib])
		}
		i /= 2
	}
	return proof, true
}
