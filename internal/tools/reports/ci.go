package reports

import (
	"context"
	"strconv"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// The argument types of github_report_ci_status, each stating its range.
type (
	// Verbosity is how much is told of a failing check: 0 the pull
	// request's status only, 1 the failing workflow, job and run, 2 the
	// failing step, 3 the tail of the job's log.
	Verbosity int
	// LogLines is how many lines of a failing job's log verbosity 3 shows.
	LogLines int
	// MaxPulls bounds the open pull requests one call reports.
	MaxPulls int
)

// JSONSchema implements [tooldef.SelfDescribing].
func (Verbosity) JSONSchema() (*jsonschema.Schema, error) {
	lo, hi := 0.0, 3.0
	return &jsonschema.Schema{Type: "integer", Minimum: &lo, Maximum: &hi}, nil
}

// JSONSchema implements [tooldef.SelfDescribing].
func (LogLines) JSONSchema() (*jsonschema.Schema, error) { return upTo(2000), nil }

// JSONSchema implements [tooldef.SelfDescribing].
func (MaxPulls) JSONSchema() (*jsonschema.Schema, error) { return upTo(100), nil }

// The defaults of github_report_ci_status's arguments.
const (
	defaultVerbosity = 1
	defaultLogLines  = 200
	defaultMaxPulls  = 30
)

// CIStatusIn are github_report_ci_status's arguments.
type CIStatusIn struct {
	Owner string              `json:"owner"`
	Repo  string              `json:"repo"`
	Pull  toolkit.IssueNumber `json:"pull,omitempty" jsonschema:"absent: open PRs"`
	// Verbosity is a pointer: 0 is a level of its own, not "absent".
	Verbosity   *Verbosity  `json:"verbosity,omitempty" jsonschema:"default 1"`
	LogLines    LogLines    `json:"log_lines,omitempty" jsonschema:"default 200"`
	MaxPulls    MaxPulls    `json:"max_pulls,omitempty" jsonschema:"default 30"`
	MaxAPICalls MaxAPICalls `json:"max_api_calls,omitempty" jsonschema:"default 250"`
	Cursor      string      `json:"cursor,omitempty" jsonschema:"from next_call"`
}

// Validate checks the names.
func (in *CIStatusIn) Validate() *contract.Error { return toolkit.CheckNames(in.Owner, in.Repo) }

// withDefaults fills the omitted arguments with their defaults; a
// next_call carries them all, verbosity included.
func (in CIStatusIn) withDefaults() CIStatusIn {
	if in.Verbosity == nil {
		v := Verbosity(defaultVerbosity)
		in.Verbosity = &v
	}
	if in.LogLines == 0 {
		in.LogLines = defaultLogLines
	}
	if in.MaxPulls == 0 {
		in.MaxPulls = defaultMaxPulls
	}
	if in.MaxAPICalls == 0 {
		in.MaxAPICalls = defaultMaxAPICalls
	}
	return in
}

// level is the verbosity asked for.
func (in CIStatusIn) level() int { return int(*in.Verbosity) }

// filters are what the cursor is bound to besides the repository: the
// pull request named and max_pulls decide which rows a page holds, and
// the verbosity what a row the cursor names as reported told. log_lines
// and max_api_calls may change between calls.
func (in CIStatusIn) filters() any {
	return struct{ Pull, Verbosity, MaxPulls int }{int(in.Pull), in.level(), int(in.MaxPulls)}
}

// CIState is a pull request's combined CI state.
type CIState string

// JSONSchema implements [tooldef.SelfDescribing].
func (CIState) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum[CIState]("passed", "failed", "pending", "none"), nil
}

// CIStop is why a CI report stopped early: the bounds it has (it reads
// one repository, so neither max_repos nor a search's limits apply).
type CIStop string

// JSONSchema implements [tooldef.SelfDescribing].
func (CIStop) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum(fanout.MaxAPICalls, fanout.MaxItems, fanout.RateLimited, fanout.Cancelled), nil
}

// CIPull is one pull request and the state of its head commit's checks.
type CIPull struct {
	Number  int     `json:"number"`
	Title   string  `json:"title"`
	URL     string  `json:"url"`
	HeadSHA string  `json:"head_sha"`
	Status  CIState `json:"status" jsonschema:"none: no checks on the head commit"`
	// ChecksCut says the head commit has more checks than one page
	// holds: failing lists only those of the first page, and status is
	// GitHub's for them all (failed with no failing row when the failing
	// ones are past it).
	ChecksCut bool `json:"checks_cut,omitempty" jsonschema:"over 100 checks: failing lists the first 100's"`
}

