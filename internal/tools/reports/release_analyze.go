package reports

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
	"github.com/google/jsonschema-go/jsonschema"
)

// Verdict is what the release pull request needs next (analyze).
type Verdict string

// Freshness is how the changelog entry compares with what shipped.
type Freshness string

// The verdicts and freshness values; see verdict and freshness for the
// rules that choose them.
const (
	VerdictDone     Verdict = "done"
	VerdictInFlight Verdict = "in_flight"
	VerdictWait     Verdict = "wait"
	VerdictGray     Verdict = "gray"
	VerdictWrite    Verdict = "write"
	VerdictUpdate   Verdict = "update"
	VerdictInspect  Verdict = "inspect"
	// VerdictDocMismatch: the README's "What's new" block at the head
	// names another version than the pull request releases.
	VerdictDocMismatch Verdict = "doc_version_mismatch"

	FreshCurrent      Freshness = "current"
	FreshMinorGap     Freshness = "minor_gap"
	FreshStale        Freshness = "stale"
	FreshVersionDrift Freshness = "version_drift"
	FreshThin         Freshness = "thin"
)

// JSONSchema implements tooldef.SelfDescribing.
func (Verdict) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(VerdictDone, VerdictInFlight, VerdictWait, VerdictGray, VerdictWrite, VerdictUpdate, VerdictInspect, VerdictDocMismatch), nil
}

// JSONSchema implements tooldef.SelfDescribing.
func (Freshness) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(FreshCurrent, FreshMinorGap, FreshStale, FreshVersionDrift, FreshThin), nil
}

// Analysis is what analyze adds to a row.
type Analysis struct {
	// Base is the branch the release pull request merges into.
	Base string `json:"base"`
	// Open are the other pull requests open against Base, by kind
	// (absent: none).
	Open *OpenPulls `json:"open,omitempty"`
	// Since is the previous release's tag: the newest published release
	// older than this version ("" when there is none, and every merged
	// pull request counts as shipped).
	Since string `json:"since,omitempty"`
	// Shipped counts the pull requests merged into Base since then;
	// Unnamed are those the changelog entry does not name (by #number or
	// title).
	Shipped   int       `json:"shipped"`
	Unnamed   []int     `json:"unnamed,omitempty"`
	Freshness Freshness `json:"freshness,omitempty"`
}

// OpenPulls are pull request numbers by kind (see kindOf).
type OpenPulls struct {
	Docs       []int `json:"docs,omitempty"`
	Dependency []int `json:"dependency,omitempty"`
	Feature    []int `json:"feature,omitempty"`
	Draft      []int `json:"draft,omitempty"`
}

type kind int

const (
	kindFeature kind = iota
	kindDocs
	kindDependency
	kindDraft
)

var dependencyBots = []string{"dependabot[bot]", "renovate[bot]"}

// kindOf classifies a pull request by the first rule that holds:
//
//	draft       it is a draft: whatever it changes, it is not ready to ship;
//	dependency  its author is a dependency bot (dependabot[bot],
//	            renovate[bot]), it carries a "dependencies" label, or its
//	            title starts "Bump " or "chore(deps" / "build(deps" / "fix(deps";
//	docs        it carries a "documentation" or "docs" label, or its title
//	            starts "docs" or "Document ";
//	feature     anything else: a change to what ships, fixes included.
func kindOf(p *gh.PullRequest) kind {
	// Hidden characters would let a title that reads "Bump x" pass as a
	// feature, or the other way round.
	title := strings.ToLower(cleanTitle(p.GetTitle()))
	switch {
	case p.GetDraft():
		return kindDraft
	case hasLabel(p.Labels, "dependencies") || slices.ContainsFunc(dependencyBots, func(b string) bool { return strings.EqualFold(b, p.GetUser().GetLogin()) }) ||
		strings.HasPrefix(title, "bump ") || strings.HasPrefix(title, "chore(deps") ||
		strings.HasPrefix(title, "build(deps") || strings.HasPrefix(title, "fix(deps"):
		return kindDependency
	case hasLabel(p.Labels, "documentation") || hasLabel(p.Labels, "docs") ||
		strings.HasPrefix(title, "docs") || strings.HasPrefix(title, "document "):
		return kindDocs
	}
	return kindFeature
}

func (o *OpenPulls) add(k kind, n int) {
	switch k {
	case kindDocs:
		o.Docs = append(o.Docs, n)
	case kindDependency:
		o.Dependency = append(o.Dependency, n)
	case kindDraft:
		o.Draft = append(o.Draft, n)
	default:
		o.Feature = append(o.Feature, n)
	}
}

// shippedPages bounds the closed pull requests read per release PR.
const shippedPages = 3

