package issues_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// A filter naming something the repository lacks answers with the
// missing name's own error and the closest names, never with a bare empty
// page that reads as "no issue has it".

// notFound makes a search that must be refused with code on field, and
// returns the envelope and its repair's arguments as a search's input.
func notFound(t *testing.T, env *servertest.Env, in issues.SearchIssuesIn, code contract.Code, field string) (contract.Error, issues.SearchIssuesIn) {
	t.Helper()
	e := servertest.Refused(t, env, toolkit.NameSearchIssues, in)
	if e.Code != code {
		t.Fatalf("%+v: code = %s, want %s (%s)", in, e.Code, code, e.Message)
	}
	if e.Details == nil || e.Details.Field != field {
		t.Fatalf("%+v: details = %+v, want field %s", in, e.Details, field)
	}
	if e.Repair == nil {
		t.Fatalf("%+v: repair = nil, want one", in)
	}
	if e.Repair.NextStep == "" {
		t.Fatalf("%+v: repair.next_step is empty, want one", in)
	}
	var fixed issues.SearchIssuesIn
	if e.Repair.Tool == toolkit.NameSearchIssues && e.Repair.Arguments != nil {
		b, err := json.Marshal(e.Repair.Arguments)
		if err != nil {
			t.Fatalf("marshal repair arguments: %v", err)
		}
		if err := json.Unmarshal(b, &fixed); err != nil {
			t.Fatalf("repair arguments %s: %v", b, err)
		}
	}
	return e, fixed
}

// closest returns details.value's names.
func closest(t *testing.T, e contract.Error) []string {
	t.Helper()
	var names []string
	b, _ := json.Marshal(e.Details.Value)
	if err := json.Unmarshal(b, &names); err != nil {
		t.Fatalf("details.value %s is not a list of names: %v", b, err)
	}
	return names
}

// wantClosestFirst checks that details.value lists first as the closest
// name.
func wantClosestFirst(t *testing.T, what string, e contract.Error, first string) {
	t.Helper()
	got := closest(t, e)
	if len(got) == 0 {
		t.Errorf("%s: details.value is empty, want %q first", what, first)
	} else if got[0] != first {
		t.Errorf("%s: details.value = %q, want %q first", what, got, first)
	}
}

// wantEmptyWithNote checks a search answered an empty page with a note
// saying note.
func wantEmptyWithNote(t *testing.T, what string, out issues.SearchIssuesOut, note string) {
	t.Helper()
	if len(out.Items) != 0 {
		t.Errorf("%s: %d rows, want none", what, len(out.Items))
	}
	if !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		t.Errorf("%s: notes = %q, want one saying %q", what, out.Notes, note)
	}
}

// wantRows calls a repair's search and fails unless it finds rows.
func wantRows(t *testing.T, env *servertest.Env, in issues.SearchIssuesIn) issues.SearchIssuesOut {
	t.Helper()
	out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
	if len(out.Items) == 0 {
		t.Fatalf("the repaired search %+v finds 0 rows, want some", in)
	}
	return out
}

// The reported case: status: triaged on acme/widgets, whose label is
// status: triage. Listed (the label alone) or searched (with text), the
// answer is label_not_found naming status: triage, and the repair is the
// same search with it, which finds issues.
func TestSearchByMissingLabelNamesTheClosest(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, in := range []issues.SearchIssuesIn{
		{Owner: "acme", Repo: "widgets", Labels: []string{"status: triaged"}},
		{Owner: "acme", Repo: "widgets", Query: `label:"status: triaged"`},
		{Owner: "acme", Repo: "widgets", Query: `export label:"status: triaged"`, State: "all"},
	} {
		field := "labels"
		if in.Query != "" {
			field = "query"
		}
		e, fixed := notFound(t, env, in, contract.CodeLabelNotFound, field)
		wantClosestFirst(t, fmt.Sprintf("%+v", in), e, "status: triage")
		for _, want := range []string{`"status: triaged"`, "acme/widgets"} {
			if !strings.Contains(e.Message, want) {
				t.Errorf("message = %q, want one naming %s", e.Message, want)
			}
		}
		want := in
		want.PageSize = toolkit.DefaultPageSize
		if in.Query == "" {
			want.Labels = []string{"status: triage"}
		} else {
			want.Query = strings.Replace(in.Query, `"status: triaged"`, `"status: triage"`, 1)
		}
		if !jsonEqual(fixed, want) {
			t.Errorf("repair arguments = %+v, want %+v", fixed, want)
		}
		wantRows(t, env, fixed)
	}
}

