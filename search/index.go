package search

import (
	"encoding/hex"
	"hash/maphash"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"github.com/openjury/openjury"
)

// blockSize is how many documents share one block of the index.
const blockSize = 1024

// parallelBlocks is the number of blocks from which a query is split
// across the CPUs.
const parallelBlocks = 16

// Index is the in-memory vector index every replica keeps: exact cosine
// search over vectors quantised to signed bytes (Vec8), in blocks of
// blockSize documents, each block laid out dimension by dimension (the
// values of one dimension for all the block's documents are contiguous).
// A query adds, for each non-zero dimension of the query vector, that
// dimension's column times the query value into the block's scores: a
// tight loop over contiguous memory, and the sparse query vectors of the
// Local embedder touch only their few non-zero columns. Large indexes are
// scanned on every CPU at once.
//
// Memory: Dim + 21 bytes per document (its bytes, the inverse of its
// norm, its id as 16 bytes, its kind) in blocks outside the Go heap, plus
// 8 to 16 bytes of lookup table, outside the heap too; ids that are not
// canonical UUIDs are kept as strings beside. At the Local embedder's 256
// dimensions a million documents take 285 MB (Bytes), against 1.2 GB for
// float32 vectors with their titles and snippets (BenchmarkHostLoad).
//
// It is safe for concurrent use: queries share a read lock, changes take
// the write lock.
type Index struct {
	mu     sync.RWMutex
	dim    int
	blocks []*block
	// used is the number of slots ever taken (the next new slot).
	used int32
	free []int32
	live int
	// table maps document keys to slots (open addressing, linear
	// probing): emptySlot, tombSlot or a slot.
	table []int32
	// tableMem keeps table's memory (newTable).
	tableMem *tableOwner
	tombs    int
	seed     maphash.Seed
	// long holds the ids of slots whose id is not a canonical UUID.
	long map[int32]string
}

// block holds blockSize documents.
type block struct {
	// vec[d*blockSize+j] is dimension d of the block's document j.
	vec []int8
	// inv[j] is 1/‖vec_j‖ (0 for a free slot or a zero vector).
	inv []float32
	// ids[j] is the document's id as a UUID's 16 bytes (zero when the id
	// is kept in Index.long).
	ids [][16]byte
	// kinds[j] is the document's Kind.rank (0: a free slot), with
	// longID set when its id is kept in Index.long.
	kinds []uint8
}

// longID marks a slot whose id is in Index.long.
const longID = 0x80

const (
	emptySlot int32 = -1
	tombSlot  int32 = -2
)

// blockLayout returns the offsets of a block's parts for vectors of
// dimension dim: its inverse norms, ids and kinds, and its size.
func blockLayout(dim int) (invAt, idsAt, kindsAt, size int) {
	invAt = (dim*blockSize + 3) &^ 3
	idsAt = invAt + 4*blockSize
	kindsAt = idsAt + 16*blockSize
	return invAt, idsAt, kindsAt, kindsAt + blockSize
}

// blockBytes is the size of a block for vectors of dimension dim.
func blockBytes(dim int) int {
	_, _, _, size := blockLayout(dim)
	return size
}

// newBlock allocates a block for vectors of dimension dim.
func newBlock(dim int) *block {
	b := &block{}
	vecBytes := dim * blockSize
	invAt, idsAt, kindsAt, size := blockLayout(dim)
	mem := allocBlock(b, size)
	base := unsafe.Pointer(unsafe.SliceData(mem))
	b.vec = unsafe.Slice((*int8)(base), vecBytes)
	b.inv = unsafe.Slice((*float32)(unsafe.Add(base, invAt)), blockSize)
	b.ids = unsafe.Slice((*[16]byte)(unsafe.Add(base, idsAt)), blockSize)
	b.kinds = mem[kindsAt : kindsAt+blockSize : kindsAt+blockSize]
	return b
}

// NewIndex returns an empty index of vectors of dimension dim; 0 means
// the dimension of the first vector upserted (a remote embedder's
// dimension is known only from its answers).
func NewIndex(dim int) *Index {
	return &Index{dim: dim, seed: maphash.MakeSeed(), long: map[int32]string{}}
}

