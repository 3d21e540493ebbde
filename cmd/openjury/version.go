package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the release of the binary, set at build time with
// -ldflags "-X main.version=v1.2.3"; empty, the module version of the
// build (a tagged `go install`) or "(devel)" is shown.
var version string

// versionInfo is what version prints.
type versionInfo struct {
	Version  string `json:"version"`
	Go       string `json:"go"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"commit_time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
}

// buildVersion reads the version and the VCS stamp of the binary.
func buildVersion() versionInfo {
	v := versionInfo{Version: version, Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		if v.Version == "" {
			v.Version = "(unknown)"
		}
		return v
	}
	if v.Version == "" {
		v.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func cmdVersion(_ context.Context, e *env, args []string) error {
	if _, err := parse(e.flags("version"), args, 0); err != nil {
		return err
	}
	v := buildVersion()
	return e.print(v, func(w io.Writer) {
		fmt.Fprintf(w, "openjury %s (%s)", v.Version, v.Go)
		if v.Commit != "" {
			fmt.Fprintf(w, " commit %s", v.Commit)
			if v.Modified {
				fmt.Fprint(w, " (modified)")
			}
		}
		fmt.Fprintln(w)
	})
}