// analyze fills the row's analysis and verdict: the pull requests open
// against the base (one listing), and, for a known version, the previous
// release (one page of releases) and the pull requests merged into the
// base since (closed ones, most recently updated first, until one was
// last touched before the release). doc is the README's "What's new"
// block, read before.
func (s *releaseScan) analyze(ctx context.Context, p releasePull, row *ReleaseRow, log changelog, doc readmeDoc) error {
	// The base branch is shown as the row shows it (without hidden
	// characters) and asked for as it is.
	a := &Analysis{Base: row.Base}
	open, err := s.pullsOn(ctx, p, github.PullsQuery{State: "open", Base: p.base}, repoPages, time.Time{})
	if err != nil {
		return err
	}
	var byKind OpenPulls
	for _, o := range open {
		byKind.add(kindOf(o), o.GetNumber())
	}
	if row.Version != "" {
		since, err := s.previousRelease(ctx, p, row.Version)
		if err != nil {
			return err
		}
		a.Since = since.tag
		closed, err := s.pullsOn(ctx, p, github.PullsQuery{State: "closed", Base: p.base, Sort: "updated", Direction: "desc"}, shippedPages, since.at)
		if err != nil {
			return err
		}
		var shipped []*gh.PullRequest
		for _, c := range closed {
			if c.MergedAt != nil && c.GetMergedAt().After(since.at) {
				shipped = append(shipped, c)
			}
		}
		a.Shipped = len(shipped)
		if log.path != "" {
			a.Freshness, a.Unnamed = freshness(log.entry, row.Version, shipped)
		}
	}
	row.Verdict, row.Reason = verdict(row, a, byKind, log, doc)
	if len(open) > 0 {
		a.Open = &byKind
	}
	row.Analysis = a
	return nil
}

// pullsOn lists the pull requests q selects, other than p and other
// release pull requests, up to pages pages; with stopBefore set it stops
// after a page whose last pull request was updated before it (the list is
// most recently updated first, so no later page holds a newer merge).
func (s *releaseScan) pullsOn(ctx context.Context, p releasePull, q github.PullsQuery, pages int, stopBefore time.Time) ([]*gh.PullRequest, error) {
	var out []*gh.PullRequest
	q.PerPage = perPage
	for page := 1; page <= pages; page++ {
		q.Page = toolkit.PageParam(page)
		var list []*gh.PullRequest
		var next int
		err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
			l, m, err := s.c.ListPullsBy(ctx, s.in.Owner, p.repo, q)
			list, next = l, m.NextPage
			return m, err
		})
		if err != nil {
			return nil, err
		}
		for _, o := range list {
			if o.GetNumber() != p.number && !hasLabel(o.Labels, s.conv.label) {
				out = append(out, o)
			}
		}
		if next == 0 || len(list) > 0 && !stopBefore.IsZero() && list[len(list)-1].GetUpdatedAt().Before(stopBefore) {
			break
		}
	}
	return out, nil
}

type release struct {
	tag string
	at  time.Time
}

// previousRelease is the newest published release (not a draft or a
// pre-release) whose version is older than version, by semantic version
// rather than date, so a patch release on a maintenance branch is measured
// against its own line. One page of 100 releases is read.
func (s *releaseScan) previousRelease(ctx context.Context, p releasePull, version string) (release, error) {
	var list []*gh.RepositoryRelease
	err := s.call(ctx, p, func(ctx context.Context) (github.Meta, error) {
		l, m, err := s.c.ListReleases(ctx, s.in.Owner, p.repo, gh.ListOptions{PerPage: perPage})
		list = l
		return m, err
	})
	if err != nil {
		return release{}, err
	}
	var best release
	var bestV [3]int
	mine, _ := parseCore(version)
	for _, r := range list {
		v, ok := parseCore(strings.TrimPrefix(r.GetTagName(), "v"))
		if r.GetDraft() || r.GetPrerelease() || !ok || !less(v, mine) || best.tag != "" && !less(bestV, v) {
			continue
		}
		best, bestV = release{tag: r.GetTagName(), at: r.GetPublishedAt().Time}, v
	}
	return best, nil
}

