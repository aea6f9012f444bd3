package issues_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func TestListRepoMetadataLabelsPageWithSignedCursors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var want []string
	withState(env, func(*emulator.State) {
		for _, l := range widgets(env).Labels {
			want = append(want, l.Name)
		}
	})
	args := issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "labels", PageSize: 5}
	var got []string
	var firstCursor string
	env.Upstream()
	for page := 1; page <= 10; page++ {
		var out issues.ListRepoMetadataOut
		env.Call(t, toolkit.NameListRepoMetadata, args).Decode(t, &out)
		if out.Kind != "labels" {
			t.Fatalf("page %d: kind = %q, want labels", page, out.Kind)
		}
		if len(out.Items) == 0 || len(out.Items) > 5 {
			t.Fatalf("page %d: %d items, want 1..5: %+v", page, len(out.Items), out.Items)
		}
		for _, it := range out.Items {
			if it.Name == "" {
				t.Fatalf("label row name is empty, want one: %+v", it)
			}
			if it.Color == "" {
				t.Fatalf("label row %q: color is empty, want one", it.Name)
			}
			got = append(got, it.Name)
		}
		wantUpstream(t, env, "GET /repos/acme/widgets/labels")
		if !out.HasMore {
			break
		}
		if firstCursor == "" {
			firstCursor = out.NextCursor
		}
		args.Cursor = out.NextCursor
	}
	if len(want) != 17 {
		t.Fatalf("seed labels = %d, want 17", len(want))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("labels over pages = %q (%d), want %q (%d)", got, len(got), want, len(want))
	}

	// The cursor is bound to the kind and the repository.
	for _, other := range []issues.ListRepoMetadataIn{
		{Owner: "acme", Repo: "widgets", Kind: "milestones", PageSize: 5, Cursor: firstCursor},
		{Owner: "acme", Repo: "gadgets", Kind: "labels", PageSize: 5, Cursor: firstCursor},
		{Owner: "acme", Repo: "widgets", Kind: "labels", PageSize: 6, Cursor: firstCursor},
	} {
		t.Run(fmt.Sprintf("%s %s size %d", other.Repo, other.Kind, other.PageSize), func(t *testing.T) {
			e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, other), false)
			if e.Code != contract.CodeCursorInvalid {
				t.Errorf("code = %q, want %q", e.Code, contract.CodeCursorInvalid)
			}
			if e.Repair == nil {
				t.Fatalf("repair = nil, want %s: %+v", toolkit.NameListRepoMetadata, e)
			}
			if e.Repair.Tool != toolkit.NameListRepoMetadata {
				t.Fatalf("repair.tool = %q, want %q", e.Repair.Tool, toolkit.NameListRepoMetadata)
			}
			// The restart repair is callable as given.
			if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
				t.Fatalf("restart repair: got an error, want success: %s", res.JSON)
			}
		})
	}
}

