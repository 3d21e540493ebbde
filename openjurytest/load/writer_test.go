package main

import (
	"bufio"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseWriterBusy(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"# HELP openjury_db_writer_busy_seconds_total x\n# TYPE openjury_db_writer_busy_seconds_total counter\nopenjury_db_writer_busy_seconds_total 1.25\n": 1250 * time.Millisecond,
		"openjury_db_writer_busy_seconds_total_other 3\nopenjury_db_writer_busy_seconds_total 2e-3\n":                                                        2 * time.Millisecond,
		"openjury_db_writer_busy_seconds_total 0\n":  0,
		"openjury_db_writer_busy_seconds_total x\n":  0,
		"openjury_db_writer_busy_seconds_total -1\n": 0,
		"go_goroutines 12\n":                         0,
		"":                                           0,
	} {
		require.Equal(t, want, parseWriterBusy(bufio.NewScanner(strings.NewReader(in))), "%q", in)
	}
}
