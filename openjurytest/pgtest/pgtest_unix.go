//go:build unix

package pgtest

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// runAs is a user to run PostgreSQL programs as.
type runAs struct{ uid, gid int }

// postgresUser returns the "postgres" system user.
func postgresUser() (*runAs, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, err
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return nil, err
	}
	return &runAs{uid: uid, gid: gid}, nil
}

// apply makes cmd run as r.
func (r *runAs) apply(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(r.uid), Gid: uint32(r.gid)}}
}

// ownerOf returns the owner of path, or nil.
func ownerOf(path string) *runAs {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	return &runAs{uid: int(st.Uid), gid: int(st.Gid)}
}

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
