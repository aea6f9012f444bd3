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
		if out.Kind != "labels" || len(out.Items) == 0 || len(out.Items) > 5 {
			t.Fatalf("page %d: %+v", page, out)
		}
		for _, it := range out.Items {
			if it.Name == "" || it.Color == "" {
				t.Fatalf("label row without name or color: %+v", it)
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
	if len(want) != 17 || !slices.Equal(got, want) {
		t.Fatalf("labels over pages: got %d %q, want %d", len(got), got, len(want))
	}

	// The cursor is bound to the kind and the repository.
	for _, other := range []issues.ListRepoMetadataIn{
		{Owner: "acme", Repo: "widgets", Kind: "milestones", PageSize: 5, Cursor: firstCursor},
		{Owner: "acme", Repo: "gadgets", Kind: "labels", PageSize: 5, Cursor: firstCursor},
		{Owner: "acme", Repo: "widgets", Kind: "labels", PageSize: 6, Cursor: firstCursor},
	} {
		t.Run(fmt.Sprintf("%s %s size %d", other.Repo, other.Kind, other.PageSize), func(t *testing.T) {
			e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, other), false)
			if e.Code != contract.CodeCursorInvalid || e.Repair == nil || e.Repair.Tool != toolkit.NameListRepoMetadata {
				t.Fatalf("cursor reused for %+v: %+v", other, e)
			}
			// The restart repair is callable as given.
			if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
				t.Fatalf("restart repair failed: %s", res.JSON)
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
			t.Fatalf("%s: %s", kind, res.JSON)
		}
		res.Decode(t, &out)
		if out.HasMore || out.Kind != kind {
			t.Fatalf("%s: %+v", kind, out)
		}
		return out
	}
	env.Upstream()

	ms := list("milestones")
	wantUpstream(t, env, "GET /repos/acme/widgets/milestones")
	states := map[string]bool{}
	for _, m := range ms.Items {
		if m.Number == 0 || m.Title == "" || m.OpenIssues == nil || m.ClosedIssues == nil {
			t.Fatalf("milestone row: %+v", m)
		}
		states[m.State] = true
	}
	if !states["open"] || !states["closed"] {
		t.Fatalf("milestones of every state expected: %+v", ms.Items)
	}

	as := list("assignees")
	wantUpstream(t, env, "GET /repos/acme/widgets/assignees")
	var logins []string
	for _, a := range as.Items {
		logins = append(logins, a.Login)
	}
	if !slices.Contains(logins, "alice") || !slices.Contains(logins, "bob") {
		t.Fatalf("assignees: %q", logins)
	}

	types := list("issue_types")
	wantUpstream(t, env, "GET /repos/acme/widgets/issue-types")
	var names []string
	for _, it := range types.Items {
		names = append(names, it.Name)
	}
	if !slices.Contains(names, "Bug") || !slices.Contains(names, "Task") {
		t.Fatalf("issue types: %+v", types.Items)
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
	if _, ok := byFile["config.yml"]; ok || len(byFile) != 2 {
		t.Fatalf("templates (config.yml is not one): %+v", tpl.Items)
	}
	bug, feat := byFile["bug_report.yml"], byFile["feature_request.md"]
	if bug.Name != "Bug report" || bug.Title != "[Bug]: " || !slices.Equal(bug.Labels, []string{"bug", "status: triage"}) || bug.Description == "" {
		t.Fatalf("issue form: %+v", bug)
	}
	if feat.Name != "Feature request" || feat.Description != "Suggest an idea for widgets" || !slices.Equal(feat.Labels, []string{"enhancement"}) {
		t.Fatalf("Markdown template: %+v", feat)
	}
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
	if chore.Name != "Chore" || chore.Description != "Housekeeping: a<b && c" || !slices.Equal(chore.Labels, []string{"chore", "status: triage"}) {
		t.Fatalf("chore template: %+v", chore)
	}
	for _, f := range []string{"plain.md", "broken.yml"} {
		if it, ok := byFile[f]; !ok || it.Name != "" {
			t.Fatalf("%s: listed %v as %+v", f, ok, it)
		}
	}
	if _, ok := byFile["notes.txt"]; ok || len(out.Items) != 5 {
		t.Fatalf("templates: %+v", out.Items)
	}
}

func TestListRepoMetadataNoTemplatesAndErrors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	// A repository without templates: an empty list, not an error.
	res := env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "alice", Repo: "notes", Kind: "templates"})
	if res.IsError || strings.Contains(string(res.JSON), "items") {
		t.Fatalf("no templates: %s", res.JSON)
	}
	// Forced error: a repository that is not there.
	for _, kind := range []string{"labels", "templates"} {
		t.Run(kind, func(t *testing.T) {
			e := wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "nothing-here", Kind: issues.MetadataKind(kind)}), false)
			if e.Code != contract.CodeRepoNotFound || !strings.Contains(e.Message, "acme/nothing-here") {
				t.Fatalf("%s of a missing repository: %+v", kind, e)
			}
		})
	}
	// dave cannot see the private repository: the same not_found.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	e := wireEnvelope(t, dave.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "gadgets", Kind: "labels"}), false)
	if e.Code != contract.CodeRepoNotFound {
		t.Fatalf("private repository: %+v", e)
	}
	// An unknown kind is refused by the schema with the accepted set.
	e = wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, `{"owner":"acme","repo":"widgets","kind":"colors"}`), false)
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "kind" {
		t.Fatalf("unknown kind: %+v", e)
	}
	// A server error on a read: temporary, with no settlement.
	addFault(t, env, emulator.Fault{Method: "GET", Path: "/repos/acme/widgets/milestones", Kind: emulator.FaultStatus, Status: 502})
	e = wireEnvelope(t, env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "milestones"}), false)
	if e.Code != contract.CodeUpstreamUnavailable || !e.Temporary || e.Repair == nil || !strings.Contains(e.Repair.NextStep, "same call again") {
		t.Fatalf("502: %+v", e)
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
					t.Fatalf("%s page %d: %s", kind, page, res.JSON)
				}
				res.Decode(t, &out)
				if len(out.Items) != 1 {
					t.Fatalf("%s page %d: %d items for page_size 1", kind, page, len(out.Items))
				}
				names = append(names, out.Items[0].Name)
				if !out.HasMore {
					break
				}
				args.Cursor = out.NextCursor
			}
			if len(names) < 2 {
				t.Fatalf("%s: %v, want the seed's two or more, one per page", kind, names)
			}
		})
	}
}
