package seed

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Maintenance releases: three fleet repositories past the first 30 also
// carry patch releases on maintenance branches (stable/vX.Y), each branch
// with its previous release published, pull requests merged into it since,
// some still open against it, and a release pull request into it. Each
// case is one situation a release report has to tell apart (the comment
// on each says which), so tests reach every verdict from the seed. The
// first 30 repositories are left as they were, so reports over a smaller
// fleet see the same world as before.

// releaseCase is one maintenance release pull request and its branch.
type releaseCase struct {
	version string // X.Y.Z; the previous release is X.Y.(Z-1)
	// title, when set, replaces "release: vX.Y.Z" (a title naming no
	// version).
	title string
	// changelog is where the head holds the entry: "docs", "changelog"
	// (CHANGELOG.md) or "" (none).
	changelog string
	// drift makes the entry name this version instead of its own.
	drift string
	// thin makes the entry one item long.
	thin    bool
	shipped []caseChange // merged into the branch after the previous release
	open    []caseChange // open against the branch
}

type caseChange struct {
	title, label string
	draft        bool
	// unnamed leaves a shipped change out of the changelog entry.
	unnamed bool
}

var (
	caseProbe   = caseChange{title: "Add a readiness probe", label: "enhancement"}
	caseBatches = caseChange{title: "Handle empty batches in the ingest loop", label: "bug"}
	caseBump    = caseChange{title: "Bump golang.org/x/net from 0.30.0 to 0.33.0", label: "dependencies"}
	caseRetries = caseChange{title: "Document the retry settings", label: "documentation"}
)

// fleetReleaseCases are the cases of the fleet's i-th repository.
func fleetReleaseCases(i int) []releaseCase {
	unnamed := func(c caseChange) caseChange { c.unnamed = true; return c }
	draft := func(c caseChange) caseChange { c.draft = true; return c }
	switch i {
	case 31:
		return []releaseCase{
			{version: "5.1.1", changelog: "docs", shipped: []caseChange{caseProbe, caseBump}},                               // done
			{version: "5.2.1", changelog: "changelog", shipped: []caseChange{caseBatches}, open: []caseChange{caseRetries}}, // in_flight
			{version: "5.3.1", changelog: "docs", shipped: []caseChange{caseBatches}, open: []caseChange{draft(caseProbe)}}, // gray: a draft
		}
	case 38:
		return []releaseCase{
			{version: "6.1.1", changelog: "docs", shipped: []caseChange{caseProbe, unnamed(caseRetries)}}, // gray: minor_gap
			{version: "6.2.1", shipped: []caseChange{caseProbe}},                                          // write
			{version: "6.3.1", changelog: "docs", shipped: []caseChange{unnamed(caseBatches), caseBump}},  // update: stale
		}
	case 45:
		return []releaseCase{
			{version: "7.1.1", changelog: "docs", thin: true},                                                 // update: thin
			{version: "7.2.1", changelog: "docs", drift: "7.2.0", shipped: []caseChange{caseBatches}},         // inspect: version_drift
			{version: "7.3.1", title: "Release candidate: spring clean-up", shipped: []caseChange{caseProbe}}, // inspect: unknown_version
		}
	}
	return nil
}

// maintenanceReleases builds the repository's cases, a day apart.
func (fs *fleetSeeder) maintenanceReleases() {
	for k, c := range append(fleetReleaseCases(fs.i), fleetReadmeReleaseCases(fs.i)...) {
		fs.releaseCase(c, 70+k*5)
	}
}

func (fs *fleetSeeder) releaseCase(c releaseCase, day int) {
	s, r, alice := fs.sd.s, fs.r, fs.w.alice
	parts := strings.Split(c.version, ".")
	patch, _ := strconv.Atoi(parts[2])
	base := "stable/v" + parts[0] + "." + parts[1]
	prev := fmt.Sprintf("v%s.%s.%d", parts[0], parts[1], patch-1)
	r.Git.Branches[base] = r.Git.Branches[state.RepoDefaultBranch]
	at := fs.at(day, 0)
	s.Tag(r, prev, r.Git.Branches[base])
	s.AddRelease(r, prev, "Patch release.\n", alice, at)
	entry := "## v" + c.version + "\n\n"
	if c.drift != "" {
		entry = "## v" + c.drift + "\n\n"
	}
	for k, ch := range c.shipped {
		is := fs.change(ch, base, fmt.Sprintf("%s-%d", c.version, k), fs.at(day, 1+k))
		fs.sd.clock = fs.sd.clock.Add(30 * time.Minute)
		s.MergePull(is, alice)
		if !ch.unnamed {
			entry += fmt.Sprintf("- %s (#%d)\n", ch.title, is.Number)
		}
	}
	if c.thin {
		entry += "- Maintenance release.\n"
	} else {
		entry += "- Internal clean-ups.\n"
	}
	for k, ch := range c.open {
		fs.change(ch, base, fmt.Sprintf("%s-open-%d", c.version, k), fs.at(day, 3+k))
	}
	writes := map[string]*string{"VERSION": ptr(c.version + "\n")}
	fs.releaseReadme(c.version, writes) // fleet_release_readme.go
	switch c.changelog {
	case "docs":
		head := "# v" + c.version + "\n\n"
		if c.drift != "" {
			head = "# v" + c.drift + "\n\n"
		}
		writes["docs/changelog/v"+parts[0]+"/v"+c.version+".md"] = ptr(head + entry)
	case "changelog":
		writes["CHANGELOG.md"] = ptr("# Changelog\n\n" + entry + "\n## v0.9.0\n\n- First tracked release.\n")
	}
	title := c.title
	if title == "" {
		title = "release: v" + c.version
	}
	at = fs.at(day, 4)
	branch := "release/v" + c.version
	s.Commit(r, branch, alice, at.Add(-time.Hour), "Prepare v"+c.version, writes)
	is := s.NewIssue(r, alice, title, ptr("Patch release from "+base+".\n"), true, at)
	s.OpenPull(is, r, branch, base, false)
	fs.sd.label(is, alice, FleetReleaseLabel)
}

// change opens a pull request of ch against base from a branch of its
// own that adds one file.
func (fs *fleetSeeder) change(ch caseChange, base, slug string, at time.Time) *state.Issue {
	s, r := fs.sd.s, fs.r
	branch := "change-" + slug
	body := ch.title + "\n"
	s.Commit(r, branch, fs.w.bob, at.Add(-time.Hour), ch.title, map[string]*string{"changes/" + slug + ".md": &body})
	is := s.NewIssue(r, fs.w.bob, ch.title, ptr("## Summary\n\n"+ch.title+".\n"), true, at)
	s.OpenPull(is, r, branch, base, ch.draft)
	fs.sd.label(is, fs.w.bob, ch.label)
	return is
}
