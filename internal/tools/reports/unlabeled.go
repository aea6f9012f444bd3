package reports

import (
	"context"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Target is what github_report_unlabeled looks at.
type Target string

// JSONSchema implements [tooldef.SelfDescribing].
func (Target) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum[Target]("both", "issues", "pulls"), nil
}

// ItemState is the state of the items reported.
type ItemState string

// JSONSchema implements [tooldef.SelfDescribing].
func (ItemState) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum[ItemState]("open", "closed", "all"), nil
}

// The defaults of the bounds (the caps are the argument types').
const (
	defaultMaxRepos     = 50
	defaultPerRepoLimit = 200
	defaultMaxAPICalls  = 250
	// perPage is GitHub's largest page: the fewest calls per repository.
	perPage = 100
)

// UnlabeledIn are github_report_unlabeled's arguments.
type UnlabeledIn struct {
	Owner         string    `json:"owner"`
	Repo          string    `json:"repo,omitempty" jsonschema:"absent: all of owner's"`
	Target        Target    `json:"target,omitempty" jsonschema:"default both"`
	State         ItemState `json:"state,omitempty" jsonschema:"default open"`
	IncludeDrafts bool      `json:"include_drafts,omitempty" jsonschema:"default false"`
	// IncludeArchived scans the owner's archived repositories too (they
	// are read-only, not unreadable); absent, they are left out and
	// scanned names them.
	IncludeArchived bool         `json:"include_archived,omitempty"`
	MaxRepos        MaxRepos     `json:"max_repos,omitempty" jsonschema:"default 50"`
	PerRepoLimit    PerRepoLimit `json:"per_repo_limit,omitempty" jsonschema:"default 200"`
	MaxAPICalls     MaxAPICalls  `json:"max_api_calls,omitempty" jsonschema:"default 250"`
	// Cursor comes from next_call, which the description names.
	Cursor string `json:"cursor,omitempty"`
}

// Validate checks the names.
func (in *UnlabeledIn) Validate() *contract.Error {
	return toolkit.CheckNames(in.Owner, in.Repo)
}

// withDefaults fills the omitted arguments with their defaults.
func (in UnlabeledIn) withDefaults() UnlabeledIn {
	if in.Target == "" {
		in.Target = "both"
	}
	if in.State == "" {
		in.State = "open"
	}
	if in.MaxRepos == 0 {
		in.MaxRepos = defaultMaxRepos
	}
	if in.PerRepoLimit == 0 {
		in.PerRepoLimit = defaultPerRepoLimit
	}
	if in.MaxAPICalls == 0 {
		in.MaxAPICalls = defaultMaxAPICalls
	}
	return in
}

// filters are the arguments a continuation cursor is bound to: those that
// decide which rows exist. The bounds may change between calls.
func (in UnlabeledIn) filters() any {
	return struct {
		Target                         Target
		State                          ItemState
		IncludeDrafts, IncludeArchived bool
	}{in.Target, in.State, in.IncludeDrafts, in.IncludeArchived}
}

// scope is what the cursor is bound to besides the filters.
func (in UnlabeledIn) scope() string { return ownerScope(in.Owner, in.Repo) }

// ownerScope names what a report covers: the owner, or one repository.
func ownerScope(owner, repo string) string {
	if repo == "" {
		return owner
	}
	return owner + "/" + repo
}

// UnlabeledRow is one item without a label.
type UnlabeledRow struct {
	Repo      string `json:"repo"`
	Type      string `json:"type" jsonschema:"issue or pull"`
	Number    int    `json:"number"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	CreatedAt string `json:"created_at"`
	Archived  bool   `json:"archived,omitempty" jsonschema:"its repository is archived"`
}

// Scanned counts what this call read, and says which repositories it
// covered.
type Scanned struct {
	Repos int `json:"repos"`
	Items int `json:"items"`
	Coverage
}

// SkippedRepo is a repository the report could not read, and why (an
// error code: gone for issues turned off, not_found, insufficient_scope).
type SkippedRepo struct {
	Repo   string `json:"repo"`
	Reason string `json:"reason"`
}

// UnlabeledOut is the report.
type UnlabeledOut struct {
	Rows            []UnlabeledRow `json:"rows"`
	Scanned         Scanned        `json:"scanned"`
	Skipped         []SkippedRepo  `json:"skipped,omitempty"`
	APICalls        int            `json:"api_calls"`
	ConditionalHits int            `json:"conditional_hits" jsonschema:"calls GitHub answered 304: no rate budget spent"`
	Truncated       bool           `json:"truncated"`
	TruncatedReason Stop           `json:"truncated_reason,omitempty"`
	NextCall        *NextCall      `json:"next_call,omitempty" jsonschema:"continues where this stopped"`
	// Withheld counts the owner's repositories the client may not read,
	// left out of the scan.
	Withheld int `json:"withheld,omitempty" jsonschema:"repositories this client may not read, left out"`
}

// ReportUnlabeled is github_report_unlabeled.
func (s *Tools) ReportUnlabeled() tooldef.Spec {
	return tooldef.Tool[UnlabeledIn, UnlabeledOut]{
		Name:        toolkit.NameReportUnlabeled,
		Toolset:     Toolset,
		Title:       "Unlabeled issues",
		Description: "Issues and PRs with no label, in one repo or all of owner's. Stops at a bound with truncated; next_call continues.",
		Mode:        tooldef.Read,
		Keep:        []string{"rows"},
		// The counts and skipped rows are in ghgate://schemas, as the
		// release report's are: an agent acts on rows, scanned (what was
		// covered), truncated_reason and next_call.
		Unlisted: []string{"skipped", "api_calls", "conditional_hits"},
		Task:     tooldef.TaskSupport{Mode: tooldef.TaskOptional},
		Run:      s.reportUnlabeled,
	}
}

func (s *Tools) reportUnlabeled(ctx context.Context, in UnlabeledIn) (UnlabeledOut, error) {
	in = in.withDefaults()
	caller.ReachFrom(ctx).Named(in.Owner, in.Repo)
	restart := in
	restart.Cursor = ""
	pos, err := openPosition[resume](s, toolkit.NameReportUnlabeled, in.Cursor, in.scope(), in.filters(),
		"owner, repository, target, state, include_drafts or include_archived", restart)
	if err != nil {
		return UnlabeledOut{}, err
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return UnlabeledOut{}, err
	}
	sc := &scan{run: s.newRun(ctx, c, int(in.MaxAPICalls), "repositories"), c: c, in: in, pos: pos}
	if err := sc.report(); err != nil {
		return UnlabeledOut{}, err
	}
	out := sc.result()
	if out.Truncated {
		next := in
		next.Cursor = s.mintCursor(toolkit.NameReportUnlabeled, in.scope(), in.filters(), sc.pos)
		out.NextCall = &NextCall{Tool: toolkit.NameReportUnlabeled, Arguments: next}
	}
	return out, nil
}