func TestListRepoMetadataKinds(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenCarol})
	list := func(kind string) issues.ListRepoMetadataOut {
		t.Helper()
		var out issues.ListRepoMetadataOut
		res := env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: issues.MetadataKind(kind)})
		if res.IsError {
			t.Fatalf("%s: got an error, want a list: %s", kind, res.JSON)
		}
		res.Decode(t, &out)
		if out.HasMore {
			t.Fatalf("%s: has_more = true, want the whole list on one page", kind)
		}
		if out.Kind != kind {
			t.Fatalf("kind = %q, want %q", out.Kind, kind)
		}
		return out
	}
	env.Upstream()

	ms := list("milestones")
	wantUpstream(t, env, "GET /repos/acme/widgets/milestones")
	states := map[string]bool{}
	for _, m := range ms.Items {
		if m.Number == 0 {
			t.Fatalf("milestone row number = 0, want one: %+v", m)
		}
		if m.Title == "" {
			t.Fatalf("milestone #%d: title is empty, want one", m.Number)
		}
		if m.OpenIssues == nil {
			t.Fatalf("milestone #%d: open_issues = nil, want a count", m.Number)
		}
		if m.ClosedIssues == nil {
			t.Fatalf("milestone #%d: closed_issues = nil, want a count", m.Number)
		}
		states[m.State] = true
	}
	for _, st := range []string{"open", "closed"} {
		if !states[st] {
			t.Fatalf("milestones = %+v, want one %s", ms.Items, st)
		}
	}

	as := list("assignees")
	wantUpstream(t, env, "GET /repos/acme/widgets/assignees")
	var logins []string
	for _, a := range as.Items {
		logins = append(logins, a.Login)
	}
	for _, want := range []string{"alice", "bob"} {
		if !slices.Contains(logins, want) {
			t.Fatalf("assignees = %q, want them to include %q", logins, want)
		}
	}

	types := list("issue_types")
	wantUpstream(t, env, "GET /repos/acme/widgets/issue-types")
	var names []string
	for _, it := range types.Items {
		names = append(names, it.Name)
	}
	for _, want := range []string{"Bug", "Task"} {
		if !slices.Contains(names, want) {
			t.Fatalf("issue types = %q, want them to include %q", names, want)
		}
	}

	tpl := list("templates")
	wantUpstream(t, env,
		"GET /repos/acme/widgets/contents/.github/ISSUE_TEMPLATE",
		"GET /repos/acme/widgets/contents/.github/ISSUE_TEMPLATE/bug_report.yml",
		"GET /repos/acme/widgets/contents/.github/ISSUE_TEMPLATE/feature_request.md")
	byFile := map[string]issues.RepoMetaItem{}
	for _, it := range tpl.Items {
		byFile[it.File] = it
	}
	if _, ok := byFile["config.yml"]; ok {
		t.Fatalf("templates = %+v, want no config.yml (it is not a template)", tpl.Items)
	}
	if len(byFile) != 2 {
		t.Fatalf("templates = %+v (%d), want 2", tpl.Items, len(byFile))
	}
	bug, feat := byFile["bug_report.yml"], byFile["feature_request.md"]
	if bug.Name != "Bug report" {
		t.Errorf("issue form: name = %q, want %q", bug.Name, "Bug report")
	}
	if bug.Title != "[Bug]: " {
		t.Errorf("issue form: title = %q, want %q", bug.Title, "[Bug]: ")
	}
	wantStrings(t, "issue form: labels", bug.Labels, []string{"bug", "status: triage"})
	if bug.Description == "" {
		t.Errorf("issue form: description is empty, want one")
	}
	if feat.Name != "Feature request" {
		t.Errorf("Markdown template: name = %q, want %q", feat.Name, "Feature request")
	}
	if feat.Description != "Suggest an idea for widgets" {
		t.Errorf("Markdown template: description = %q, want %q", feat.Description, "Suggest an idea for widgets")
	}
	wantStrings(t, "Markdown template: labels", feat.Labels, []string{"enhancement"})
}

func TestListRepoMetadataTemplateFormats(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	withState(env, func(*emulator.State) {
		files := widgets(env).Files
		// Comma-separated labels, quoted YAML, a hidden character in the name.
		files[".github/ISSUE_TEMPLATE/chore.md"] = "---\nname: \"Chore\u200b\"\nabout: 'Housekeeping: a<b && c'\nlabels: \"chore, status: triage\"\n---\nBody\n"
		// No front matter: listed by file name only.
		files[".github/ISSUE_TEMPLATE/plain.md"] = "Just text, no front matter.\n"
		// Broken YAML: listed by file name only, not a failure.
		files[".github/ISSUE_TEMPLATE/broken.yml"] = "name: [unclosed\n"
		// Not a template.
		files[".github/ISSUE_TEMPLATE/notes.txt"] = "ignored"
	})
	var out issues.ListRepoMetadataOut
	env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "templates"}).Decode(t, &out)
	byFile := map[string]issues.RepoMetaItem{}
	for _, it := range out.Items {
		byFile[it.File] = it
	}
	chore := byFile["chore.md"]
	if chore.Name != "Chore" {
		t.Errorf("chore template: name = %q, want %q", chore.Name, "Chore")
	}
	if chore.Description != "Housekeeping: a<b && c" {
		t.Errorf("chore template: description = %q, want %q", chore.Description, "Housekeeping: a<b && c")
	}
	wantStrings(t, "chore template: labels", chore.Labels, []string{"chore", "status: triage"})
	for _, f := range []string{"plain.md", "broken.yml"} {
		it, ok := byFile[f]
		if !ok {
			t.Fatalf("%s: not listed, want it listed by file name", f)
		}
		if it.Name != "" {
			t.Fatalf("%s: name = %q, want none", f, it.Name)
		}
	}
	if _, ok := byFile["notes.txt"]; ok {
		t.Fatalf("templates = %+v, want no notes.txt", out.Items)
	}
	if len(out.Items) != 5 {
		t.Fatalf("templates = %+v (%d), want 5", out.Items, len(out.Items))
	}
}

