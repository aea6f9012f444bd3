package reports

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// AlertType is one of the three kinds of security alert.
type AlertType string

// The alert types, in the order a report reads them.
const (
	Dependabot     AlertType = "dependabot"
	CodeScanning   AlertType = "code_scanning"
	SecretScanning AlertType = "secret_scanning"
)

var alertTypes = []AlertType{Dependabot, CodeScanning, SecretScanning}

// JSONSchema implements [tooldef.SelfDescribing].
func (AlertType) JSONSchema() (*jsonschema.Schema, error) { return toolkit.Enum(alertTypes...), nil }

// Severity is an alert's severity, lowest first.
type Severity string

var severities = []Severity{"low", "medium", "high", "critical"}

// JSONSchema implements [tooldef.SelfDescribing].
func (Severity) JSONSchema() (*jsonschema.Schema, error) { return toolkit.Enum(severities...), nil }

// rank orders severities: 1 for low up to 4 for critical, 0 for unknown.
func (s Severity) rank() int { return slices.Index(severities, s) + 1 }

// AlertLimit bounds the alert rows one call returns (cap 1000).
type AlertLimit int

// JSONSchema implements [tooldef.SelfDescribing].
func (AlertLimit) JSONSchema() (*jsonschema.Schema, error) { return upTo(1000), nil }

const defaultAlertLimit = 100

// AlertsIn are github_report_security_alerts' arguments.
type AlertsIn struct {
	Owner       string      `json:"owner"`
	Repo        string      `json:"repo,omitempty"`
	Repos       []string    `json:"repos,omitempty"`
	Types       []AlertType `json:"types,omitempty"`
	MinSeverity Severity    `json:"min_severity,omitempty"`
	SummaryOnly bool        `json:"summary_only,omitempty"`
	// IncludeArchived covers the owner's archived repositories too: their
	// alerts stay readable, and the organization's lists hold them.
	IncludeArchived bool        `json:"include_archived,omitempty"`
	AlertLimit      AlertLimit  `json:"alert_limit,omitempty" jsonschema:"default 100"`
	MaxRepos        MaxRepos    `json:"max_repos,omitempty" jsonschema:"default 50"`
	MaxAPICalls     MaxAPICalls `json:"max_api_calls,omitempty" jsonschema:"default 250"`
	Cursor          string      `json:"cursor,omitempty"`
	// Classify adds each repository's tier (tiers in the answer), one
	// GraphQL query per repository from max_api_calls, after the lists.
	Classify bool `json:"classify,omitempty"`
}

// AlertsIn's listing is held to 850 bytes, so the arguments whose names
// say what they are, or whose omission is plain (repo: every repository;
// min_severity: every severity; cursor: from next_call), carry no
// description. Open alerts only: an agent asks which alerts need work.

// Validate checks the names.
func (in *AlertsIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	for _, r := range in.Repos {
		if e := toolkit.CheckNames(in.Owner, r); e != nil {
			e.Details.Field = "repos"
			return e
		}
	}
	return nil
}

// withDefaults fills the omitted arguments with their defaults, and puts
// the repositories and types named in one order, so a continuation is
// bound to what they mean rather than how they were spelled.
func (in AlertsIn) withDefaults() AlertsIn {
	if len(in.Types) == 0 {
		in.Types = alertTypes
	}
	in.Types = slices.DeleteFunc(slices.Clone(alertTypes), func(t AlertType) bool { return !slices.Contains(in.Types, t) })
	in.MinSeverity = cmp.Or(in.MinSeverity, "low")
	in.AlertLimit = cmp.Or(in.AlertLimit, defaultAlertLimit)
	in.MaxRepos = cmp.Or(in.MaxRepos, defaultMaxRepos)
	in.MaxAPICalls = cmp.Or(in.MaxAPICalls, defaultMaxAPICalls)
	in.Repos = slices.Clone(in.Repos)
	if in.Repo != "" && !slices.Contains(in.Repos, in.Repo) {
		in.Repos = append(in.Repos, in.Repo)
	}
	in.Repo = ""
	slices.SortFunc(in.Repos, byName)
	in.Repos = slices.CompactFunc(in.Repos, strings.EqualFold)
	return in
}

// filters are the arguments a continuation cursor is bound to: those that
// decide which alerts exist. Bounds and summary_only may change.
func (in AlertsIn) filters() any {
	return struct {
		Types           []AlertType
		Repos           []string
		MinSeverity     Severity
		IncludeArchived bool
	}{in.Types, in.Repos, in.MinSeverity, in.IncludeArchived}
}

