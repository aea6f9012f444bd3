package toolkit

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ReleaseSettings are the operator's conventions for release pull
// requests (github_report_release_prs): the label they carry, how their
// title names the version, and where the changelog entry lives. The zero
// value means the defaults.
type ReleaseSettings struct {
	// Label marks a release pull request (default "release").
	Label string
	// TitlePattern is a regular expression matched against the title,
	// case-insensitively; its first group is the version, X.Y.Z with an
	// optional pre-release part (default: "release: vX.Y.Z" and its
	// looser spellings, "Release v1.2.3", "release 1.2.3").
	TitlePattern string
	// ChangelogPaths are tried in order at the pull request's head commit:
	// {version} is X.Y.Z, {major}, {minor}, {patch} its parts. A path
	// without {version} (CHANGELOG.md) counts only when the file names the
	// version.
	ChangelogPaths []string
}

// The defaults of [ReleaseSettings].
const (
	DefaultReleaseLabel        = "release"
	DefaultReleaseTitlePattern = `^\s*release\b[\s:/-]*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.?(?:[^\w.]|$)`
)

// DefaultChangelogPaths are the changelog templates when none are set.
func DefaultChangelogPaths() []string {
	return []string{"docs/changelog/v{major}/v{version}.md", "CHANGELOG.md"}
}

// WithDefaults fills what is unset.
func (r ReleaseSettings) WithDefaults() ReleaseSettings {
	if r.Label == "" {
		r.Label = DefaultReleaseLabel
	}
	if r.TitlePattern == "" {
		r.TitlePattern = DefaultReleaseTitlePattern
	}
	if len(r.ChangelogPaths) == 0 {
		r.ChangelogPaths = DefaultChangelogPaths()
	}
	return r
}

// Title compiles the title pattern (case-insensitive).
func (r ReleaseSettings) Title() (*regexp.Regexp, error) {
	re, err := regexp.Compile("(?i)" + r.WithDefaults().TitlePattern)
	if err != nil {
		return nil, fmt.Errorf("release title pattern: %w", err)
	}
	if re.NumSubexp() < 1 {
		return nil, errors.New("release title pattern: it needs a group capturing the version")
	}
	return re, nil
}

// Validate reports a setting that cannot work, for the config loaders.
func (r ReleaseSettings) Validate() error {
	if _, err := r.Title(); err != nil {
		return err
	}
	for _, p := range r.ChangelogPaths {
		if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "..") {
			return fmt.Errorf("release changelog path %q: want a relative path inside the repository", p)
		}
	}
	if strings.ContainsAny(r.Label, "\"\n") {
		return errors.New("release label: no quotes or line breaks")
	}
	return nil
}
