package projects_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

// widgetsOnly is a caller whose grant reads acme/widgets alone.
var widgetsOnly = caller.Identity{ID: "http:widgets-only",
	Readable: func(owner, repo string) bool {
		return strings.EqualFold(owner, "acme") && strings.EqualFold(repo, "widgets")
	}}

// A board holds items of any repository: a caller whose grant reads
// acme/widgets alone sees none of acme/gadgets' rows, counted in
// withheld and out of counts, and reading or writing such an item by its
// id is refused without naming its repository.
func TestProjectItemsOutsideTheReadGrantAreWithheld(t *testing.T) {
	t.Parallel()
	plain := start(t, "")
	all := servertest.CallOK[projects.ListProjectItemsOut](t, plain, projects.NameListProjectItems, board(map[string]any{"page_size": 100}))
	gadgets, gadgetsID := 0, ""
	for _, it := range all.Items {
		if it.Repo == "acme/gadgets" {
			gadgets++
			gadgetsID = it.ItemID
		}
	}
	if gadgets == 0 {
		t.Fatal("no acme/gadgets items on the demo board's first page, want some")
	}
	if all.HasMore {
		t.Fatal("the demo board's first page has_more = true, want every item on one page")
	}

	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}, Wrap: servertest.AsCaller(widgetsOnly)})
	limited := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"page_size": 100}))
	for _, it := range limited.Items {
		if it.Repo == "acme/gadgets" {
			t.Errorf("row of acme/gadgets#%d listed, want it withheld", it.Number)
		}
	}
	if limited.Withheld != gadgets {
		t.Errorf("withheld = %d, want %d", limited.Withheld, gadgets)
	}
	if got, want := len(limited.Items), len(all.Items)-gadgets; got != want {
		t.Errorf("%d rows, want %d", got, want)
	}
	if got := limited.Counts.Repos["acme/gadgets"]; got != 0 {
		t.Errorf("counts.repos[acme/gadgets] = %d, want 0", got)
	}

	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{projects.NameGetProjectItem, board(map[string]any{"item_id": gadgetsID})},
		{projects.NameGetProjectItem, board(map[string]any{"repo": "gadgets", "issue_number": 1})},
		{projects.NameUpdateProjectItem, board(map[string]any{"item": map[string]any{"item_id": gadgetsID}, "action": "archive"})},
	} {
		e := refused(t, env, c.tool, c.args)
		if e.Code != contract.CodeInsufficientScope {
			t.Errorf("%s %v: code = %s, want %s", c.tool, c.args, e.Code, contract.CodeInsufficientScope)
		}
		if strings.Contains(e.Message, "gadgets") {
			t.Errorf("%s %v: message = %q, want it not to name the repository", c.tool, c.args, e.Message)
		}
	}
}