// Dim returns the dimension of the index's vectors (0 while it is not
// known yet).
func (x *Index) Dim() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.dim
}

// Len returns the number of documents in the index.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.live
}

// Bytes returns the memory the index holds: its blocks (outside the Go
// heap), its lookup table and free list, and the ids kept beside (their
// bytes only). It is what a replica's memory grows by with its documents.
func (x *Index) Bytes() int64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := int64(len(x.blocks))*int64(blockBytes(x.dim)) + 4*int64(cap(x.table)) + 4*int64(cap(x.free))
	for _, id := range x.long {
		n += 4 + int64(len(id))
	}
	return n
}

// Doc is a document to put in the index.
type Doc struct {
	Kind Kind
	ID   string
	// Vector must have the index's dimension; its scale does not matter
	// (cosine similarity).
	Vector Vec8
}

// Hit is a document of a vector query with its cosine similarity to the
// query, in -1..1.
type Hit struct {
	Kind       Kind
	ID         string
	Similarity float64
}

// docKey is a document's identity in the index.
type docKey struct {
	kind uint8
	uuid [16]byte
	// isLong is true when the id is not a canonical UUID; long is the id
	// then.
	isLong bool
	long   string
}

// keyOf returns the key of document kind/id.
func keyOf(kind Kind, id string) docKey {
	k := docKey{kind: kind.rank()}
	if u, ok := parseUUID(id); ok {
		k.uuid = u
	} else {
		k.isLong, k.long = true, id
	}
	return k
}

// parseUUID parses a UUID in canonical lowercase text, the only form that
// formatUUID gives back unchanged.
func parseUUID(s string) ([16]byte, bool) {
	var u [16]byte
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, false
	}
	j := 0
	for i := 0; i < 36; {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			i++
			continue
		}
		hi, ok1 := lowerHex(s[i])
		lo, ok2 := lowerHex(s[i+1])
		if !ok1 || !ok2 {
			return u, false
		}
		u[j] = hi<<4 | lo
		j++
		i += 2
	}
	return u, true
}

func lowerHex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// formatUUID is the canonical text of u.
func formatUUID(u [16]byte) string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

func (x *Index) hash(k docKey) uint64 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.WriteByte(k.kind)
	if k.isLong {
		h.WriteString(k.long)
	} else {
		h.Write(k.uuid[:])
	}
	return h.Sum64()
}

// slotIs reports whether slot holds the document k.
func (x *Index) slotIs(slot int32, k docKey) bool {
	b, j := x.blocks[slot/blockSize], slot%blockSize
	kind := b.kinds[j]
	if kind&^longID != k.kind {
		return false
	}
	if kind&longID != 0 {
		return k.isLong && x.long[slot] == k.long
	}
	return !k.isLong && b.ids[j] == k.uuid
}

// find returns the table position of k and its slot, or the position to
// insert it at (the first tombstone or empty position on its probe path)
// and emptySlot.
func (x *Index) find(k docKey) (int, int32) {
	if len(x.table) == 0 {
		return -1, emptySlot
	}
	mask := len(x.table) - 1
	at := -1
	for i := int(x.hash(k)) & mask; ; i = (i + 1) & mask {
		switch s := x.table[i]; s {
		case emptySlot:
			if at < 0 {
				at = i
			}
			return at, emptySlot
		case tombSlot:
			if at < 0 {
				at = i
			}
		default:
			if x.slotIs(s, k) {
				return i, s
			}
		}
	}
}