func TestListRepoMetadataNoTemplatesAndErrors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	// A repository without templates: an empty list, not an error.
	res := env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "alice", Repo: "notes", Kind: "templates"})
	if res.IsError {
		t.Fatalf("no templates: got an error, want an empty list: %s", res.JSON)
	}
	if strings.Contains(string(res.JSON), "items") {
		t.Fatalf("no templates = %s, want no items", res.JSON)
	}
	// Forced error: a repository that is not there.
	for _, kind := range []string{"labels", "templates"} {
		t.Run(kind, func(t *testing.T) {
			e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "nothing-here", Kind: issues.MetadataKind(kind)}), false)
			if e.Code != contract.CodeRepoNotFound {
				t.Errorf("%s of a missing repository: code = %q, want %q", kind, e.Code, contract.CodeRepoNotFound)
			}
			if !strings.Contains(e.Message, "acme/nothing-here") {
				t.Errorf("%s of a missing repository: message = %q, want one naming acme/nothing-here", kind, e.Message)
			}
		})
	}
	// dave cannot see the private repository: the same not_found.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	e := wireEnvelope(t, dave.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "gadgets", Kind: "labels"}), false)
	if e.Code != contract.CodeRepoNotFound {
		t.Fatalf("private repository: code = %q, want %q: %+v", e.Code, contract.CodeRepoNotFound, e)
	}
	// An unknown kind is refused by the schema with the accepted set.
	e = wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, `{"owner":"acme","repo":"widgets","kind":"colors"}`), false)
	if e.Code != contract.CodeInvalidField {
		t.Errorf("unknown kind: code = %q, want %q", e.Code, contract.CodeInvalidField)
	}
	if e.Details == nil || e.Details.Field != "kind" {
		t.Errorf("unknown kind: details = %+v, want field kind", e.Details)
	}
	// A server error on a read: temporary, with no settlement.
	addFault(t, env, emulator.Fault{Method: "GET", Path: "/repos/acme/widgets/milestones", Kind: emulator.FaultStatus, Status: 502})
	e = wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "milestones"}), false)
	if e.Code != contract.CodeUpstreamUnavailable {
		t.Errorf("502: code = %q, want %q", e.Code, contract.CodeUpstreamUnavailable)
	}
	if !e.Temporary {
		t.Errorf("502: temporary = false, want true")
	}
	if e.Repair == nil {
		t.Fatalf("502: repair = nil, want one: %+v", e)
	}
	if !strings.Contains(e.Repair.NextStep, "same call again") {
		t.Errorf("502: repair.next_step = %q, want one saying %q", e.Repair.NextStep, "same call again")
	}
}

// Issue types and templates come from GitHub whole; page_size still pages
// them, with a cursor to the rest.
func TestWholeListsArePagedToo(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, kind := range []string{"issue_types", "templates"} {
		t.Run(kind, func(t *testing.T) {
			args := issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: issues.MetadataKind(kind), PageSize: 1}
			var names []string
			for page := 0; page < 10; page++ {
				var out issues.ListRepoMetadataOut
				res := env.Call(t, toolkit.NameListRepoMetadata, args)
				if res.IsError {
					t.Fatalf("%s page %d: got an error, want a page: %s", kind, page, res.JSON)
				}
				res.Decode(t, &out)
				if len(out.Items) != 1 {
					t.Fatalf("%s page %d: %d items, want 1 for page_size 1", kind, page, len(out.Items))
				}
				names = append(names, out.Items[0].Name)
				if !out.HasMore {
					break
				}
				args.Cursor = out.NextCursor
			}
			if len(names) < 2 {
				t.Fatalf("%s: %q (%d), want the seed's two or more, one per page", kind, names, len(names))
			}
		})
	}
}