// parseCore reads X.Y.Z (a pre-release part is ignored).
func parseCore(v string) ([3]int, bool) {
	plain, _, _ := strings.Cut(v, "-")
	parts := strings.Split(plain, ".")
	var out [3]int
	if len(parts) != 3 {
		return out, false
	}
	for i, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// minEntryItems is how many list items an entry needs not to be thin: a
// release worth a pull request changed more than one thing, or its entry
// says too little to tell a reader what.
const minEntryItems = 2

// freshness compares the changelog entry with the pull requests shipped
// since the previous release, by the first rule that holds:
//
//	version_drift  the first version the entry names is another one (the
//	               entry was copied from, or still reads as, another release);
//	thin           it has fewer than minEntryItems list items;
//	stale          a shipped feature pull request is not named in it;
//	minor_gap      only shipped docs or dependency pull requests are not;
//	current        every shipped pull request is named (or none shipped).
//
// A pull request is named by "#number" or by its title (case ignored).
func freshness(entry, version string, shipped []*gh.PullRequest) (Freshness, []int) {
	if vs := versions(entry); len(vs) > 0 && vs[0] != version {
		return FreshVersionDrift, nil
	}
	var unnamed []int
	feature := false
	lower := strings.ToLower(entry)
	for _, p := range shipped {
		if namesPull(entry, p.GetNumber()) || strings.Contains(lower, strings.ToLower(p.GetTitle())) {
			continue
		}
		unnamed = append(unnamed, p.GetNumber())
		feature = feature || kindOf(p) == kindFeature
	}
	switch {
	case items(entry) < minEntryItems:
		return FreshThin, unnamed
	case feature:
		return FreshStale, unnamed
	case len(unnamed) > 0:
		return FreshMinorGap, unnamed
	}
	return FreshCurrent, nil
}

// namesPull reports whether text holds "#n" not followed by a digit.
func namesPull(text string, n int) bool {
	ref := "#" + strconv.Itoa(n)
	for i := strings.Index(text, ref); i >= 0; {
		end := i + len(ref)
		if end == len(text) || text[end] < '0' || text[end] > '9' {
			return true
		}
		next := strings.Index(text[end:], ref)
		if next < 0 {
			return false
		}
		i = end + next
	}
	return false
}

// items counts the entry's Markdown list items.
func items(entry string) int {
	n := 0
	for _, l := range strings.Split(entry, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") {
			n++
		}
	}
	return n
}

// verdict is the decision table, first row that holds:
//
//	status unknown_version           inspect    no version to look up
//	freshness version_drift          inspect    the entry is another release's
//	open feature PRs on base         wait       what ships is not settled yet
//	status needs_changelog           write      no entry at the head commit
//	freshness stale or thin          update     the entry misses what shipped
//	README names another version     doc_version_mismatch
//	                                            the front page announces
//	                                            another release
//	open docs/dependency PRs         in_flight  small changes still landing
//	open drafts, or minor_gap        gray       a judgment call: ship as is or not
//	otherwise                        done       ready to merge
//
// Open pull requests outrank the changelog's state because an entry
// written or updated before they land goes stale again; a missing
// version outranks everything because nothing else can be checked.
//
// The README's "What's new" block naming versions, none of them this one
// (doc_version_mismatch), sits below the changelog's rows and above the
// rows that say the pull request is about ready. Below: the changelog is
// the release's record and the report's subject, the README's block a
// summary usually written from it, so the entry comes first; and while
// feature PRs are open (wait) the block's text changes anyway. Unlike
// version_drift it does not question the title's version: a block still
// announcing the previous release is the common case of a README not yet
// updated, not a sign the title is wrong. Above: in_flight, gray and done
// all mean "nearly ready to merge", and merging as is would ship a front
// page announcing another release. A block naming no version, or no
// block, is no mismatch (readme_mentions_version says which).
func verdict(row *ReleaseRow, a *Analysis, o OpenPulls, log changelog, doc readmeDoc) (Verdict, string) {
	switch {
	case row.Status == StatusUnknownVersion:
		return VerdictInspect, "the title names no version (want e.g. \"release: v1.2.3\")"
	case a.Freshness == FreshVersionDrift:
		return VerdictInspect, fmt.Sprintf("%s names v%s, not v%s", log.path, versions(log.entry)[0], row.Version)
	case len(o.Feature) > 0:
		return VerdictWait, fmt.Sprintf("%d feature PR(s) open against %s: land or retarget them first", len(o.Feature), a.Base)
	case row.Status == StatusNeedsChangelog:
		return VerdictWrite, fmt.Sprintf("no changelog entry for v%s at the head commit", row.Version)
	case a.Freshness == FreshThin:
		return VerdictUpdate, fmt.Sprintf("%s has under %d items for v%s", log.path, minEntryItems, row.Version)
	case a.Freshness == FreshStale:
		return VerdictUpdate, fmt.Sprintf("%s does not name %s, shipped since %s", log.path, numbers(a.Unnamed), sinceName(a.Since))
	case doc.other(row.Version) != "":
		return VerdictDocMismatch, fmt.Sprintf("the README's What's new names v%s, not v%s", doc.other(row.Version), row.Version)
	case len(o.Docs)+len(o.Dependency) > 0:
		return VerdictInFlight, fmt.Sprintf("%d docs/dependency PR(s) still open against %s", len(o.Docs)+len(o.Dependency), a.Base)
	case len(o.Draft) > 0:
		return VerdictGray, fmt.Sprintf("only draft PR(s) %s open against %s: decide whether they ship", numbers(o.Draft), a.Base)
	case a.Freshness == FreshMinorGap:
		return VerdictGray, fmt.Sprintf("%s omits docs/dependency PR(s) %s", log.path, numbers(a.Unnamed))
	}
	return VerdictDone, "changelog current, nothing open against " + a.Base
}

func numbers(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = "#" + strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func sinceName(tag string) string {
	if tag == "" {
		return "the start (no earlier release)"
	}
	return tag
}
