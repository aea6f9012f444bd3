// Package version holds the build's version, set by the linker:
//
//	go build -ldflags "-X github.com/ghgate/ghgate/internal/version.Version=v0.1.0"
package version

import "runtime/debug"

// Version is the release version; "dev" for an unreleased build.
var Version = "dev"

// String is the version with the VCS revision when the build recorded one.
func String() string {
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}
