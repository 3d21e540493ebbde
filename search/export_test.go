package search

// VectorOf returns the values the index holds for document kind/id (a
// copy), for tests comparing the index with the store.
func (x *Index) VectorOf(kind Kind, id string) ([]int8, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	_, slot := x.find(keyOf(kind, id))
	if slot < 0 {
		return nil, false
	}
	b, j := x.blocks[slot/blockSize], int(slot%blockSize)
	out := make([]int8, x.dim)
	for d := range out {
		out[d] = b.vec[d*blockSize+j]
	}
	return out, true
}

// SetFollowPage sets how many entries one page of f's Sync reads, for
// tests crossing page boundaries with few entries.
func SetFollowPage(f *Follower, n int) { f.page = n }
