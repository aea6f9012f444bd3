package projects_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

// boardLabels lists the labels the demo board's live items carry, by how
// many items carry each.
func boardLabels(t *testing.T, env *servertest.Env) map[string]int {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	p := s.Project(s.Account(emulator.DemoOrg), seed.DemoProjectNumber)
	out := map[string]int{}
	for _, it := range p.Items {
		if it.Issue == nil || it.Archived {
			continue
		}
		for _, l := range it.Issue.Labels {
			out[l.Name]++
		}
	}
	if len(out) == 0 {
		t.Fatal("no item of the demo board carries a label")
	}
	return out
}

func listItems(t *testing.T, env *servertest.Env, filter string) projects.ListProjectItemsOut {
	t.Helper()
	return servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"filter": filter, "page_size": 100}))
}

func noteWith(notes []string, parts ...string) bool {
	return slices.ContainsFunc(notes, func(n string) bool {
		for _, p := range parts {
			if !strings.Contains(n, p) {
				return false
			}
		}
		return true
	})
}

// A status option the field lacks matches nothing on GitHub; the page
// says so and names the option meant, included or excluded; a filter the
// board knows every value of carries no note.
func TestListProjectItemsNamesUnknownOptions(t *testing.T) {
	env := start(t, "")
	out := listItems(t, env, `status:"In progres" -is:archived`)
	if out.Total != 0 || len(out.Notes) != 1 || !noteWith(out.Notes, `"In progres"`, `closest: "In progress"`) {
		t.Fatalf("misspelled option: total %d, notes %q", out.Total, out.Notes)
	}
	excl := listItems(t, env, `-status:Dnoe`)
	if excl.Total == 0 || len(excl.Notes) != 1 || !noteWith(excl.Notes, `"Dnoe"`, "excluding it leaves out nothing", `closest: "Done"`) {
		t.Fatalf("excluded misspelled option: total %d, notes %q", excl.Total, excl.Notes)
	}
	far := listItems(t, env, `priority:Urgent`)
	if !noteWith(far.Notes, `"Urgent"`, `it takes "P0", "P1", "P2"`) {
		t.Fatalf("an option nothing is close to: notes %q", far.Notes)
	}
	it := listItems(t, env, `iteration:"Iteration 99"`)
	if !noteWith(it.Notes, `"Iteration 99"`, "no iteration") {
		t.Fatalf("an iteration the field lacks: notes %q", it.Notes)
	}
	var labels []string
	for l := range boardLabels(t, env) {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	env.Upstream()
	valid := listItems(t, env, `status:"In progress",Todo -is:archived iteration:@current priority:P0`)
	if valid.Total == 0 || len(valid.Notes) != 0 {
		t.Fatalf("valid filter: total %d, notes %q", valid.Total, valid.Notes)
	}
	// Options are the board's own: checking them reads nothing more.
	wantCalls(t, env, 1)
	withLabel := listItems(t, env, `label:"`+labels[0]+`" -label:"`+labels[len(labels)-1]+`"`)
	if len(withLabel.Notes) != 0 {
		t.Fatalf("labels the board's items carry: notes %q", withLabel.Notes)
	}
}

// A label no item carries matches nothing: the empty page names it with
// the labels the items do carry that are close, and an excluded one too;
// assignees and milestones alike.
func TestListProjectItemsNamesUnknownLabels(t *testing.T) {
	env := start(t, "")
	counts := boardLabels(t, env)
	var label string
	for l := range counts {
		if len(l) >= 4 && (label == "" || l < label) {
			label = l
		}
	}
	typo := label[:len(label)-1]
	if counts[typo] > 0 {
		t.Fatalf("the demo board carries both %q and %q", label, typo)
	}
	out := listItems(t, env, `label:"`+typo+`"`)
	if out.Total != 0 || !noteWith(out.Notes, `label "`+typo+`" is on no item of the board`, "closest:", `"`+label+`"`) {
		t.Fatalf("misspelled label %q: total %d, notes %q", typo, out.Total, out.Notes)
	}
	excl := listItems(t, env, `-label:"no such label here"`)
	if excl.Total == 0 || !noteWith(excl.Notes, `"no such label here"`, "excluding it leaves out nothing", "labels there:") {
		t.Fatalf("excluded unknown label: total %d, notes %q", excl.Total, excl.Notes)
	}
	who := listItems(t, env, `assignee:bbo`)
	if who.Total != 0 || !noteWith(who.Notes, "assignee bbo is assigned on no item", `closest: "bob"`) {
		t.Fatalf("misspelled assignee: total %d, notes %q", who.Total, who.Notes)
	}
	ms := listItems(t, env, `milestone:"v9.9.9"`)
	if ms.Total != 0 || !noteWith(ms.Notes, `milestone "v9.9.9" is on no item of the board`) {
		t.Fatalf("unknown milestone: total %d, notes %q", ms.Total, ms.Notes)
	}
	// The board is known now: the items' read passes, the names' read
	// fails, and the page says the names could not be checked.
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/api/graphql", After: 1}); err != nil {
		t.Fatal(err)
	}
	failed := listItems(t, env, `label:"`+typo+`"`)
	if failed.Total != 0 || len(failed.Notes) != 1 || !noteWith(failed.Notes, "could not be checked") {
		t.Fatalf("names unread: total %d, notes %q", failed.Total, failed.Notes)
	}
}