// FailingCheck is one failing check of a pull request's head commit: a
// workflow job (check run) or a legacy commit status.
type FailingCheck struct {
	Pull       int    `json:"pull"`
	Workflow   string `json:"workflow,omitempty"`
	Job        string `json:"job" jsonschema:"the job's name, or a commit status's context"`
	Conclusion string `json:"conclusion"`
	RunID      int64  `json:"run_id,omitempty"`
	JobID      int64  `json:"job_id,omitempty"`
	URL        string `json:"url,omitempty" jsonschema:"the run's page, or the status's target"`
	// Step and the log come with verbosity 2 and 3, for Actions jobs.
	Step *FailedStep `json:"step,omitempty"`
	Log  string      `json:"log,omitempty" jsonschema:"the log's last lines, leading timestamps and ANSI codes removed"`
	// LogOmitted says the log was left out: the call had returned its
	// bound of log text (logCallBytes) across jobs. A call for this pull
	// request alone, or for fewer lines, makes room for it.
	LogOmitted bool `json:"log_omitted,omitempty" jsonschema:"left out for size: ask for fewer log_lines or this pull alone"`
	// Redacted counts credentials replaced by [redacted] in the log.
	Redacted int `json:"redacted,omitempty"`
	// Hidden counts invisible characters removed from the log and from
	// the workflow's, job's and step's names.
	Hidden int `json:"hidden_removed,omitempty"`
	// Unavailable is the error code when the job or its log could not be
	// read (not a bound: the report went on).
	Unavailable string `json:"unavailable,omitempty"`
}

// FailedStep is the step a failing job failed in.
type FailedStep struct {
	Name    string `json:"name"`
	Number  int    `json:"number"`
	Seconds int    `json:"seconds"`
}

// CIStatusOut is the report.
type CIStatusOut struct {
	Pulls           []CIPull       `json:"pulls"`
	Failing         []FailingCheck `json:"failing,omitempty"`
	APICalls        int            `json:"api_calls"`
	Truncated       bool           `json:"truncated"`
	TruncatedReason CIStop         `json:"truncated_reason,omitempty"`
	NextCall        *NextCall      `json:"next_call,omitempty"`
}

// ReportCIStatus is github_report_ci_status.
func (s *Tools) ReportCIStatus() tooldef.Spec {
	return tooldef.Tool[CIStatusIn, CIStatusOut]{
		Name:        toolkit.NameReportCIStatus,
		Toolset:     Toolset,
		Title:       "PR CI status",
		Description: "CI of a repo's open PRs or one: passed/failed/pending; verbosity 1-3 adds failing job, step, log tail.",
		Mode:        tooldef.Read,
		Keep:        []string{"pulls"},
		// Both are in the results an agent reads, beside truncated and the
		// next_call to take; listing them would not change a call it makes.
		// (This keeps the tool's listing under its 850 bytes.)
		Unlisted: []string{"api_calls", "truncated_reason"},
		Task:     tooldef.TaskSupport{Mode: tooldef.TaskOptional},
		Run:      s.reportCIStatus,
	}
}

func (s *Tools) reportCIStatus(ctx context.Context, in CIStatusIn) (CIStatusOut, error) {
	in = in.withDefaults()
	caller.ReachFrom(ctx).Named(in.Owner, in.Repo)
	scope := in.Owner + "/" + in.Repo
	restart := in
	restart.Cursor = ""
	pos, err := openPosition[ciResume](s, toolkit.NameReportCIStatus, in.Cursor, scope, in.filters(), "repository, pull, verbosity or max_pulls", restart)
	if err != nil {
		return CIStatusOut{}, err
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return CIStatusOut{}, err
	}
	r := &ciRun{run: s.newRun(ctx, c, int(in.MaxAPICalls), "pull requests"), c: c, in: in, pos: pos}
	if err := r.report(); err != nil {
		return CIStatusOut{}, err
	}
	out := r.result()
	if out.Truncated {
		next := in
		next.Cursor = s.mintCursor(toolkit.NameReportCIStatus, scope, in.filters(), r.pos)
		out.NextCall = &NextCall{Tool: toolkit.NameReportCIStatus, Arguments: next}
	}
	return out, nil
}

// checkKey names a check in the cursor: a job by its id, a commit status
// by its pull request and context.
func checkKey(pull int, job int64, context string) string {
	if job != 0 {
		return strconv.FormatInt(job, 10)
	}
	return strconv.Itoa(pull) + ":" + context
}
