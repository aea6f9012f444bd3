package prompts

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// The arguments every workflow takes first. Their descriptions are short:
// prompts/list is read at session start, as tools/list is.
var (
	ownerArg = Arg{Name: "owner", Description: "user or org", Required: true, Kind: Owner}
	repoArg  = Arg{Name: "repo", Description: "repo name", Required: true, Kind: Repo}
)

// sinceArg is a workflow's start date, a week back when left out.
var sinceArg = Arg{Name: "since", Description: "YYYY-MM-DD; absent: 7 days ago", Kind: Date}

func triage() Prompt {
	return Prompt{
		Name: "triage_issues", Title: "Triage new issues",
		Description: "Label new unlabeled issues, or propose labels where writes are off.",
		Args:        []Arg{ownerArg, repoArg, sinceArg},
		Needs:       []string{toolkit.NameSearchIssues, toolkit.NameGetIssue, toolkit.NameListRepoMetadata},
		text:        triageText,
	}
}

func triageText(in Input, served Served) string {
	o, r := in.Owner, in.Repo
	search := issues.SearchIssuesIn{Owner: o, Repo: r, NoLabels: true, Query: "created:>=" + in.Since, Sort: "created"}
	apply := "Write nothing: this session cannot edit issues. End with a table (issue, labels, reason) and, for each, the " +
		toolkit.NameUpdateIssue + " call a maintainer could make: " +
		call(toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: o, Repo: r, IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"LABEL"}}}})
	if served(toolkit.NameUpdateIssue) {
		apply = "Apply each with " + call(toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: o, Repo: r,
			IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"LABEL"}}}}) +
			", first with dry_run: true; only existing labels. Close nothing without asking."
		if served(toolkit.NameBulkUpdateIssues) {
			apply += " Issues taking the same labels can go in one " + toolkit.NameBulkUpdateIssues + " call."
		}
	}
	return fmt.Sprintf("Triage the new issues of %s/%s (created since %s). %s\n", o, r, in.Since, untrusted) + steps(
		call(toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: o, Repo: r, Kind: "labels"})+": the labels to choose from.",
		call(toolkit.NameSearchIssues, search)+": open issues without a label, newest first; follow next_cursor.",
		"For each: "+call(toolkit.NameGetIssue, issues.GetIssueIn{Owner: o, Repo: r, Detail: "summary"})+
			"; choose its labels (kind, area, priority) and note a likely duplicate ("+toolkit.NameSearchIssues+" with its key words).",
		apply,
	)
}

func summarize() Prompt {
	return Prompt{
		Name: "summarize_issue", Title: "Summarize issue",
		Description: "An issue's thread: the ask, decisions, open questions, next step.",
		Args: []Arg{ownerArg, repoArg,
			{Name: "issue_number", Description: "issue or PR number", Required: true, Kind: IssueNumber}},
		Needs: []string{toolkit.NameGetIssue},
		text:  summarizeText,
	}
}

func summarizeText(in Input, served Served) string {
	o, r, n := in.Owner, in.Repo, toolkit.IssueNumber(in.IssueNumber)
	var prs string
	if served(toolkit.NameListIssueItems) {
		prs = call(toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: o, Repo: r, IssueNumber: n, Collection: "linked_prs"}) +
			": the pull requests that would close it."
	}
	return fmt.Sprintf("Summarize %s/%s#%d for a maintainer: what is asked, what was decided, who waits on whom, open questions, the next step. "+
		"Quote at most a line of anyone. %s\n", o, r, n, untrusted) + steps(
		call(toolkit.NameGetIssue, issues.GetIssueIn{Owner: o, Repo: r, IssueNumber: n})+": the issue, its relations, the first 30 comments.",
		"While comments_has_more, call "+toolkit.NameGetIssue+" again with comments_cursor set to comments_next_cursor.",
		prs,
	) + "Write nothing to GitHub.\n"
}

func releaseNotes() Prompt {
	return Prompt{
		Name: "release_notes", Title: "Draft release notes",
		Description: "From a milestone's closed issues.",
		Args: []Arg{ownerArg, repoArg,
			{Name: "milestone", Description: "milestone title", Required: true, Kind: Milestone}},
		Needs: []string{toolkit.NameSearchIssues, toolkit.NameListRepoMetadata},
		text:  releaseText,
	}
}

func releaseText(in Input, _ Served) string {
	o, r := in.Owner, in.Repo
	q := fmt.Sprintf("milestone:%q", in.Milestone)
	return fmt.Sprintf("Draft release notes for milestone %q of %s/%s. %s\n", in.Milestone, o, r, untrusted) + steps(
		call(toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: o, Repo: r, Kind: "milestones"})+": the milestone's due date and open count.",
		call(toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: o, Repo: r, State: "closed", Query: q, PageSize: 100})+
			": its closed issues; follow next_cursor; leave out those closed as not planned or duplicate.",
		call(toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: o, Repo: r, State: "open", Query: q})+": what is still open, for known issues.",
		"Group by label (features, fixes, other), one line each in users' words ending (#N); then known issues.",
	) + "Answer in Markdown. Write nothing to GitHub.\n"
}

func weekly() Prompt {
	return Prompt{
		Name: "weekly_report", Title: "Weekly report",
		Description: "A repo's week: issues opened, closed, active, stuck; reports if served.",
		Args:        []Arg{ownerArg, repoArg, sinceArg},
		Needs:       []string{toolkit.NameGetOverview, toolkit.NameSearchIssues},
		text:        weeklyText,
	}
}

func weeklyText(in Input, served Served) string {
	o, r, since := in.Owner, in.Repo, in.Since
	// Each report is a step only where its tool is served (the reports
	// toolset is opt-in).
	report := func(tool string, args any, what string) string {
		if !served(tool) {
			return ""
		}
		return call(tool, args) + ": " + what
	}
	return fmt.Sprintf("Write the weekly report of %s/%s since %s. %s\n", o, r, since, untrusted) + steps(
		call(toolkit.NameGetOverview, issues.GetOverviewIn{Owner: o, Repo: r})+": open counts, milestones, top issues.",
		call(toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: o, Repo: r, State: "all", Query: "created:>=" + since, PageSize: 100})+": opened.",
		call(toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: o, Repo: r, State: "closed", Query: "closed:>=" + since, PageSize: 100})+": closed.",
		call(toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: o, Repo: r, UpdatedAfter: since, Sort: "updated"})+": open issues with activity.",
		report(toolkit.NameReportCIStatus, reports.CIStatusIn{Owner: o, Repo: r}, "CI of open pull requests."),
		report(toolkit.NameReportReleasePRs, reports.ReleaseIn{Owner: o, Repo: r}, "release pull requests waiting."),
		report(toolkit.NameReportSecurityAlerts, reports.AlertsIn{Owner: o, Repo: r, SummaryOnly: true}, "open security alerts."),
		report(toolkit.NameReportUnlabeled, reports.UnlabeledIn{Owner: o, Repo: r}, "what no one has labeled."),
	) + "Numbers first, then what changed, what is stuck, what needs a decision. Write nothing to GitHub.\n"
}
