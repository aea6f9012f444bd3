package main

import (
	"testing"
)

// The release conventions come from the config file, and one that cannot
// work (a pattern that does not compile or captures nothing, a path out
// of the repository) stops serve before it starts.
func TestServeReleaseSettings(t *testing.T) {
	c, err := parseServe(t, nil, `release_label = "ship"
release_title_pattern = '^ship (\d+\.\d+\.\d+)'
release_changelog_paths = ["NEWS.md"]`, nil)
	if err != nil {
		t.Fatalf("from the file: %v", err)
	}
	if c.Releases.Label != "ship" {
		t.Errorf("from the file: Releases.Label = %q, want ship", c.Releases.Label)
	}
	if want := `^ship (\d+\.\d+\.\d+)`; c.Releases.TitlePattern != want {
		t.Errorf("from the file: Releases.TitlePattern = %q, want %q", c.Releases.TitlePattern, want)
	}
	if len(c.Releases.ChangelogPaths) != 1 {
		t.Errorf("from the file: Releases.ChangelogPaths = %q, want one path", c.Releases.ChangelogPaths)
	}
	for _, bad := range []string{`release_title_pattern = "(unclosed"`, `release_title_pattern = "release v1"`,
		`release_changelog_paths = ["../outside.md"]`} {
		_, err := parseServe(t, nil, bad, nil)
		wantErrorSaying(t, bad, err, "release")
	}
	c, err = parseServe(t, nil, "", nil)
	if err != nil {
		t.Fatalf("default: %v", err)
	}
	if c.Releases.Label != "" {
		t.Errorf("default: Releases.Label = %q, want empty", c.Releases.Label)
	}
}
