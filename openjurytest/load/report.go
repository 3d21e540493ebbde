package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// opResult is what one operation of a run measured.
type opResult struct {
	lat      []time.Duration
	errs     int
	firstErr string
}

// result is one run: its operations and how long it took.
type result struct {
	ops     map[string]*opResult
	elapsed time.Duration
	// cpu is the CPU time the target's processes used during the runs
	// (measure fills it for the scenario, not the ceiling).
	cpu cpuSample
}

func newResult() *result { return &result{ops: map[string]*opResult{}} }

func (r *result) op(name string) *opResult {
	o := r.ops[name]
	if o == nil {
		o = &opResult{}
		r.ops[name] = o
	}
	return o
}

// record adds one request; a result is used by one worker only.
func (r *result) record(op string, d time.Duration, err error) {
	o := r.op(op)
	if err != nil {
		o.errs++
		if o.firstErr == "" {
			o.firstErr = firstLine(err.Error())
		}
		return
	}
	o.lat = append(o.lat, d)
}

// add merges p into r and adds its time.
func (r *result) add(p *result) {
	r.merge(p)
	r.elapsed += p.elapsed
}

func (r *result) merge(p *result) {
	for name, po := range p.ops {
		o := r.op(name)
		o.lat = append(o.lat, po.lat...)
		o.errs += po.errs
		if o.firstErr == "" {
			o.firstErr = po.firstErr
		}
	}
}

// ok and errs count the answered and failed requests of every operation.
func (r *result) ok() (n int) {
	for _, o := range r.ops {
		n += len(o.lat)
	}
	return n
}

func (r *result) errs() (n int) {
	for _, o := range r.ops {
		n += o.errs
	}
	return n
}

// rate is successful requests per second.
func (r *result) rate(n int) float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(n) / r.elapsed.Seconds()
}

// report prints scenario results with their ratio to the ceiling of the
// same scenario.
type report struct {
	out     io.Writer
	header  bool
	ceiling *result
	// cpuOf names the process of cpu.host, dbOf the database server of
	// cpu.db ("" when not measured).
	cpuOf, dbOf string
}

const rowFormat = "%-9s %-52s %8s %6s %9s %9s %9s %8s\n"

// scenario prints a scenario's ceiling (nil when off) and results.
func (rep *report) scenario(name string, ceil, r *result) {
	if !rep.header {
		fmt.Fprintf(rep.out, rowFormat, "scenario", "operation", "ok", "errors", "req/s", "p50", "p99", "ceiling")
		rep.header = true
	}
	rep.ceiling = ceil
	if ceil != nil {
		rep.rows(rep.out, name, ceil)
	}
	rep.rows(rep.out, name, r)
	rep.cpuLine(r)
	rep.writerLine(r)
}

// writerLine prints the share of a scenario's runs during which the
// target held SQLite's one writer, when it did: near 100% the writer, not
// the CPU, bounds the scenario.
func (rep *report) writerLine(r *result) {
	if r.cpu.writer <= 0 || r.elapsed <= 0 {
		return
	}
	fmt.Fprintf(rep.out, "          SQLite's writer held: %.0f%% of the time\n", 100*r.cpu.writer.Seconds()/r.elapsed.Seconds())
}

// cpuLine prints the CPU time per successful answer of the target's
// processes during a scenario, when it was measured.
func (rep *report) cpuLine(r *result) {
	n := r.ok()
	if n == 0 || (r.cpu.host <= 0 && r.cpu.db <= 0) {
		return
	}
	var parts []string
	if r.cpu.host > 0 {
		parts = append(parts, fmt.Sprintf("%s %s", rep.cpuOf, (r.cpu.host/time.Duration(n)).Round(time.Microsecond)))
	}
	if r.cpu.db > 0 {
		parts = append(parts, fmt.Sprintf("%s %s", rep.dbOf, (r.cpu.db/time.Duration(n)).Round(time.Microsecond)))
	}
	fmt.Fprintf(rep.out, "          CPU per answer: %s\n", strings.Join(parts, ", "))
}

// rows prints one line per operation of r and, when it has several, a
// total line.
func (rep *report) rows(out io.Writer, name string, r *result) {
	ops := make([]string, 0, len(r.ops))
	for op := range r.ops {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var all []time.Duration
	for _, op := range ops {
		o := r.ops[op]
		slices.Sort(o.lat)
		all = append(all, o.lat...)
		rep.row(out, name, op, o.lat, o.errs, r.rate(len(o.lat)))
		if o.errs > 0 {
			fmt.Fprintf(out, "          first error: %s\n", o.firstErr)
		}
	}
	if len(ops) > 1 {
		slices.Sort(all)
		rep.row(out, name, "all", all, r.errs(), r.rate(len(all)))
	}
	if len(ops) == 0 {
		fmt.Fprintf(out, "%-9s (no request: missing fixtures)\n", name)
	}
}

func (rep *report) row(out io.Writer, name, op string, sorted []time.Duration, errs int, rate float64) {
	ratio := "-"
	if rep.ceiling != nil {
		if c := rep.ceiling.rate(rep.ceiling.ok()); c > 0 {
			ratio = fmt.Sprintf("%.1f%%", 100*rate/c)
		}
	}
	fmt.Fprintf(out, rowFormat, name, op, fmt.Sprint(len(sorted)), fmt.Sprint(errs), fmt.Sprintf("%.0f", rate), pct(sorted, 50), pct(sorted, 99), ratio)
}

func pct(sorted []time.Duration, p int) string {
	if len(sorted) == 0 {
		return "-"
	}
	i := min(len(sorted)-1, len(sorted)*p/100)
	return sorted[i].Round(10 * time.Microsecond).String()
}
