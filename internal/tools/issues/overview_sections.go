package issues

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/permissions"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// OverviewPartial names the sections an overview could not read; every
// other section is whole. It is a read's partial success: the
// partial_success error of a write names the steps not applied, this
// the sections not read, with the same codes and required_scopes.
type OverviewPartial struct {
	Unread []UnreadSection `json:"unread"`
}

// UnreadSection is one section left out of the overview, and why.
type UnreadSection struct {
	Section string        `json:"section" jsonschema:"counts, labels, milestones, issue_types, templates, issues or permission"`
	Code    contract.Code `json:"code" jsonschema:"the error code the read failed with (upstream_unavailable: call again)"`
	// RequiredScopes are set for insufficient_scope: what the credential
	// lacks, in the form of error details' required_scopes.
	RequiredScopes []string `json:"required_scopes,omitempty" jsonschema:"for insufficient_scope: a fine-grained permission (contents=read) or a classic scope (repo) that grants it"`
}

// The overview's sections, as partial_success names them.
const (
	secCounts     = "counts"
	secLabels     = "labels"
	secMilestones = "milestones"
	secTypes      = "issue_types"
	secTemplates  = "templates"
	secIssues     = "issues"
	secPermission = "permission"
)

// querySections are the sections overviewDoc reads, in the order
// partial_success lists them.
var querySections = []string{secCounts, secLabels, secMilestones, secTypes, secIssues, secPermission}

// sectionOf maps overviewDoc's fields under repository (their aliases) to
// the section each fills. A field not here (hasIssuesEnabled) fills none.
var sectionOf = map[string]string{
	"openIssues": secCounts, "openPRs": secCounts, "labels": secLabels, "milestones": secMilestones,
	"issueTypes": secTypes, "newest": secIssues, "mostCommented": secIssues, "viewerPermission": secPermission,
}

// sectionNeeds are what GitHub documents each section's read needs: the
// fine-grained permissions (for tokens and Apps) and the classic scope
// (repo, for a private repository). Open pull requests are counted too.
var sectionNeeds = map[string][]string{
	secCounts: {readOf("issues"), readOf("pull_requests"), "repo"}, secLabels: {readOf("issues"), "repo"},
	secMilestones: {readOf("issues"), "repo"}, secTypes: {readOf("issues"), "repo"}, secIssues: {readOf("issues"), "repo"},
	secPermission: {readOf(permissions.Metadata), "repo"}, secTemplates: {readOf("contents"), "repo"},
}

// readOf is a permission at read, as X-Accepted-GitHub-Permissions and
// required_scopes spell it ("contents=read").
func readOf(name string) string { return permissions.Set{name: permissions.Read}.String() }

// unreadSection describes section's failed read. GitHub's
// X-Accepted-GitHub-Permissions is taken as the need when it names the
// section's own permission; otherwise (no header, as GraphQL sends none,
// or the access layer's guess for an issue endpoint, which a contents
// read is not) the need is what GitHub documents for the section.
func unreadSection(section string, err error) UnreadSection {
	u := UnreadSection{Section: section, Code: contract.CodeInternal}
	e := toolkit.MapError(err)
	if e == nil {
		return u
	}
	u.Code = e.Code
	if e.Code != contract.CodeInsufficientScope {
		return u
	}
	u.RequiredScopes = sectionNeeds[section]
	if e.Details == nil {
		return u
	}
	for _, s := range e.Details.RequiredScopes {
		name, _, fine := strings.Cut(s, "=")
		if fine && slices.ContainsFunc(sectionNeeds[section], func(n string) bool { return strings.HasPrefix(n, name+"=") }) {
			u.RequiredScopes = e.Details.RequiredScopes
			break
		}
	}
	return u
}

// failedQuerySections are the sections an overviewDoc answer that came
// with errors left unread: those under the failing fields, when GraphQL
// said which and the repository resolved; all of them otherwise.
func failedQuerySections(err error, repoResolved bool) []string {
	var ge *github.Error
	if !repoResolved || !errors.As(err, &ge) || len(ge.GraphQL) == 0 {
		return querySections
	}
	failed := map[string]bool{}
	for _, g := range ge.GraphQL {
		var root, field string
		if len(g.Path) < 2 || json.Unmarshal(g.Path[0], &root) != nil || root != "repository" ||
			json.Unmarshal(g.Path[1], &field) != nil {
			return querySections
		}
		sec, ok := sectionOf[field]
		if !ok {
			// hasIssuesEnabled, or a field this document does not
			// select: nothing says which section it spoiled.
			return querySections
		}
		failed[sec] = true
	}
	return slices.DeleteFunc(slices.Clone(querySections), func(s string) bool { return !failed[s] })
}
