package main

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunInProcess(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run([]string{"-c", "2", "-n", "24", "-d", "30s"}, &out))
	require.Contains(t, out.String(), "requests=24 ")
	rows := regexp.MustCompile(`(?m)^(\S+ \S+)\s+(\d+)\s+(\d+)\s`).FindAllStringSubmatch(out.String(), -1)
	require.Len(t, rows, 4, "one row per operation:\n%s", out.String())
	total := 0
	for _, r := range rows {
		n, err := strconv.Atoi(r[2])
		require.NoError(t, err)
		total += n
		require.Equal(t, "0", r[3], "errors for %s", r[1])
	}
	require.Equal(t, 24, total)
}

func TestLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:80", "http://127.9.9.9"} {
		require.NoError(t, loopbackOnly(ok), ok)
	}
	for _, bad := range []string{"http://10.0.0.1:8080", "http://192.168.1.2", "https://example.com", "not a url", "http://"} {
		require.Error(t, loopbackOnly(bad), bad)
	}
	require.Error(t, run([]string{"-url", "http://10.1.2.3:8080"}, &bytes.Buffer{}))
	require.Error(t, run([]string{"-c", "0"}, &bytes.Buffer{}))
}
