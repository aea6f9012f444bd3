package reports

import (
	"context"
	"maps"
	"slices"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// ReleaseIn are github_report_release_prs' arguments. The release label,
// the title's version pattern and the changelog paths are the operator's
// ([toolkit.ReleaseSettings]), not the caller's.
type ReleaseIn struct {
	Owner       string `json:"owner"`
	Repo        string `json:"repo,omitempty" jsonschema:"absent: all of owner's"`
	OnlyMissing bool   `json:"only_missing,omitempty"`
	Analyze     bool   `json:"analyze,omitempty" jsonschema:"adds base's open PRs, freshness, verdict"`
	// IncludeArchived searches the owner's archived repositories too.
	IncludeArchived bool        `json:"include_archived,omitempty"`
	MaxAPICalls     MaxAPICalls `json:"max_api_calls,omitempty" jsonschema:"default 250"`
	// Cursor comes from next_call, which the description names.
	Cursor string `json:"cursor,omitempty"`
}

// Validate checks the names.
func (in *ReleaseIn) Validate() *contract.Error {
	return toolkit.CheckNames(in.Owner, in.Repo)
}

// filters are what the continuation cursor is bound to besides the scope:
// the arguments that decide which rows exist and what they hold.
func (in ReleaseIn) filters() any {
	return struct{ OnlyMissing, Analyze, IncludeArchived bool }{in.OnlyMissing, in.Analyze, in.IncludeArchived}
}

func (in ReleaseIn) scope() string { return ownerScope(in.Owner, in.Repo) }

// ReleaseStatus is a release pull request's changelog status.
type ReleaseStatus string

// The statuses.
const (
	StatusReady          ReleaseStatus = "ready"
	StatusNeedsChangelog ReleaseStatus = "needs_changelog"
	StatusUnknownVersion ReleaseStatus = "unknown_version"
)

// JSONSchema implements [tooldef.SelfDescribing].
func (ReleaseStatus) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(StatusReady, StatusNeedsChangelog, StatusUnknownVersion), nil
}

// ReleaseRow is one open release pull request.
type ReleaseRow struct {
	Repo    string `json:"repo"`
	Number  int    `json:"number"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	Version string `json:"version,omitempty"`
	HeadSHA string `json:"head_sha"`
	// Head and Base are the head and base branch names, without hidden
	// characters (a branch name is its pusher's text).
	Head   string        `json:"head"`
	Base   string        `json:"base"`
	Draft  bool          `json:"draft,omitempty"`
	Status ReleaseStatus `json:"status"`
	// ChangelogPath is where the entry was found at the head commit;
	// CheckedPaths are the changelog paths read for it, in the order
	// read, up to that one (all of them when none holds it; absent when
	// the title names no version, and nothing is read).
	ChangelogPath string   `json:"changelog_path,omitempty"`
	CheckedPaths  []string `json:"checked_paths,omitempty"`
	// ReadmeMentionsVersion says whether the "What's new" block of the
	// README at the head commit (see whatsNew) names the version, as a
	// whole token (v1.2.3 or 1.2.3). Absent when unknown: the title names
	// no version, or (ReadmeNote says which) the head has no README or
	// its README no such block. It informs; the status stays the
	// changelog's.
	ReadmeMentionsVersion *bool      `json:"readme_mentions_version,omitempty"`
	ReadmeNote            ReadmeNote `json:"readme_note,omitempty"`
	// Verdict and Reason come with analyze (see verdict).
	Verdict  Verdict   `json:"verdict,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Analysis *Analysis `json:"analysis,omitempty"`
	// Sanitized counts the hidden characters removed from the text the
	// pull request's author or pushers wrote: its title and branches.
	Sanitized *contract.Removed `json:"sanitized,omitempty"`
	Archived  bool              `json:"archived,omitempty" jsonschema:"its repository is archived"`
}

// removed adds to the row's count of hidden characters removed.
func (r *ReleaseRow) removed(rm contract.Removed) {
	if !rm.Any() {
		return
	}
	if r.Sanitized == nil {
		r.Sanitized = &contract.Removed{}
	}
	*r.Sanitized = r.Sanitized.Add(rm)
}

// ReleaseScanned counts what this call read, and says which repositories
// it covered. The owner-wide search leaves archived repositories out
// with a qualifier, so it cannot count them (archived_skipped stays 0):
// include_archived false says they were not covered.
type ReleaseScanned struct {
	// Found is how many open release pull requests the search or listing
	// returned; Pulls how many of them this call finished.
	Found int `json:"found"`
	Pulls int `json:"pulls"`
	Coverage
}

