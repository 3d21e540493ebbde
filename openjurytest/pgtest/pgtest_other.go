//go:build !unix

package pgtest

import (
	"errors"
	"os/exec"
)

// runAs is a user to run PostgreSQL programs as; not supported here.
type runAs struct{ uid, gid int }

func postgresUser() (*runAs, error) {
	return nil, errors.New("switching users is not supported on this system")
}

func (r *runAs) apply(*exec.Cmd) {}

func ownerOf(string) *runAs { return nil }

// processAlive cannot tell here, so orphans are never reaped.
func processAlive(int) bool { return true }
