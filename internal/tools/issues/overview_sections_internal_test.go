package issues

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// The need named for an unread section is GitHub's header when it names
// the section's permission, and what GitHub documents for the section
// otherwise: the access layer's issues guess (sent when a classic token's
// answer named nothing) is not the templates' need.
func TestUnreadSectionNeeds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		section string
		err     error
		want    UnreadSection
	}{
		{secTemplates, &github.Error{Code: github.InsufficientScope, Status: 403, RequiredScopes: []string{"contents=read"}},
			UnreadSection{Section: secTemplates, Code: contract.CodeInsufficientScope, RequiredScopes: []string{"contents=read"}}},
		{secTemplates, &github.Error{Code: github.InsufficientScope, Status: 403, RequiredScopes: []string{"issues=read", "repo"}},
			UnreadSection{Section: secTemplates, Code: contract.CodeInsufficientScope, RequiredScopes: []string{"contents=read", "repo"}}},
		{secLabels, &github.Error{Code: github.InsufficientScope, Status: 200},
			UnreadSection{Section: secLabels, Code: contract.CodeInsufficientScope, RequiredScopes: []string{"issues=read", "repo"}}},
		{secTemplates, &github.Error{Code: github.UpstreamUnavailable, Status: 500, Temporary: true},
			UnreadSection{Section: secTemplates, Code: contract.CodeUpstreamUnavailable}},
	} {
		got := unreadSection(c.section, c.err)
		if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s, %v: unread section mismatch (-want +got):\n%s", c.section, c.err, diff)
		}
	}
}

// A GraphQL error under one of the query's fields spoils that field's
// section alone; an error elsewhere, or without the repository, all of
// them.
func TestFailedQuerySections(t *testing.T) {
	t.Parallel()
	path := func(p ...any) []json.RawMessage {
		var out []json.RawMessage
		for _, e := range p {
			b, _ := json.Marshal(e)
			out = append(out, b)
		}
		return out
	}
	gqlErr := func(paths ...[]json.RawMessage) error {
		e := &github.Error{Code: github.InsufficientScope, Status: 200}
		for _, p := range paths {
			e.GraphQL = append(e.GraphQL, github.GraphQLError{Type: "FORBIDDEN", Path: p})
		}
		return e
	}
	for _, c := range []struct {
		name     string
		err      error
		resolved bool
		want     []string
	}{
		{"one field", gqlErr(path("repository", "issueTypes")), true, []string{secTypes}},
		{"nested fields", gqlErr(path("repository", "mostCommented", "nodes", 0, "author"), path("repository", "openPRs")), true,
			[]string{secCounts, secIssues}},
		{"issues enabled unknown", gqlErr(path("repository", "hasIssuesEnabled")), true, querySections},
		{"no path", gqlErr(nil), true, querySections},
		{"repository unresolved", gqlErr(path("repository", "labels")), false, querySections},
		{"a 5xx", &github.Error{Code: github.UpstreamUnavailable, Status: 502}, false, querySections},
	} {
		if got := failedQuerySections(c.err, c.resolved); !slices.Equal(got, c.want) {
			t.Errorf("%s: failed sections = %q, want %q", c.name, got, c.want)
		}
	}
}