// ReleaseOut is the report.
type ReleaseOut struct {
	Rows    []ReleaseRow   `json:"rows"`
	Scanned ReleaseScanned `json:"scanned"`
	// Summary counts the run's release pull requests by status, hidden
	// rows included (see ReleaseSummary).
	Summary ReleaseSummary `json:"summary"`
	// Verdicts tallies the verdicts of the run's rows (analyze): of every
	// call of the run, as Summary, and of the rows reported, so with
	// only_missing those of the needs_changelog rows.
	Verdicts map[Verdict]int `json:"verdicts,omitempty"`
	// Skipped are the release pull requests that could not be read, each
	// named "repo#number", with the error code.
	Skipped         []SkippedRepo `json:"skipped,omitempty"`
	APICalls        int           `json:"api_calls"`
	ConditionalHits int           `json:"conditional_hits"`
	Truncated       bool          `json:"truncated"`
	TruncatedReason ReleaseStop   `json:"truncated_reason,omitempty"`
	NextCall        *NextCall     `json:"next_call,omitempty"`
	// Notes say why a truncated report has no next_call.
	Notes []string `json:"notes,omitempty"`
	// Withheld counts the release pull requests the search found in
	// repositories the client may not read, left out.
	Withheld int `json:"withheld,omitempty" jsonschema:"pull requests of repositories this client may not read, left out"`
}

// ReportReleasePRs is github_report_release_prs.
func (s *Tools) ReportReleasePRs() tooldef.Spec {
	return tooldef.Tool[ReleaseIn, ReleaseOut]{
		Name:        toolkit.NameReportReleasePRs,
		Toolset:     Toolset,
		Title:       "Release PRs",
		Description: "Open release PRs: version in title, changelog at head; flags absent: false. Bounded: next_call resumes.",
		Mode:        tooldef.Read,
		Keep:        []string{"rows"},
		// The counts and skipped rows are in ghgate://schemas: an agent
		// acts on rows, truncated_reason and next_call.
		// So are the run's summary and verdict tally, which add up rows.
		Unlisted: []string{"scanned", "summary", "verdicts", "skipped", "api_calls", "conditional_hits"},
		Task:     tooldef.TaskSupport{Mode: tooldef.TaskOptional},
		Run:      s.reportReleasePRs,
	}
}

// ReleaseStop is why the report stopped early: the bounds it can meet.
type ReleaseStop string

// JSONSchema implements [tooldef.SelfDescribing].
func (ReleaseStop) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(fanout.MaxAPICalls, fanout.MaxItems, fanout.RateLimited, fanout.IncompleteSearch, fanout.Cancelled), nil
}

// releaseResume is where a truncated report goes on: the pull requests
// finished ("repo#number", lower case). The search is run again on each
// call (one call per 100 release PRs), so a PR it finds that is done is
// skipped, and one it missed before (incomplete_results) is found. The
// run's summary and verdict tally so far ride along (a few bytes), so
// that they cover the whole run: each PR is counted by the one call that
// finishes it.
type releaseResume struct {
	Done     []string        `json:"d,omitempty"`
	Summary  ReleaseSummary  `json:"s"`
	Verdicts map[Verdict]int `json:"v,omitempty"`
}

func (s *Tools) reportReleasePRs(ctx context.Context, in ReleaseIn) (ReleaseOut, error) {
	if in.MaxAPICalls == 0 {
		in.MaxAPICalls = defaultMaxAPICalls
	}
	caller.ReachFrom(ctx).Named(in.Owner, in.Repo)
	restart := in
	restart.Cursor = ""
	pos, err := openPosition[releaseResume](s, toolkit.NameReportReleasePRs, in.Cursor, in.scope(), in.filters(),
		"owner, repository, only_missing, analyze or include_archived", restart)
	if err != nil {
		return ReleaseOut{}, err
	}
	conv, err := compileRelease(s.Releases)
	if err != nil {
		return ReleaseOut{}, contract.Errorf(contract.CodeInternal, "the operator's release settings are invalid: %v", err)
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return ReleaseOut{}, err
	}
	run := s.newRun(ctx, c, int(in.MaxAPICalls), "pull requests")
	sc := &releaseScan{run: run, c: c, in: in, conv: conv, done: map[string]bool{}, summary: pos.Summary}
	for _, k := range pos.Done {
		sc.done[k] = true
	}
	if err := sc.report(); err != nil {
		return ReleaseOut{}, err
	}
	out := sc.result()
	out.Verdicts = tally(pos.Verdicts, out.Rows)
	if out.Truncated && !sc.resumable() {
		out.Notes = sc.notes()
	} else if out.Truncated {
		next := in
		if sc.next != nil {
			// A next_call is one that makes progress: the same budget,
			// unless the next pull request takes more.
			next.MaxAPICalls = max(in.MaxAPICalls, MaxAPICalls(sc.pages+sc.cost(*sc.next)))
		}
		pos.Done = slices.Sorted(maps.Keys(sc.done))
		pos.Summary, pos.Verdicts = out.Summary, out.Verdicts
		next.Cursor = s.mintCursor(toolkit.NameReportReleasePRs, in.scope(), in.filters(), pos)
		out.NextCall = &NextCall{Tool: toolkit.NameReportReleasePRs, Arguments: next}
	}
	return out, nil
}