// A label renamed a moment ago (by someone else, outside ghgate): its old
// name is refused with the new one first among the closest, ahead of the
// other area: labels, and the repair searches with the new name.
func TestSearchByRenamedLabelNamesItsNewName(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	before := wantRows(t, env, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"area: ui"}, State: "all"})
	res := env.Emu.Do(t, "PATCH", "/repos/acme/widgets/labels/"+url.PathEscape("area: ui"), emulator.DemoTokenBob,
		map[string]string{"new_name": "area: web-ui"})
	if res.Status != 200 {
		t.Fatalf("rename: status %d, want 200", res.Status)
	}
	env.Upstream()
	in := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"area: ui"}, State: "all"}
	e, fixed := notFound(t, env, in, contract.CodeLabelNotFound, "labels")
	wantClosestFirst(t, "renamed label", e, "area: web-ui")
	if got := closest(t, e); len(got) < 2 {
		t.Errorf("details.value = %q, want two or more names", got)
	} else if !slices.Contains(got, "area: api") {
		t.Errorf("details.value = %q, want it to include area: api", got)
	}
	// Checking cost one GraphQL read after the empty listing, no more.
	wantUpstream(t, env, "GET /repos/acme/widgets/issues", "POST /api/graphql")
	if !slices.Equal(fixed.Labels, []string{"area: web-ui"}) {
		t.Fatalf("repair labels = %q, want the new name [\"area: web-ui\"]", fixed.Labels)
	}
	after := wantRows(t, env, fixed)
	if len(after.Items) != len(before.Items) {
		t.Errorf("the new name finds %d issues, want %d as the old one found", len(after.Items), len(before.Items))
	}
}

// A milestone: qualifier naming a title the repository lacks (v2.0 for
// v2.0.0; searched) and a type: naming an issue type its owner does not
// offer (Bugs for Bug; listed) are refused with the closest first, and the
// repair's query names it instead.
func TestSearchByMissingMilestoneOrIssueType(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, c := range []struct {
		query, closest, fixed string
		code                  contract.Code
		source                issues.Source
	}{
		{"milestone:v2.0", "v2.0.0", "milestone:v2.0.0", contract.CodeMilestoneNotFound, issues.SourceSearch},
		{"type:Bugs", "Bug", "type:Bug", contract.CodeIssueTypeNotFound, issues.SourceList},
	} {
		in := issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: c.query, State: "all"}
		e, fixed := notFound(t, env, in, c.code, "query")
		wantClosestFirst(t, c.query, e, c.closest)
		if fixed.Query != c.fixed {
			t.Errorf("%s: repair query = %q, want %q", c.query, fixed.Query, c.fixed)
		}
		if out := wantRows(t, env, fixed); out.Source != c.source {
			t.Errorf("%s: the repaired search's source = %s, want %s", c.query, out.Source, c.source)
		}
	}
}

