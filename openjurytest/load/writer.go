package main

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// writerBusyMetric is the target's count of seconds it held SQLite's one
// writer (0 on PostgreSQL).
const writerBusyMetric = "openjury_db_writer_busy_seconds_total"

// metricsClient reads the target's metrics, apart from the scenarios'
// connection pool.
var metricsClient = &http.Client{Timeout: 5 * time.Second}

// writerBusy reads how long the target held SQLite's writer so far
// (GET /metrics); 0 when it has no such metric or cannot be read.
func (t *target) writerBusy() time.Duration {
	resp, err := metricsClient.Get(t.base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0
	}
	return parseWriterBusy(bufio.NewScanner(resp.Body))
}

// parseWriterBusy finds writerBusyMetric in a Prometheus text exposition.
func parseWriterBusy(sc *bufio.Scanner) time.Duration {
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), writerBusyMetric+" ")
		if !ok {
			continue
		}
		s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || s < 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	return 0
}
