//go:build linux || darwin || freebsd

package search

import (
	"runtime"
	"syscall"
)

// allocBlock returns n zeroed bytes outside the Go heap (an anonymous
// private mapping), freed when owner becomes unreachable. The index's
// vectors are long-lived and hold no pointers: kept off the heap they
// neither count toward the garbage collector's heap goal (which would let
// the process grow to twice the index before a collection) nor need
// scanning. When the mapping fails it falls back to the heap.
func allocBlock[T any](owner *T, n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n)
	}
	runtime.AddCleanup(owner, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return b
}