// An assignee that is no GitHub user is assignee_not_found with the
// repository's assignable logins closest to it; one who is a user but
// cannot be assigned here gets an empty page saying exactly that.
func TestSearchByAssigneeSaysWhetherTheUserExists(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	e, fixed := notFound(t, env, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Assignee: "alcie"},
		contract.CodeAssigneeNotFound, "assignee")
	wantClosestFirst(t, "assignee alcie", e, "alice")
	if !strings.Contains(e.Message, "not a GitHub user") {
		t.Errorf("message = %q, want one saying the login is not a GitHub user", e.Message)
	}
	if fixed.Assignee != "alice" {
		t.Errorf("repair assignee = %q, want alice", fixed.Assignee)
	}
	wantRows(t, env, fixed)

	out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues,
		issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Assignee: "dave", State: "all"})
	if len(out.Items) != 0 {
		t.Fatalf("dave has %d issues assigned in acme/widgets, want none", len(out.Items))
	}
	if want := "dave is a GitHub user who cannot be assigned in acme/widgets"; !slices.ContainsFunc(out.Notes, func(n string) bool {
		return strings.Contains(n, want)
	}) {
		t.Errorf("notes = %q, want one saying %q", out.Notes, want)
	}
}

// An author that is no GitHub user is refused, listed or searched (where
// GitHub's own search refuses the login with a 422 that names none); an
// author who is a user with no issue here gets an empty page saying so.
func TestSearchByAuthorSaysWhetherTheUserExists(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, in := range []issues.SearchIssuesIn{
		{Owner: "acme", Repo: "widgets", Author: "nobody-here"},
		{Owner: "acme", Repo: "widgets", Author: "nobody-here", Query: "export"},
		{Owner: "acme", Author: "nobody-here"},
		{Author: "nobody-here"},
	} {
		e, _ := notFound(t, env, in, contract.CodeNotFound, "author")
		if want := "author nobody-here is not a GitHub user"; !strings.Contains(e.Message, want) {
			t.Errorf("%+v: message = %q, want one saying %q", in, e.Message, want)
		}
	}
	e, _ := notFound(t, env, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Author: "acme"}, contract.CodeNotFound, "author")
	if !strings.Contains(e.Message, "organization") {
		t.Errorf("message = %q, want one saying acme is an organization", e.Message)
	}

	withState(env, func(s *emulator.State) {
		s.AddAccount("erin", "Erin Evans", false, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC))
	})
	for _, in := range []issues.SearchIssuesIn{
		{Owner: "acme", Repo: "widgets", Author: "erin", State: "all"},
		{Owner: "acme", Author: "erin", State: "all"},
	} {
		out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
		wantEmptyWithNote(t, fmt.Sprintf("%+v", in), out, "erin is a GitHub user")
	}
}

// A name that exists but that no issue matches answers an empty page, no
// error: a note says the name was found, in the repository or in which
// of the owner's. The common case, a page with rows, reads nothing more.
func TestSearchByExistingNameWithoutMatchesIsEmpty(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	if res := env.Emu.Do(t, "POST", "/repos/acme/widgets/labels", emulator.DemoTokenAlice,
		map[string]string{"name": "needs: design", "color": "ededed"}); res.Status != 201 {
		t.Fatalf("create label: status %d, want 201", res.Status)
	}
	env.Upstream()
	wantRows(t, env, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"bug"}})
	wantUpstream(t, env, "GET /repos/acme/widgets/issues")

	for _, c := range []struct {
		in   issues.SearchIssuesIn
		note string
	}{
		{issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"needs: design"}, State: "all"},
			`label "needs: design" exists in acme/widgets`},
		{issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"needs: design"}, Query: "milestone:v2.0.0", State: "all"},
			`label "needs: design", milestone "v2.0.0" exist in acme/widgets`},
		{issues.SearchIssuesIn{Owner: "acme", Labels: []string{"needs: design"}, State: "all"},
			`label "needs: design" exists in acme/widgets (1 of the`},
	} {
		res := env.Call(t, toolkit.NameSearchIssues, c.in)
		if res.IsError {
			t.Errorf("%+v: got an error, want an empty page: %s", c.in, res.JSON)
			continue
		}
		var out issues.SearchIssuesOut
		res.Decode(t, &out)
		wantEmptyWithNote(t, fmt.Sprintf("%+v", c.in), out, c.note)
		if out.HasMore {
			t.Errorf("%+v: has_more = true, want false on an empty page", c.in)
		}
	}
}

