package search

import (
	"math"
	"runtime"
	"sync"

	"github.com/openjury/openjury"
)

// blockSize is how many documents share one block of the index.
const blockSize = 1024

// parallelBlocks is the number of blocks from which a query is split
// across the CPUs.
const parallelBlocks = 16

// Index is the in-memory vector index every replica keeps: exact cosine
// search over unit vectors stored as float32 in blocks of blockSize
// documents, each block laid out dimension by dimension (the values of
// one dimension for all the block's documents are contiguous). A query
// adds, for each non-zero dimension of the query vector, that dimension's
// column times the query value into the block's scores: a tight loop over
// contiguous memory, and the sparse query vectors of the Local embedder
// touch only their few non-zero columns. Large indexes are scanned on
// every CPU at once. Memory: Dim*4 bytes per document plus its id, title
// and snippet.
//
// It is safe for concurrent use: queries share a read lock, changes take
// the write lock.
type Index struct {
	mu  sync.RWMutex
	dim int
	// blocks[b] holds dim*blockSize values: dimension d of slot
	// b*blockSize+j is blocks[b][d*blockSize+j].
	blocks [][]float32
	// docs[slot] describes the document in a slot; kind 0 marks a free
	// slot.
	docs   []slotDoc
	slotOf map[docKey]int32
	free   []int32
}

type slotDoc struct {
	kind    uint8
	id      string
	title   string
	snippet string
}

type docKey struct {
	kind uint8
	id   string
}

// NewIndex returns an empty index of vectors of dimension dim; 0 means
// the dimension of the first vector upserted (a remote embedder's
// dimension is known only from its answers).
func NewIndex(dim int) *Index {
	return &Index{dim: dim, slotOf: map[docKey]int32{}}
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
	return len(x.slotOf)
}

// Doc is a document to put in the index.
type Doc struct {
	Kind    Kind
	ID      string
	Title   string
	Snippet string
	// Vector is copied and normalised; it must have the index's dimension.
	Vector []float32
}

// Upsert adds documents or replaces them (same kind and id). Errors:
// Invalid for an unknown kind or a vector of another dimension (nothing of
// the call is applied then).
func (x *Index) Upsert(docs ...Doc) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	dim := x.dim
	if dim == 0 && len(docs) > 0 {
		dim = len(docs[0].Vector)
	}
	for _, d := range docs {
		if !d.Kind.Valid() {
			return openjury.Errorf(openjury.Invalid, "search.Index.Upsert", "unknown kind %q", d.Kind)
		}
		if len(d.Vector) != dim || dim == 0 {
			return openjury.Errorf(openjury.Invalid, "search.Index.Upsert", "vector of dimension %d in an index of dimension %d", len(d.Vector), dim)
		}
	}
	x.dim = dim
	for _, d := range docs {
		x.upsert(d)
	}
	return nil
}

func (x *Index) upsert(d Doc) {
	key := docKey{d.Kind.rank(), d.ID}
	slot, ok := x.slotOf[key]
	if !ok {
		if n := len(x.free); n > 0 {
			slot = x.free[n-1]
			x.free = x.free[:n-1]
		} else {
			slot = int32(len(x.docs))
			x.docs = append(x.docs, slotDoc{})
			if int(slot)/blockSize == len(x.blocks) {
				x.blocks = append(x.blocks, make([]float32, x.dim*blockSize))
			}
		}
		x.slotOf[key] = slot
	}
	x.docs[slot] = slotDoc{kind: key.kind, id: d.ID, title: d.Title, snippet: d.Snippet}
	var sum float64
	for _, v := range d.Vector {
		sum += float64(v) * float64(v)
	}
	inv := float32(0)
	if sum > 0 {
		inv = float32(1 / math.Sqrt(sum))
	}
	block, j := x.blocks[slot/blockSize], int(slot%blockSize)
	for dim, v := range d.Vector {
		block[dim*blockSize+j] = v * inv
	}
}

// Delete removes a document; an absent one is ignored.
func (x *Index) Delete(kind Kind, id string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	key := docKey{kind.rank(), id}
	slot, ok := x.slotOf[key]
	if !ok {
		return
	}
	delete(x.slotOf, key)
	x.docs[slot] = slotDoc{}
	block, j := x.blocks[slot/blockSize], int(slot%blockSize)
	for dim := 0; dim < x.dim; dim++ {
		block[dim*blockSize+j] = 0
	}
	x.free = append(x.free, slot)
}

// Query returns up to limit documents of kind (every kind when "") most
// similar to vec, by similarity descending, then kind (in the order of
// Kinds), then id. A vector of another dimension matches nothing.
func (x *Index) Query(vec []float32, kind Kind, limit int) []Result {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(vec) != x.dim || limit <= 0 {
		return []Result{}
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
		tops[w] = topK{docs: x.docs, limit: limit}
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
	out := make([]Result, len(hits))
	for i, h := range hits {
		d := x.docs[h.slot]
		out[i] = Result{
			Kind:       kindOfRank(d.kind),
			ID:         d.id,
			Similarity: max(-1, min(1, float64(h.score))),
			Title:      d.title,
			Content:    d.snippet,
		}
	}
	return out
}

// scan scores the documents of blocks lo..hi-1 into top.
func (x *Index) scan(q []float32, nz []int32, filter uint8, lo, hi int, top *topK) {
	var scores [blockSize]float32
	for b := lo; b < hi; b++ {
		block := x.blocks[b]
		clear(scores[:])
		col := func(d int32) *[blockSize]float32 { return (*[blockSize]float32)(block[int(d)*blockSize:]) }
		k := 0
		for ; k+4 <= len(nz); k += 4 {
			d0, d1, d2, d3 := nz[k], nz[k+1], nz[k+2], nz[k+3]
			axpy4(q[d0], q[d1], q[d2], q[d3], col(d0), col(d1), col(d2), col(d3), &scores)
		}
		for ; k < len(nz); k++ {
			axpy(q[nz[k]], col(nz[k]), &scores)
		}
		base := b * blockSize
		n := min(blockSize, len(x.docs)-base)
		docs := x.docs[base : base+n]
		for j := range docs {
			k := docs[j].kind
			if k == 0 || (filter != 0 && k != filter) {
				continue
			}
			top.offer(scores[j], int32(base+j))
		}
	}
}

// axpy adds a*x to y.
func axpy(a float32, x, y *[blockSize]float32) {
	for i := 0; i < blockSize; i += 8 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
		y[i+4] += a * x[i+4]
		y[i+5] += a * x[i+5]
		y[i+6] += a * x[i+6]
		y[i+7] += a * x[i+7]
	}
}

// axpy4 adds a*x + b*y + c*z + d*w to s: one pass over s for four
// columns.
func axpy4(a, b, c, d float32, x, y, z, w, s *[blockSize]float32) {
	for i := 0; i < blockSize; i += 4 {
		s[i] += a*x[i] + b*y[i] + c*z[i] + d*w[i]
		s[i+1] += a*x[i+1] + b*y[i+1] + c*z[i+1] + d*w[i+1]
		s[i+2] += a*x[i+2] + b*y[i+2] + c*z[i+2] + d*w[i+2]
		s[i+3] += a*x[i+3] + b*y[i+3] + c*z[i+3] + d*w[i+3]
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
	docs  []slotDoc
	limit int
	heap  []hit
}

// better reports whether a ranks before b: higher score, then kind, then
// id.
func (t *topK) better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	da, db := &t.docs[a.slot], &t.docs[b.slot]
	if da.kind != db.kind {
		return da.kind < db.kind
	}
	return da.id < db.id
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
