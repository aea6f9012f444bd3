package reports

import (
	"regexp"
	"strings"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// releaseConv is the operator's release conventions, compiled once per
// call.
type releaseConv struct {
	label string
	title *regexp.Regexp
	paths []string
}

func compileRelease(s toolkit.ReleaseSettings) (*releaseConv, error) {
	s = s.WithDefaults()
	re, err := s.Title()
	if err != nil {
		return nil, err
	}
	return &releaseConv{label: s.Label, title: re, paths: s.ChangelogPaths}, nil
}

// version is the version the title names (X.Y.Z, without a leading v),
// or "" when it names none.
func (c *releaseConv) version(title string) string {
	m := c.title.FindStringSubmatch(title)
	if m == nil {
		return ""
	}
	v := strings.TrimPrefix(strings.TrimPrefix(m[1], "v"), "V")
	if !versionRE.MatchString(v) {
		return ""
	}
	return v
}

// versionRE is a semantic version without its v: X.Y.Z and an optional
// pre-release part.
var versionRE = regexp.MustCompile(`^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$`)

// candidates are the changelog paths for version, in the operator's
// order, each with whether the file must name the version to count (a
// path without {version} is a running changelog, CHANGELOG.md, which
// holds every release).
func (c *releaseConv) candidates(version string) []candidate {
	plain, _, _ := strings.Cut(version, "-")
	parts := strings.SplitN(plain, ".", 3)
	r := strings.NewReplacer("{version}", version, "{major}", parts[0], "{minor}", parts[1], "{patch}", parts[2])
	out := make([]candidate, len(c.paths))
	for i, p := range c.paths {
		out[i] = candidate{path: r.Replace(p), mustName: !strings.Contains(p, "{version}")}
	}
	return out
}

type candidate struct {
	path     string
	mustName bool
}

// anyVersion finds version-like words (v1.2.3, 1.2.3-rc.1) in text.
var anyVersion = regexp.MustCompile(`(?:^|[^0-9A-Za-z.])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)`)

// versions lists the versions text names, in order.
func versions(text string) []string {
	var out []string
	for _, m := range anyVersion.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.TrimRight(m[1], "."))
	}
	return out
}

// names reports whether text names version as a whole word: 1.2.3 is
// not named by 11.2.3 or 1.2.30.
func names(text, version string) bool {
	for _, v := range versions(text) {
		if v == version {
			return true
		}
	}
	return false
}

// entry is the part of a changelog about version: a per-version file
// whole, or in a running changelog the lines from the first that names
// version up to the next heading that names another.
func entry(text, version string, running bool) string {
	if !running {
		return text
	}
	lines := strings.Split(text, "\n")
	start := -1
	for i, l := range lines {
		if start < 0 {
			if names(l, version) {
				start = i
			}
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") && len(versions(l)) > 0 && !names(l, version) {
			return strings.Join(lines[start:i], "\n")
		}
	}
	if start < 0 {
		return ""
	}
	return strings.Join(lines[start:], "\n")
}