// A qualifier naming no field is refused (GitHub refuses the whole
// filter): the closest field in details.value, and a repair that lists
// again with it in place, which works as given.
func TestListProjectItemsRefusesUnknownFields(t *testing.T) {
	env := start(t, "")
	e := refused(t, env, projects.NameListProjectItems, board(map[string]any{"filter": `stauts:Todo -is:archived`}))
	if e.Code != contract.CodeProjectFieldNotFound || e.Details.Field != "filter" || !strings.Contains(e.Message, `"stauts"`) ||
		e.Repair == nil || e.Repair.Tool != projects.NameListProjectItems {
		t.Fatalf("misspelled field: %+v %+v", e, e.Repair)
	}
	if v, _ := e.Details.Value.([]any); len(v) == 0 || v[0] != "status" {
		t.Fatalf("closest fields: %v", e.Details.Value)
	}
	again := servertest.CallOK[projects.ListProjectItemsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if again.Total == 0 || len(again.Notes) != 0 {
		t.Fatalf("repair lists %d items, notes %q", again.Total, again.Notes)
	}
	for _, it := range again.Items {
		if it.Fields["Status"].Str == nil || *it.Fields["Status"].Str != "Todo" {
			t.Fatalf("row outside the repaired filter: %+v", it)
		}
	}
	has := refused(t, env, projects.NameListProjectItems, board(map[string]any{"filter": `-no:estimat,iteration`}))
	if has.Code != contract.CodeProjectFieldNotFound || has.Repair == nil || has.Repair.Tool != projects.NameListProjectItems {
		t.Fatalf("misspelled field in no: %+v", has)
	}
	servertest.CallOK[projects.ListProjectItemsOut](t, env, has.Repair.Tool, repairArgs(t, has.Repair))
	far := refused(t, env, projects.NameListProjectItems, board(map[string]any{"filter": `zebra:1`}))
	if far.Code != contract.CodeProjectFieldNotFound || far.Repair == nil || far.Repair.Tool != projects.NameListProjects {
		t.Fatalf("a field nothing is close to: %+v", far)
	}
	listed := servertest.CallOK[projects.ListProjectsOut](t, env, far.Repair.Tool, repairArgs(t, far.Repair))
	if len(listed.Projects) != 1 || listed.Projects[0].Title != seed.DemoProjectTitle {
		t.Fatalf("repair lists %+v", listed.Projects)
	}
}

// A note offers only names this client would see on a row: a label that
// only items of a repository outside its read grant carry is never named,
// where a client that reads that repository is offered it.
func TestListProjectItemsNotesKeepToTheReadGrant(t *testing.T) {
	plain := start(t, "")
	byRepo := map[string]map[string]bool{}
	s := plain.Emu.Emu.State()
	s.Lock()
	p := s.Project(s.Account(emulator.DemoOrg), seed.DemoProjectNumber)
	for _, it := range p.Items {
		if it.Issue != nil && !it.Archived {
			for _, l := range it.Issue.Labels {
				if byRepo[l.Name] == nil {
					byRepo[l.Name] = map[string]bool{}
				}
				byRepo[l.Name][it.Issue.Repo.Name] = true
			}
		}
	}
	s.Unlock()
	hidden := ""
	for l, repos := range byRepo {
		if !repos["widgets"] && len(l) >= 4 && (hidden == "" || l < hidden) {
			hidden = l
		}
	}
	if hidden == "" {
		t.Fatal("the demo board needs a label only acme/gadgets items carry")
	}
	typo := hidden[:len(hidden)-1]
	filter := `-label:"` + typo + `"`
	if out := listItems(t, plain, filter); !noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("a client reading acme/gadgets is not offered %q: %q", hidden, out.Notes)
	}
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}, Wrap: servertest.AsCaller(widgetsOnly)})
	out := listItems(t, env, filter)
	if len(out.Notes) != 1 || noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("a client reading acme/widgets alone is offered %q: %q", hidden, out.Notes)
	}
}

