// Package tiers holds the operator's rules that sort repositories into
// structural tiers (github_report_security_alerts' classify): which files
// on the default branch, and which branches that differ from it, make a
// repository a tier. The rules are configuration ([reports.classify] in
// serve's TOML file), checked once at load; the report only evaluates
// them over the signals it read.
package tiers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Bounds on a rule set: every file and branch named is a field of each
// repository's one GraphQL query, so the set is kept small.
const (
	MaxTiers    = 8
	MaxFiles    = 16
	MaxBranches = 8
)

// Rules are the tiers in the order they are tried: a repository's tier
// is the first whose conditions all hold, and none when none does.
type Rules struct {
	Tiers []Tier `toml:"tier"`
}

// A Tier names a set of conditions, each left out when empty. Files are
// paths on the default branch; a branch counts when it exists and points
// at another commit than the default branch (ahead, behind or both). A
// tier with no condition matches every repository and must come last.
type Tier struct {
	Name        string   `toml:"name"`
	FilesAny    []string `toml:"files_any"`
	FilesAll    []string `toml:"files_all"`
	BranchesAny []string `toml:"branches_any"`
	BranchesAll []string `toml:"branches_all"`
}

// Default is the example rule set, used when the operator configures
// none: a release workflow and a next or dev branch of its own is the
// release flow; the workflow alone, release_workflow; anything else,
// plain.
func Default() Rules {
	workflows := []string{".github/workflows/release.yml", ".github/workflows/release.yaml"}
	return Rules{Tiers: []Tier{
		{Name: "release_flow", FilesAny: workflows, BranchesAny: []string{"next", "dev"}},
		{Name: "release_workflow", FilesAny: workflows},
		{Name: "plain"},
	}}
}

// OrDefault is r, or Default when r has no tier.
func (r Rules) OrDefault() Rules {
	if len(r.Tiers) == 0 {
		return Default()
	}
	return r
}

var (
	tierName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
	// badRef is what git's check-ref-format refuses in a branch name
	// (the parts of it that can be told from the name alone).
	badRef = regexp.MustCompile(`[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//|^[-/.]|[/.]$|\.lock$|/\.`)
)

// Validate checks the rules as the config file spells them: at names the
// section ("reports.classify"), so each error names the field.
func (r Rules) Validate(at string) error {
	if len(r.Tiers) > MaxTiers {
		return fmt.Errorf("%s.tier: %d tiers, at most %d", at, len(r.Tiers), MaxTiers)
	}
	seen := map[string]bool{}
	for i, t := range r.Tiers {
		field := fmt.Sprintf("%s.tier[%d]", at, i)
		switch {
		case !tierName.MatchString(t.Name):
			return fmt.Errorf("%s.name: %q is not a tier name (lower-case letters, digits and _, starting with a letter, at most 40)", field, t.Name)
		case seen[t.Name]:
			return fmt.Errorf("%s.name: %q names an earlier tier too", field, t.Name)
		case t.catchAll() && i != len(r.Tiers)-1:
			return fmt.Errorf("%s: tier %q has no files or branches, so it matches every repository and the tiers after it never would; make it the last", field, t.Name)
		}
		seen[t.Name] = true
		for _, l := range []struct {
			key    string
			values []string
			branch bool
		}{{"files_any", t.FilesAny, false}, {"files_all", t.FilesAll, false}, {"branches_any", t.BranchesAny, true}, {"branches_all", t.BranchesAll, true}} {
			for j, v := range l.values {
				err := checkPath(v)
				if l.branch && (v == "" || badRef.MatchString(v)) {
					err = fmt.Errorf("is not a branch name")
				} else if l.branch {
					err = nil
				}
				if err != nil {
					return fmt.Errorf("%s.%s[%d]: %q %s", field, l.key, j, v, err)
				}
			}
		}
	}
	if n := len(r.Files()); n > MaxFiles {
		return fmt.Errorf("%s.tier: %d distinct files across the tiers, at most %d", at, n, MaxFiles)
	}
	if n := len(r.Branches()); n > MaxBranches {
		return fmt.Errorf("%s.tier: %d distinct branches across the tiers, at most %d", at, n, MaxBranches)
	}
	return nil
}

// checkPath refuses a path that cannot name a file of a repository.
func checkPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("is empty")
	case strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/"):
		return fmt.Errorf("must be relative to the repository's root, without a leading or trailing /")
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("holds a control character")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("has an empty, . or .. segment")
		}
	}
	return nil
}

func (t Tier) catchAll() bool {
	return len(t.FilesAny)+len(t.FilesAll)+len(t.BranchesAny)+len(t.BranchesAll) == 0
}

// Files are the distinct paths the tiers name, in the order first named.
func (r Rules) Files() []string {
	var out []string
	for _, t := range r.Tiers {
		out = appendNew(out, t.FilesAny, t.FilesAll)
	}
	return out
}

// Branches are the distinct branches the tiers name, in the order first
// named.
func (r Rules) Branches() []string {
	var out []string
	for _, t := range r.Tiers {
		out = appendNew(out, t.BranchesAny, t.BranchesAll)
	}
	return out
}

func appendNew(out []string, lists ...[]string) []string {
	for _, l := range lists {
		for _, v := range l {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// Classify is the name of the first tier whose conditions hold, given
// which files exist and which branches differ from the default branch
// (a branch that does not exist does not differ); "" when none holds.
func (r Rules) Classify(exists, differs func(string) bool) string {
	for _, t := range r.Tiers {
		if holds(t.FilesAny, exists, true) && holds(t.FilesAll, exists, false) &&
			holds(t.BranchesAny, differs, true) && holds(t.BranchesAll, differs, false) {
			return t.Name
		}
	}
	return ""
}

// holds is whether any (or all) of names pass; an empty list holds.
func holds(names []string, pass func(string) bool, any bool) bool {
	if len(names) == 0 {
		return true
	}
	if any {
		return slices.ContainsFunc(names, pass)
	}
	return !slices.ContainsFunc(names, func(n string) bool { return !pass(n) })
}
