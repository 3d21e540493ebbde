//go:build !race

package marketplace_test

// raceEnabled is true when the race detector is on: the tests too slow
// under it skip.
const raceEnabled = false
