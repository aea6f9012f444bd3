package projects_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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

// wantTotal fails the test unless a filtered page's total is 0 (when
// zero) or above 0 (when not).
func wantTotal(t *testing.T, what string, total int, zero bool) {
	t.Helper()
	if zero && total != 0 {
		t.Fatalf("%s: total = %d, want 0", what, total)
	}
	if !zero && total == 0 {
		t.Fatalf("%s: total = 0, want some items", what)
	}
}

// wantNoteCount fails the test unless the page carries n notes.
func wantNoteCount(t *testing.T, what string, notes []string, n int) {
	t.Helper()
	if len(notes) != n {
		t.Fatalf("%s: %d notes %q, want %d", what, len(notes), notes, n)
	}
}

// wantNote fails the test unless a note holds every one of parts.
func wantNote(t *testing.T, what string, notes []string, parts ...string) {
	t.Helper()
	if !noteWith(notes, parts...) {
		t.Fatalf("%s: notes = %q, want one holding all of %q", what, notes, parts)
	}
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
	wantTotal(t, "misspelled option", out.Total, true)
	wantNoteCount(t, "misspelled option", out.Notes, 1)
	wantNote(t, "misspelled option", out.Notes, `"In progres"`, `closest: "In progress"`)
	excl := listItems(t, env, `-status:Dnoe`)
	wantTotal(t, "excluded misspelled option", excl.Total, false)
	wantNoteCount(t, "excluded misspelled option", excl.Notes, 1)
	wantNote(t, "excluded misspelled option", excl.Notes, `"Dnoe"`, "excluding it leaves out nothing", `closest: "Done"`)
	far := listItems(t, env, `priority:Urgent`)
	wantNote(t, "an option nothing is close to", far.Notes, `"Urgent"`, `it takes "P0", "P1", "P2"`)
	it := listItems(t, env, `iteration:"Iteration 99"`)
	wantNote(t, "an iteration the field lacks", it.Notes, `"Iteration 99"`, "no iteration")
	var labels []string
	for l := range boardLabels(t, env) {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	env.Upstream()
	valid := listItems(t, env, `status:"In progress",Todo -is:archived iteration:@current priority:P0`)
	wantTotal(t, "valid filter", valid.Total, false)
	wantNoteCount(t, "valid filter", valid.Notes, 0)
	// Options are the board's own: checking them reads nothing more.
	wantCalls(t, env, 1)
	withLabel := listItems(t, env, `label:"`+labels[0]+`" -label:"`+labels[len(labels)-1]+`"`)
	wantNoteCount(t, "labels the board's items carry", withLabel.Notes, 0)
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
		t.Fatalf("the demo board carries both %q and %q, want only the first", label, typo)
	}
	out := listItems(t, env, `label:"`+typo+`"`)
	what := fmt.Sprintf("misspelled label %q", typo)
	wantTotal(t, what, out.Total, true)
	wantNote(t, what, out.Notes, `label "`+typo+`" is on no item of the board`, "closest:", `"`+label+`"`)
	excl := listItems(t, env, `-label:"no such label here"`)
	wantTotal(t, "excluded unknown label", excl.Total, false)
	wantNote(t, "excluded unknown label", excl.Notes, `"no such label here"`, "excluding it leaves out nothing", "labels there:")
	who := listItems(t, env, `assignee:bbo`)
	wantTotal(t, "misspelled assignee", who.Total, true)
	wantNote(t, "misspelled assignee", who.Notes, "assignee bbo is assigned on no item", `closest: "bob"`)
	ms := listItems(t, env, `milestone:"v9.9.9"`)
	wantTotal(t, "unknown milestone", ms.Total, true)
	wantNote(t, "unknown milestone", ms.Notes, `milestone "v9.9.9" is on no item of the board`)
	// The board is known now: the items' read passes, the names' read
	// fails, and the page says the names could not be checked.
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/api/graphql", After: 1}); err != nil {
		t.Fatal(err)
	}
	failed := listItems(t, env, `label:"`+typo+`"`)
	wantTotal(t, "names unread", failed.Total, true)
	wantNoteCount(t, "names unread", failed.Notes, 1)
	wantNote(t, "names unread", failed.Notes, "could not be checked")
}

