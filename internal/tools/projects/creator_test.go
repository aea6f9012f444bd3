package projects_test

import (
	"fmt"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

// authors maps "owner/repo#n" to who opened each issue of acme's demo
// repositories.
func authors(env *servertest.Env) map[string]string {
	out := map[string]string{}
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	for _, name := range []string{"widgets", "gadgets"} {
		r := s.Repo(emulator.DemoOrg, name)
		if r == nil {
			continue
		}
		for _, is := range r.Issues {
			if is.User != nil && !is.IsPull {
				out[fmt.Sprintf("acme/%s#%d", name, is.Number)] = is.User.Login
			}
		}
	}
	return out
}

// Under the creator scope the board shows and touches only the allowed
// user's issues: other users' issue rows are withheld and counted, and
// reading or writing their items is refused as github_get_issue refuses
// the issue, before anything is written.
func TestProjectsApplyTheCreatorScope(t *testing.T) {
	plain := start(t, "")
	by := authors(plain)
	// Every row of the board, unscoped: whose issue each is.
	all := servertest.CallOK[projects.ListProjectItemsOut](t, plain, projects.NameListProjectItems, board(map[string]any{"page_size": 100}))
	var allowed, otherRef string
	var otherNumber int
	otherItemID := ""
	for _, it := range all.Items {
		if it.Kind != "issue" {
			continue
		}
		a := by[fmt.Sprintf("%s#%d", it.Repo, it.Number)]
		if allowed == "" {
			allowed = a
			continue
		}
		if a != allowed && otherItemID == "" && it.Repo == "acme/widgets" {
			otherItemID, otherNumber, otherRef = it.ItemID, it.Number, fmt.Sprintf("%s#%d", it.Repo, it.Number)
		}
	}
	if allowed == "" {
		t.Fatal("no issue author found, want the demo board to have issues of two authors on one page")
	}
	if otherItemID == "" {
		t.Fatalf("no acme/widgets issue by an author other than %s, want one on the demo board's first page", allowed)
	}
	if all.HasMore {
		t.Fatal("the demo board's first page has_more = true, want every item on one page")
	}

	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}, AllowedIssueCreator: allowed})
	scoped := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"page_size": 100}))
	others := 0
	for _, it := range all.Items {
		if it.Kind == "issue" && by[fmt.Sprintf("%s#%d", it.Repo, it.Number)] != allowed {
			others++
		}
	}
	for _, it := range scoped.Items {
		if it.Kind == "issue" && by[fmt.Sprintf("%s#%d", it.Repo, it.Number)] != allowed {
			t.Errorf("row of %s#%d, opened by another user, listed, want it withheld", it.Repo, it.Number)
		}
	}
	if others == 0 {
		t.Errorf("no rows of other users' issues on the board, want some")
	}
	if scoped.Withheld != others {
		t.Errorf("withheld = %d, want %d", scoped.Withheld, others)
	}
	if got, want := len(scoped.Items), len(all.Items)-others; got != want {
		t.Errorf("%d rows, want %d", got, want)
	}
	if got, want := scoped.Counts.Issues, all.Counts.Issues-others; got != want {
		t.Errorf("counts.issues = %d, want %d", got, want)
	}

	for _, c := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"get by issue", projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": otherNumber})},
		{"get by item_id", projects.NameGetProjectItem, board(map[string]any{"item_id": otherItemID})},
		{"set fields", projects.NameUpdateProjectItem, update(otherNumber, map[string]any{"action": "set_fields", "fields": map[string]any{"Status": "Done"}})},
		{"clear by item_id", projects.NameUpdateProjectItem, board(map[string]any{"item": map[string]any{"item_id": otherItemID}, "action": "clear_field", "field": "Status"})},
		{addCase(by, allowed), projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "add"})},
		{"remove", projects.NameUpdateProjectItem, update(otherNumber, map[string]any{"action": "remove", "confirm": true})},
	} {
		if c.name == "" {
			continue
		}
		env.Upstream()
		e := refused(t, env, c.tool, c.args)
		write := c.tool == projects.NameUpdateProjectItem
		what := c.name + " on " + otherRef
		w := contracttest.Want{Code: contract.CodeIssueCreatorNotAllowed}
		if write {
			w.Settlement = contract.NotStarted
		}
		contracttest.Matches(t, what, e, w)
		if e.Repair == nil {
			t.Errorf("%s: repair = nil, want one", what)
		}
		for _, u := range env.Upstream() {
			if u != "POST /api/graphql" && u != "POST /graphql" {
				t.Errorf("%s: upstream %s, want only POST /graphql", c.name, u)
			}
		}
	}
	// The board still holds the other user's item as it was.
	after := servertest.CallOK[projects.GetProjectItemOut](t, plain, projects.NameGetProjectItem, board(map[string]any{"item_id": otherItemID}))
	if after.Item.Number != otherNumber {
		t.Errorf("%s's item after the refusals: number = %d, want %d: %+v", otherRef, after.Item.Number, otherNumber, after.Item)
	}
}

// addCase names the add of the demo's off-board issue when another user
// opened it ("" skips the case).
func addCase(by map[string]string, allowed string) string {
	if by[fmt.Sprintf("acme/widgets#%d", offBoard)] == allowed {
		return ""
	}
	return "add"
}