// Under the creator scope a note offers no label that only other users'
// issues carry: their rows are withheld, and so are their names.
func TestListProjectItemsNotesKeepToTheCreatorScope(t *testing.T) {
	plain := start(t, "")
	s := plain.Emu.Emu.State()
	s.Lock()
	p := s.Project(s.Account(emulator.DemoOrg), seed.DemoProjectNumber)
	// Who opened each issue, and which labels each author's issues carry
	// ("" for pull requests, whose rows every scope shows).
	carriers := map[string]map[string]bool{}
	for _, it := range p.Items {
		if it.Issue == nil || it.Archived {
			continue
		}
		by := it.Issue.User.Login
		if it.Issue.IsPull {
			by = ""
		}
		for _, l := range it.Issue.Labels {
			if carriers[l.Name] == nil {
				carriers[l.Name] = map[string]bool{}
			}
			carriers[l.Name][by] = true
		}
	}
	s.Unlock()
	// A label one author's issues alone carry, and another author.
	var hidden, owner, allowed string
	for l, by := range carriers {
		if len(by) != 1 || by[""] || len(l) < 4 || hidden != "" && l > hidden {
			continue
		}
		for a := range by {
			hidden, owner = l, a
		}
	}
	for _, by := range carriers {
		for a := range by {
			if a != "" && a != owner && (allowed == "" || a < allowed) {
				allowed = a
			}
		}
	}
	if hidden == "" || allowed == "" {
		t.Fatalf("the demo board needs a label one author's issues alone carry, and another author: %v", carriers)
	}
	typo := hidden[:len(hidden)-1]
	filter := `-label:"` + typo + `"`
	if out := listItems(t, plain, filter); !noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("unscoped, %q is not offered: %q", hidden, out.Notes)
	}
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}, AllowedIssueCreator: allowed})
	if out := listItems(t, env, filter); len(out.Notes) != 1 || noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("scoped to %s, %q (only %s's issues carry it) is offered: %q", allowed, hidden, owner, out.Notes)
	}
}

// A user's board is read as a user's: its empty page names the label too.
func TestListProjectItemsNamesUnknownLabelsOnAUsersBoard(t *testing.T) {
	env := start(t, "")
	out := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems,
		map[string]any{"owner": "alice", "project_number": 1, "filter": `label:"no such label"`})
	if out.Total != 0 || len(out.Notes) != 1 || !noteWith(out.Notes, `label "no such label" is on no item of the board`) {
		t.Fatalf("alice's board: total %d, notes %q", out.Total, out.Notes)
	}
}