// grow makes room for one more entry in the table, rehashing into a table
// twice as large when live entries and tombstones fill 3/4 of it (the
// same size when tombstones are most of that).
func (x *Index) grow() {
	if len(x.table) > 0 && (x.live+x.tombs+1)*4 <= len(x.table)*3 {
		return
	}
	size := max(1024, len(x.table))
	for (x.live+1)*2 > size {
		size *= 2
	}
	old, oldMem := x.table, x.tableMem
	// The old table is read below: its owner must outlive the loop.
	defer runtime.KeepAlive(oldMem)
	x.table = newTable(x, size)
	for i := range x.table {
		x.table[i] = emptySlot
	}
	x.tombs = 0
	mask := size - 1
	for _, s := range old {
		if s < 0 {
			continue
		}
		i := int(x.hash(x.keyAt(s))) & mask
		for x.table[i] != emptySlot {
			i = (i + 1) & mask
		}
		x.table[i] = s
	}
}

// tableOwner owns the memory of one lookup table: outside the Go heap
// like the blocks (a table of a million documents is 8 MB that would
// otherwise double the garbage collector's heap goal), freed when the
// index lets go of it (a grown table replaces it).
type tableOwner struct{ size int }

// newTable returns a lookup table of size entries (not yet filled), and
// makes it x's table's owner.
func newTable(x *Index, size int) []int32 {
	owner := &tableOwner{size: size}
	mem := allocBlock(owner, 4*size)
	x.tableMem = owner
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(mem))), size)
}

// keyAt returns the key of the document in slot s.
func (x *Index) keyAt(s int32) docKey {
	b, j := x.blocks[s/blockSize], s%blockSize
	kind := b.kinds[j]
	if kind&longID != 0 {
		return docKey{kind: kind &^ longID, isLong: true, long: x.long[s]}
	}
	return docKey{kind: kind, uuid: b.ids[j]}
}

// idAt returns the id of the document in slot s.
func (x *Index) idAt(s int32) string {
	b, j := x.blocks[s/blockSize], s%blockSize
	if b.kinds[j]&longID != 0 {
		return x.long[s]
	}
	return formatUUID(b.ids[j])
}

// Upsert adds documents or replaces them (same kind and id; the last of
// the call wins). Errors: Invalid for an unknown kind or a vector of
// another dimension (nothing of the call is applied then). A batch is
// cheaper per document than single calls: the vectors of documents that
// share a block are written column by column (upsertRun).
func (x *Index) Upsert(docs ...Doc) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	dim := x.dim
	if dim == 0 && len(docs) > 0 {
		dim = len(docs[0].Vector.Values)
	}
	for _, d := range docs {
		if !d.Kind.Valid() {
			return openjury.Errorf(openjury.Invalid, "search.Index.Upsert", "unknown kind %q", d.Kind)
		}
		if len(d.Vector.Values) != dim || dim == 0 {
			return openjury.Errorf(openjury.Invalid, "search.Index.Upsert", "vector of dimension %d in an index of dimension %d", len(d.Vector.Values), dim)
		}
	}
	x.dim = dim
	var slots [upsertRun]int32
	for len(docs) > 0 {
		n := min(len(docs), upsertRun)
		for i, d := range docs[:n] {
			slots[i] = x.slotOf(d.Kind, d.ID)
		}
		x.writeVectors(docs[:n], slots[:n])
		docs = docs[n:]
	}
	return nil
}

// upsertRun is how many documents Upsert places at a time: their vectors
// (upsertRun x 64 bytes of each dimension's cache line) stay in the CPU's
// first-level cache while they are written column by column.
const upsertRun = 256

// slotOf returns the slot of document kind/id, taking a free or new one
// (with its key set) for a document not in the index.
func (x *Index) slotOf(kind Kind, id string) int32 {
	k := keyOf(kind, id)
	x.grow()
	at, slot := x.find(k)
	if slot != emptySlot {
		return slot
	}
	if n := len(x.free); n > 0 {
		slot = x.free[n-1]
		x.free = x.free[:n-1]
	} else {
		slot = x.used
		x.used++
		if int(slot)/blockSize == len(x.blocks) {
			x.blocks = append(x.blocks, newBlock(x.dim))
		}
	}
	if x.table[at] == tombSlot {
		x.tombs--
	}
	x.table[at] = slot
	x.live++
	b, j := x.blocks[slot/blockSize], slot%blockSize
	b.kinds[j] = k.kind
	b.ids[j] = k.uuid
	if k.isLong {
		b.kinds[j] |= longID
		x.long[slot] = k.long
	}
	return slot
}