// AlertRow is one alert, normalised; the fields after created_at belong
// to one type each. A secret scanning alert never carries the secret.
type AlertRow struct {
	Repo      string    `json:"repo"`
	Type      AlertType `json:"type"`
	Number    int       `json:"number"`
	Severity  Severity  `json:"severity"`
	Summary   string    `json:"summary"`
	URL       string    `json:"url"`
	CreatedAt string    `json:"created_at"`

	Package         string `json:"package,omitempty"`
	Ecosystem       string `json:"ecosystem,omitempty"`
	Manifest        string `json:"manifest,omitempty"`
	Scope           string `json:"scope,omitempty" jsonschema:"runtime or development: whether the dependency ships"`
	GHSA            string `json:"ghsa,omitempty"`
	CVE             string `json:"cve,omitempty"`
	VulnerableRange string `json:"vulnerable_range,omitempty"`
	PatchedVersion  string `json:"patched_version,omitempty"`

	Rule     string `json:"rule,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Location string `json:"location,omitempty" jsonschema:"path:line"`

	SecretType string `json:"secret_type,omitempty"`
	Validity   string `json:"validity,omitempty"`

	Archived bool `json:"archived,omitempty" jsonschema:"its repository is archived"`
}

// RepoAlerts counts one repository's alerts found by this call.
type RepoAlerts struct {
	Repo           string `json:"repo"`
	Critical       int    `json:"critical,omitempty"`
	High           int    `json:"high,omitempty"`
	Medium         int    `json:"medium,omitempty"`
	Low            int    `json:"low,omitempty"`
	Dependabot     int    `json:"dependabot,omitempty"`
	CodeScanning   int    `json:"code_scanning,omitempty"`
	SecretScanning int    `json:"secret_scanning,omitempty"`
	Archived       bool   `json:"archived,omitempty" jsonschema:"the repository is archived"`
}

// AlertsScanned says which repositories this call covered: Repos is how
// many the lists it read answer for (an organization's list answers for
// each of its repositories, archived ones left out unless asked for).
type AlertsScanned struct {
	Repos int `json:"repos"`
	Coverage
}

// TypeScopes says which path each type took: org (the organization's
// list), repo (each repository's), skipped (not asked for), or pending
// (the call stopped before GitHub said: its next_call goes on).
type TypeScopes struct {
	Dependabot     string `json:"dependabot,omitempty"`
	CodeScanning   string `json:"code_scanning,omitempty"`
	SecretScanning string `json:"secret_scanning,omitempty"`
}

// TypeCounts counts repositories per type: in disabled, those where the
// type is off or not readable with this credential (repo path only).
type TypeCounts struct {
	Dependabot     int `json:"dependabot,omitempty"`
	CodeScanning   int `json:"code_scanning,omitempty"`
	SecretScanning int `json:"secret_scanning,omitempty"`
}

// SeverityCounts counts alerts by severity. Zeros are kept: a type
// asked for always says how many it found, none included.
type SeverityCounts struct {
	Critical int `json:"critical"`
	High     int `json:"high"`
	Medium   int `json:"medium"`
	Low      int `json:"low"`
}

// AlertCounts tallies, per type asked for, the alerts the run has found
// so far (shown, or with summary_only omitted): the cursor carries the
// earlier calls' counts, so the last call of a run counts all of it. A
// type asked for appears even when no list of it was read (the
// call stopped first, or it is off), with zeros, and scope, disabled and
// failed say why; a type not asked for is absent (scope: skipped).
type AlertCounts struct {
	Dependabot     *SeverityCounts `json:"dependabot,omitempty"`
	CodeScanning   *SeverityCounts `json:"code_scanning,omitempty"`
	SecretScanning *SeverityCounts `json:"secret_scanning,omitempty"`
}

// FailedList is a list GitHub did not answer (reason: the error code): a
// repository's list of one type, which next_call reads again once more
// before it is given up, or, without a type, a repository named in repos
// that does not exist (repo_not_found).
type FailedList struct {
	Repo   string    `json:"repo"`
	Type   AlertType `json:"type,omitempty"`
	Reason string    `json:"reason"`
}

// AlertsOut is the report.
type AlertsOut struct {
	Alerts []AlertRow `json:"alerts,omitempty"`
	// AlertsOmitted is how many alerts summary_only left out of alerts
	// (those counts tallies); absent without summary_only.
	AlertsOmitted   *int          `json:"alerts_omitted,omitempty"`
	Counts          AlertCounts   `json:"counts"`
	ByRepo          []RepoAlerts  `json:"by_repo"`
	Scanned         AlertsScanned `json:"scanned"`
	Scope           TypeScopes    `json:"scope"`
	Disabled        TypeCounts    `json:"disabled,omitempty"`
	Failed          []FailedList  `json:"failed,omitempty"`
	APICalls        int           `json:"api_calls"`
	ConditionalHits int           `json:"conditional_hits"`
	Truncated       bool          `json:"truncated"`
	TruncatedReason Stop          `json:"truncated_reason,omitempty"`
	NextCall        *NextCall     `json:"next_call,omitempty"`
	// Withheld counts what was left out as outside the client's read
	// grant: the owner's repositories not scanned, and the alerts of
	// such repositories an organization's list held.
	Withheld int `json:"withheld,omitempty" jsonschema:"repositories and alerts this client may not read, left out"`
	// Tiers, with classify, are the repositories' structural tiers by
	// the operator's rules ([reports.classify]; by default release_flow,
	// release_workflow, plain) and the signals behind each: every file
	// the rules name (exists on the default branch) and every branch
	// (exists, differs, ahead_by, behind_by against the default branch).
	// Each repository costs one GitHub call (a GraphQL query, however
	// many files and branches the rules name), counted in api_calls and
	// bounded by max_api_calls; at most max_repos are classified per
	// call, after the alert lists, and next_call goes on with the rest.
	Tiers []RepoTier `json:"tiers,omitempty"`
}

// alertsTooFewCalls refuses a call whose budget was spent before any
// alert list answered (on the owner's listing, or the named repositories'
// lookups): its next_call would do the same again, for ever. The repair
// is the same call with a budget that reads a list: one more call, or,
// owner-wide, enough for the listing's most pages and a list.
func alertsTooFewCalls(asked AlertsIn, budget MaxAPICalls, listing bool) error {
	need := budget + 1
	if listing {
		need = max(need, repoPages+1)
	}
	more := asked
	more.MaxAPICalls = need
	msg := fmt.Sprintf("max_api_calls %d is too few to read an alert list after the repositories' lookup; %d is enough", budget, need)
	return contract.Errorf(contract.CodeInvalidField, "%s", msg).WithField("max_api_calls", msg).
		WithRepair(contract.Repair{NextStep: "call again with more calls", Tool: toolkit.NameReportSecurityAlerts, Arguments: more})
}

// ReportSecurityAlerts is github_report_security_alerts.
func (s *Tools) ReportSecurityAlerts() tooldef.Spec {
	return tooldef.Tool[AlertsIn, AlertsOut]{
		Name:        toolkit.NameReportSecurityAlerts,
		Toolset:     Toolset,
		Title:       "Security alerts",
		Description: "Open security alerts, worst first (absent: all). Secrets rank critical/high, never shown.",
		Mode:        tooldef.Read,
		Keep:        []string{"by_repo"},
		// tools/list holds 850 bytes for this tool: the output's fields
		// are in ghgate://schemas, and every result shows them.
		Unlisted: []string{"alerts", "alerts_omitted", "counts", "by_repo", "scanned", "scope", "disabled", "failed", "api_calls", "conditional_hits", "truncated_reason", "next_call", "tiers"},
		Task:     tooldef.TaskSupport{Mode: tooldef.TaskOptional},
		Run:      s.reportSecurityAlerts,
	}
}

func (s *Tools) reportSecurityAlerts(ctx context.Context, in AlertsIn) (AlertsOut, error) {
	asked := in
	in = in.withDefaults()
	reach := caller.ReachFrom(ctx)
	for _, r := range in.Repos {
		reach.Named(in.Owner, r)
	}
	restart := asked
	restart.Cursor = ""
	pos, err := openPosition[alertsPos](s, toolkit.NameReportSecurityAlerts, in.Cursor, in.Owner, in.filters(),
		"owner, types, repos, min_severity or include_archived", restart)
	if err != nil {
		return AlertsOut{}, err
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return AlertsOut{}, err
	}
	progress := tooldef.ProgressFrom(ctx)
	sc := &alertsScan{c: c, in: in, pos: pos, one: asked.Repo}
	sc.run = fanout.New(ctx, fanout.Options{Client: c, MaxCalls: int(in.MaxAPICalls), Concurrency: s.Concurrency, Shared: s.Fanout(),
		Progress: func(done, total int) { progress(sc.base+done, sc.base+total, "lists") }})
	if err := sc.report(); err != nil {
		return AlertsOut{}, err
	}
	if in.Classify && sc.run.Stopped() == "" {
		if err := sc.classify(s.Tiers.OrDefault()); err != nil {
			return AlertsOut{}, err
		}
	}
	if sc.run.Stopped() == fanout.MaxAPICalls && sc.listCalls == 0 && len(sc.tiered) == 0 {
		return AlertsOut{}, alertsTooFewCalls(asked, in.MaxAPICalls, len(in.Repos) == 0)
	}
	out := sc.result()
	if out.Truncated {
		next := asked
		next.Cursor = s.mintCursor(toolkit.NameReportSecurityAlerts, in.Owner, in.filters(), sc.pos)
		out.NextCall = &NextCall{Tool: toolkit.NameReportSecurityAlerts, Arguments: next}
	}
	return out, nil
}
