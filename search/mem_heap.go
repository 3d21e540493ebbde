//go:build !(linux || darwin || freebsd)

package search

// allocBlock returns n zeroed bytes on the heap (platforms without the
// anonymous mappings of mem_mmap.go).
func allocBlock[T any](_ *T, n int) []byte { return make([]byte, n) }