// writeVectors stores the vectors of docs in their slots, in order (a
// slot listed twice keeps the later vector). Each run of documents in one
// block is written dimension by dimension: consecutive slots share the
// cache lines of a column, where one document at a time would write a
// byte to a different line (and page) for every dimension.
func (x *Index) writeVectors(docs []Doc, slots []int32) {
	for lo := 0; lo < len(docs); {
		bi := slots[lo] / blockSize
		hi := lo + 1
		for hi < len(docs) && slots[hi]/blockSize == bi {
			hi++
		}
		b := x.blocks[bi]
		for d := range x.dim {
			col := b.vec[d*blockSize : (d+1)*blockSize]
			for i := lo; i < hi; i++ {
				col[slots[i]%blockSize] = docs[i].Vector.Values[d]
			}
		}
		for i := lo; i < hi; i++ {
			var sum int64
			for _, v := range docs[i].Vector.Values {
				sum += int64(v) * int64(v)
			}
			j := slots[i] % blockSize
			b.inv[j] = 0
			if sum > 0 {
				b.inv[j] = float32(1 / math.Sqrt(float64(sum)))
			}
		}
		lo = hi
	}
}

// Delete removes a document; an absent one is ignored.
func (x *Index) Delete(kind Kind, id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	at, slot := x.find(keyOf(kind, id))
	if slot < 0 {
		return
	}
	x.table[at] = tombSlot
	x.tombs++
	x.live--
	b, j := x.blocks[slot/blockSize], int(slot%blockSize)
	b.kinds[j], b.ids[j], b.inv[j] = 0, [16]byte{}, 0
	delete(x.long, slot)
	for dim := 0; dim < x.dim; dim++ {
		b.vec[dim*blockSize+j] = 0
	}
	x.free = append(x.free, slot)
}

// Query returns up to limit documents of kind (every kind when "") most
// similar to vec, by similarity descending, then kind (in the order of
// Kinds), then id. A vector of another dimension matches nothing.
func (x *Index) Query(vec []float32, kind Kind, limit int) []Hit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(vec) != x.dim || limit <= 0 {
		return []Hit{}
	}
	q := make([]float32, len(vec))
	copy(q, vec)
	normalize(q)
	// The non-zero dimensions of the query, the only columns to read.
	var nz []int32
	for d, v := range q {
		if v != 0 {
			nz = append(nz, int32(d))
		}
	}
	filter := kind.rank()
	nblocks := len(x.blocks)
	workers := 1
	if nblocks >= parallelBlocks {
		workers = min(runtime.GOMAXPROCS(0), nblocks/(parallelBlocks/2))
	}
	tops := make([]topK, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := nblocks*w/workers, nblocks*(w+1)/workers
		tops[w] = topK{x: x, limit: limit}
		if w == workers-1 {
			x.scan(q, nz, filter, lo, hi, &tops[w])
			continue
		}
		wg.Go(func() { x.scan(q, nz, filter, lo, hi, &tops[w]) })
	}
	wg.Wait()
	all := tops[0]
	for _, t := range tops[1:] {
		for _, h := range t.heap {
			all.offer(h.score, h.slot)
		}
	}
	hits := all.sorted()
	out := make([]Hit, len(hits))
	for i, h := range hits {
		out[i] = Hit{
			Kind:       kindOfRank(x.blocks[h.slot/blockSize].kinds[h.slot%blockSize] &^ longID),
			ID:         x.idAt(h.slot),
			Similarity: max(-1, min(1, float64(h.score))),
		}
	}
	return out
}