// Across an owner's repositories, a label none of them has is refused
// with the closest names any of them has; without owner, no repository's
// names are read and the empty page says the label was not checked.
func TestSearchAcrossRepositoriesByMissingLabel(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	e, fixed := notFound(t, env, issues.SearchIssuesIn{Owner: "acme", Labels: []string{"status: triaged"}}, contract.CodeLabelNotFound, "labels")
	if !strings.Contains(e.Message, "no repository of acme") {
		t.Errorf("message = %q, want one saying %q", e.Message, "no repository of acme")
	}
	wantClosestFirst(t, "across acme", e, "status: triage")
	wantRows(t, env, fixed)

	out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues,
		issues.SearchIssuesIn{Labels: []string{"status: triaged"}, Author: "dave"})
	if len(out.Items) != 0 {
		t.Errorf("unscoped: %d rows, want none", len(out.Items))
	}
	for _, want := range []string{`label "status: triaged" was not checked`, "dave is a GitHub user"} {
		if !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, want) }) {
			t.Errorf("unscoped: notes = %q, want one saying %q", out.Notes, want)
		}
	}
}

// When the names cannot be read (GraphQL fails), the empty page is still
// the answer, and it says the names went unchecked.
func TestSearchNamesUncheckedStillAnswerThePage(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{MaxReadRetries: -1})
	addFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/api/graphql"})
	out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues,
		issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"status: triaged"}})
	wantEmptyWithNote(t, "names unchecked", out, "could not be checked")
}

// An owner with more repositories than are read (the 100 most recently
// pushed): a label none of those has may be in another, so the empty page
// says how far the check went instead of refusing; a login is checked
// all the same.
func TestSearchOfALargeOwnerSaysHowFarItLooked(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{FleetRepos: 105}})
	env.Upstream()
	in := issues.SearchIssuesIn{Owner: emulator.FleetOrg, Labels: []string{"status: triaged"}}
	out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
	want := `label "status: triaged" is in none of the 100 most recently pushed of fleet's repositories read`
	wantEmptyWithNote(t, "fleet", out, want)
	wantUpstream(t, env, "GET /search/issues", "POST /api/graphql")

	in.Author = "nobody-here"
	notFound(t, env, in, contract.CodeNotFound, "author")
}

// A client whose grant reads acme/widgets only learns nothing of acme's
// other repositories from the check: a label only acme/gadgets has is, to
// it, a label none of the repositories it may read has.
func TestSearchNamesStayWithinTheReadGrant(t *testing.T) {
	t.Parallel()
	widgetsOnly := caller.Identity{ID: "http:widgets-only", Readable: func(owner, repo string) bool { return owner == "acme" && repo == "widgets" }}
	env := servertest.Start(t, servertest.Options{Caller: &widgetsOnly})
	if res := env.Emu.Do(t, "POST", "/repos/acme/gadgets/labels", emulator.DemoTokenAlice,
		map[string]string{"name": "release-blocker", "color": "b60205"}); res.Status != 201 {
		t.Fatalf("create label: status %d, want 201", res.Status)
	}
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Labels: []string{"release-blocker"}})
	if strings.Contains(string(res.JSON), "gadgets") {
		t.Errorf("answer = %s, want no mention of acme/gadgets, which the client may not read", res.JSON)
	}
	e := res.Envelope(t)
	if e.Code != contract.CodeLabelNotFound {
		t.Errorf("code = %s, want %s", e.Code, contract.CodeLabelNotFound)
	}
	if !strings.Contains(e.Message, "this client may read") {
		t.Errorf("message = %q, want one saying %q", e.Message, "this client may read")
	}
}
