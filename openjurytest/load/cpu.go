package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the unit of the CPU times of /proc/<pid>/stat (USER_HZ,
// 100 on every Linux this runs on).
const clockTicks = 100

// procCPU reads the parent pid and the CPU time (user and system) of
// /proc/<pid>/stat; ok is false when the process is gone or the system has
// no /proc.
func procCPU(dir string) (ppid int, cpu time.Duration, ok bool) {
	raw, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return 0, 0, false
	}
	// The command name may hold spaces and parentheses: the fields start
	// after the last ')'. Then: state ppid ... utime (12th) stime (13th).
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	ut, err2 := strconv.ParseInt(f[11], 10, 64)
	st, err3 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, false
	}
	return ppid, time.Duration(ut+st) * time.Second / clockTicks, true
}

// cpuTime is the CPU time used so far by pid and, with children, by its
// living child processes (a PostgreSQL server's backends); 0 when pid is 0
// or unknown. A child that exited between two readings takes its time with
// it, so a scenario's figure covers the connections that outlive it (the
// pools' connections do).
func cpuTime(pid int, children bool) time.Duration {
	if pid <= 0 {
		return 0
	}
	_, total, ok := procCPU("/proc/" + strconv.Itoa(pid))
	if !ok {
		return 0
	}
	if !children {
		return total
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		if ppid, cpu, ok := procCPU(d); ok && ppid == pid {
			total += cpu
		}
	}
	return total
}

// cpuSample is the CPU time of the target's processes at one moment, and
// how long the target had held SQLite's writer by then.
type cpuSample struct{ host, db, writer time.Duration }

// cpu samples the CPU time of the target's server process and of its
// database server (PostgreSQL started by the tool), and its writer's busy
// time (its metrics).
func (t *target) cpu() cpuSample {
	return cpuSample{host: cpuTime(t.pid, false), db: cpuTime(t.dbPID, true), writer: t.writerBusy()}
}