// scan scores the documents of blocks lo..hi-1 into top.
func (x *Index) scan(q []float32, nz []int32, filter uint8, lo, hi int, top *topK) {
	var scores [blockSize]float32
	for bi := lo; bi < hi; bi++ {
		b := x.blocks[bi]
		clear(scores[:])
		col := func(d int32) *[blockSize]int8 { return (*[blockSize]int8)(b.vec[int(d)*blockSize:]) }
		k := 0
		for ; k+4 <= len(nz); k += 4 {
			d0, d1, d2, d3 := nz[k], nz[k+1], nz[k+2], nz[k+3]
			axpy4(q[d0], q[d1], q[d2], q[d3], col(d0), col(d1), col(d2), col(d3), &scores)
		}
		for ; k < len(nz); k++ {
			axpy(q[nz[k]], col(nz[k]), &scores)
		}
		base := int32(bi * blockSize)
		n := min(blockSize, int(x.used-base))
		for j := range n {
			kind := b.kinds[j] &^ longID
			if kind == 0 || (filter != 0 && kind != filter) {
				continue
			}
			top.offer(scores[j]*b.inv[j], base+int32(j))
		}
	}
}

// axpy adds a*x to y.
func axpy(a float32, x *[blockSize]int8, y *[blockSize]float32) {
	for i := 0; i < blockSize; i += 8 {
		y[i] += a * float32(x[i])
		y[i+1] += a * float32(x[i+1])
		y[i+2] += a * float32(x[i+2])
		y[i+3] += a * float32(x[i+3])
		y[i+4] += a * float32(x[i+4])
		y[i+5] += a * float32(x[i+5])
		y[i+6] += a * float32(x[i+6])
		y[i+7] += a * float32(x[i+7])
	}
}

// axpy4 adds a*x + b*y + c*z + d*w to s: one pass over s for four
// columns.
func axpy4(a, b, c, d float32, x, y, z, w *[blockSize]int8, s *[blockSize]float32) {
	for i := 0; i < blockSize; i += 4 {
		s[i] += a*float32(x[i]) + b*float32(y[i]) + c*float32(z[i]) + d*float32(w[i])
		s[i+1] += a*float32(x[i+1]) + b*float32(y[i+1]) + c*float32(z[i+1]) + d*float32(w[i+1])
		s[i+2] += a*float32(x[i+2]) + b*float32(y[i+2]) + c*float32(z[i+2]) + d*float32(w[i+2])
		s[i+3] += a*float32(x[i+3]) + b*float32(y[i+3]) + c*float32(z[i+3]) + d*float32(w[i+3])
	}
}

// hit is a scored slot.
type hit struct {
	score float32
	slot  int32
}

// topK keeps the best limit hits in a min-heap whose root is the worst
// kept hit.
type topK struct {
	x     *Index
	limit int
	heap  []hit
}

// better reports whether a ranks before b: higher score, then kind, then
// id.
func (t *topK) better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	ka, kb := t.x.keyAt(a.slot), t.x.keyAt(b.slot)
	if ka.kind != kb.kind {
		return ka.kind < kb.kind
	}
	return t.x.idAt(a.slot) < t.x.idAt(b.slot)
}

func (t *topK) offer(score float32, slot int32) {
	h := hit{score, slot}
	if len(t.heap) < t.limit {
		t.heap = append(t.heap, h)
		t.up(len(t.heap) - 1)
		return
	}
	if score < t.heap[0].score || !t.better(h, t.heap[0]) {
		return
	}
	t.heap[0] = h
	t.down(0)
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.better(t.heap[p], t.heap[i]) {
			return
		}
		t.heap[p], t.heap[i] = t.heap[i], t.heap[p]
		i = p
	}
}

func (t *topK) down(i int) {
	n := len(t.heap)
	for {
		worst := i
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < n && t.better(t.heap[worst], t.heap[c]) {
				worst = c
			}
		}
		if worst == i {
			return
		}
		t.heap[i], t.heap[worst] = t.heap[worst], t.heap[i]
		i = worst
	}
}

// sorted returns the kept hits best first.
func (t *topK) sorted() []hit {
	out := make([]hit, 0, len(t.heap))
	for len(t.heap) > 0 {
		out = append(out, t.heap[0])
		last := len(t.heap) - 1
		t.heap[0] = t.heap[last]
		t.heap = t.heap[:last]
		t.down(0)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
