package main

import (
	"strings"
	"testing"
)

// The release conventions come from the config file, and one that cannot
// work (a pattern that does not compile or captures nothing, a path out
// of the repository) stops serve before it starts.
func TestServeReleaseSettings(t *testing.T) {
	c, err := parseServe(t, nil, `release_label = "ship"
release_title_pattern = '^ship (\d+\.\d+\.\d+)'
release_changelog_paths = ["NEWS.md"]`, nil)
	if err != nil || c.Releases.Label != "ship" || c.Releases.TitlePattern != `^ship (\d+\.\d+\.\d+)` || len(c.Releases.ChangelogPaths) != 1 {
		t.Fatalf("from the file: %+v %v", c.Releases, err)
	}
	for _, bad := range []string{`release_title_pattern = "(unclosed"`, `release_title_pattern = "release v1"`,
		`release_changelog_paths = ["../outside.md"]`} {
		if _, err := parseServe(t, nil, bad, nil); err == nil || !strings.Contains(err.Error(), "release") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if c, err := parseServe(t, nil, "", nil); err != nil || c.Releases.Label != "" {
		t.Fatalf("default: %+v %v", c.Releases, err)
	}
}
