// Package version holds the build's version, commit and date, set by the
// linker when a release is built (see .goreleaser.yaml):
//
//	go build -ldflags "-X github.com/ghgate/ghgate/internal/version.Version=v0.1.0
//	  -X github.com/ghgate/ghgate/internal/version.Commit=<sha>
//	  -X github.com/ghgate/ghgate/internal/version.Date=<commit date, RFC 3339>"
//
// The date is the commit's, never the build's, so two builds of one commit
// are byte-identical.
package version

import (
	"runtime/debug"
	"strings"
)

// Version is the release version; "dev" for an unreleased build. It is what
// MCP's serverInfo and the GitHub User-Agent carry.
var Version = "dev"

// Commit is the full git commit the release was built from; empty for a
// plain `go build`, which may still have recorded it (see Info).
var Commit = ""

// Date is the commit's date (RFC 3339); empty for a plain `go build`.
var Date = ""

// Build describes one binary: what `ghgate version` prints.
type Build struct {
	Version string
	Commit  string
	Date    string
}

// Info is this binary's build: the linker's values, else what the Go
// toolchain recorded: the module version `go install ...@v0.1.0` built,
// and the checkout's commit and time when it built with VCS stamping.
func Info() Build {
	b := Build{Version: Version, Commit: Commit, Date: Date}
	if b.Commit != "" && b.Date != "" {
		return b
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && b.Commit == "":
				b.Commit = s.Value
			case s.Key == "vcs.time" && b.Date == "":
				b.Date = s.Value
			}
		}
	}
	return b
}

// String is the one line `ghgate version` prints after "ghgate":
// "v0.1.0 (commit 0123456789ab, 2026-11-30T12:00:00Z)", or just the version
// when nothing else is known.
func (b Build) String() string {
	var extra []string
	if b.Commit != "" {
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		extra = append(extra, "commit "+c)
	}
	if b.Date != "" {
		extra = append(extra, b.Date)
	}
	if len(extra) == 0 {
		return b.Version
	}
	return b.Version + " (" + strings.Join(extra, ", ") + ")"
}

// String is Info().String().
func String() string { return Info().String() }

// Current is the version this binary reports: in MCP's serverInfo, the
// health endpoint, the broker's and the GitHub User-Agent.
func Current() string { return Info().Version }
