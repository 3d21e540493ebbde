package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestProcCPU: the fields are read after the command name's last ')',
// whatever the name holds; a short or missing file is not a reading.
func TestProcCPU(t *testing.T) {
	dir := t.TempDir()
	stat := "4242 (post) gres: x) S 77 4242 4242 0 -1 4194560 1 0 0 0 250 130 0 0 20 0 1 0 1 1 1\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o600))
	ppid, cpu, ok := procCPU(dir)
	require.True(t, ok)
	require.Equal(t, 77, ppid)
	require.Equal(t, 3800*time.Millisecond, cpu)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "stat"), []byte("1 (x) S 0 1"), 0o600))
	_, _, ok = procCPU(dir)
	require.False(t, ok)
	_, _, ok = procCPU(filepath.Join(dir, "gone"))
	require.False(t, ok)

	require.Zero(t, cpuTime(0, true))
	before := cpuTime(os.Getpid(), false)
	x := 0
	for end := time.Now().Add(60 * time.Millisecond); time.Now().Before(end); {
		x++ // burn CPU: at least one clock tick
	}
	require.Greater(t, cpuTime(os.Getpid(), false), before, "after %d spins", x)
}