// A qualifier naming no field is refused (GitHub refuses the whole
// filter): the closest field in details.value, and a repair that lists
// again with it in place, which works as given.
func TestListProjectItemsRefusesUnknownFields(t *testing.T) {
	env := start(t, "")
	e := refused(t, env, projects.NameListProjectItems, board(map[string]any{"filter": `stauts:Todo -is:archived`}))
	if !contracttest.Matches(t, "misspelled field", e, contracttest.Want{Code: contract.CodeProjectFieldNotFound, RepairTool: projects.NameListProjectItems}) {
		t.FailNow()
	}
	if e.Details.Field != "filter" {
		t.Fatalf("misspelled field: details.field = %q, want filter", e.Details.Field)
	}
	if !strings.Contains(e.Message, `"stauts"`) {
		t.Fatalf("misspelled field: message = %q, want it to name \"stauts\"", e.Message)
	}
	if v, _ := e.Details.Value.([]any); len(v) == 0 {
		t.Fatalf("closest fields = %v, want status first", e.Details.Value)
	} else if v[0] != "status" {
		t.Fatalf("closest fields = %v, want status first", v)
	}
	again := servertest.CallOK[projects.ListProjectItemsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	wantTotal(t, "repair", again.Total, false)
	wantNoteCount(t, "repair", again.Notes, 0)
	for _, it := range again.Items {
		if it.Fields["Status"].Str == nil {
			t.Fatalf("row %s outside the repaired filter: Status unset, want Todo: %+v", it.ItemID, it)
		}
		if got := *it.Fields["Status"].Str; got != "Todo" {
			t.Fatalf("row %s outside the repaired filter: Status = %q, want Todo", it.ItemID, got)
		}
	}
	has := refused(t, env, projects.NameListProjectItems, board(map[string]any{"filter": `-no:estimat,iteration`}))
	if !contracttest.Matches(t, "misspelled field in no", has, contracttest.Want{Code: contract.CodeProjectFieldNotFound, RepairTool: projects.NameListProjectItems}) {
		t.FailNow()
	}
	servertest.CallOK[projects.ListProjectItemsOut](t, env, has.Repair.Tool, repairArgs(t, has.Repair))
	far := refused(t, env, projects.NameListProjectItems, board(map[string]any{"filter": `zebra:1`}))
	if !contracttest.Matches(t, "a field nothing is close to", far, contracttest.Want{Code: contract.CodeProjectFieldNotFound, RepairTool: projects.NameListProjects}) {
		t.FailNow()
	}
	listed := servertest.CallOK[projects.ListProjectsOut](t, env, far.Repair.Tool, repairArgs(t, far.Repair))
	if len(listed.Projects) != 1 {
		t.Fatalf("repair lists %d projects, want 1: %+v", len(listed.Projects), listed.Projects)
	}
	if listed.Projects[0].Title != seed.DemoProjectTitle {
		t.Fatalf("repair lists %q, want %q", listed.Projects[0].Title, seed.DemoProjectTitle)
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
		t.Fatalf("no label only acme/gadgets items carry, want one on the demo board: %v", byRepo)
	}
	typo := hidden[:len(hidden)-1]
	filter := `-label:"` + typo + `"`
	if out := listItems(t, plain, filter); !noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("a client reading acme/gadgets: notes = %q, want %q offered", out.Notes, hidden)
	}
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}, Wrap: servertest.AsCaller(widgetsOnly)})
	out := listItems(t, env, filter)
	wantNoteCount(t, "a client reading acme/widgets alone", out.Notes, 1)
	if noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("a client reading acme/widgets alone: notes = %q, want %q not offered", out.Notes, hidden)
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
	if hidden == "" {
		t.Fatalf("no label one author's issues alone carry, want one on the demo board: %v", carriers)
	}
	if allowed == "" {
		t.Fatalf("no author other than %s, want one on the demo board: %v", owner, carriers)
	}
	typo := hidden[:len(hidden)-1]
	filter := `-label:"` + typo + `"`
	if out := listItems(t, plain, filter); !noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("unscoped: notes = %q, want %q offered", out.Notes, hidden)
	}
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}, AllowedIssueCreator: allowed})
	out := listItems(t, env, filter)
	wantNoteCount(t, "scoped to "+allowed, out.Notes, 1)
	if noteWith(out.Notes, `"`+hidden+`"`) {
		t.Fatalf("scoped to %s: notes = %q, want %q (only %s's issues carry it) not offered", allowed, out.Notes, hidden, owner)
	}
}

// A user's board is read as a user's: its empty page names the label too.
func TestListProjectItemsNamesUnknownLabelsOnAUsersBoard(t *testing.T) {
	env := start(t, "")
	out := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems,
		map[string]any{"owner": "alice", "project_number": 1, "filter": `label:"no such label"`})
	wantTotal(t, "alice's board", out.Total, true)
	wantNoteCount(t, "alice's board", out.Notes, 1)
	wantNote(t, "alice's board", out.Notes, `label "no such label" is on no item of the board`)
}
