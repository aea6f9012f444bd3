package admin_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/admin"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func milestones(in admin.ManageMilestonesIn) admin.ManageMilestonesIn {
	in.Owner, in.Repo = "acme", "widgets"
	return in
}

// milestoneTitled returns a copy of acme/widgets' milestone titled
// title, and whether there is one.
func milestoneTitled(t *testing.T, env *servertest.Env, title string) (state.Milestone, bool) {
	t.Helper()
	var m state.Milestone
	found := false
	inWidgets(env, func(r *emulator.Repo) {
		for _, x := range r.Milestones {
			if x.Title == title {
				m, found = *x, true
			}
		}
	})
	return m, found
}

// Every action on the wire, with the requests it made and the state
// after: create, repeat, update by number (rename, due date) and by title,
// close, close again, reopen, delete by title, delete again by number.
func TestManageMilestonesEveryAction(t *testing.T) {
	env := start(t, "")
	create := milestones(admin.ManageMilestonesIn{Action: "create", Title: "v3.0.0", DueOn: ptr("2027-01-15"), Description: ptr("The next major.")})
	out := servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, create)
	wantUpstream(t, env, "GET /repos/acme/widgets/milestones", "POST /repos/acme/widgets/milestones")
	m, ok := milestoneTitled(t, env, "v3.0.0")
	if !ok {
		t.Fatal("create: no milestone titled v3.0.0 stored")
	}
	wantNoOp(t, "create", out.NoOp, false)
	if out.Milestone == nil {
		t.Fatalf("create: milestone = nil, want one (%+v)", out)
	}
	if out.Milestone.Number != m.Number {
		t.Errorf("create: milestone.number = %d, want %d (stored)", out.Milestone.Number, m.Number)
	}
	if out.Milestone.DueOn != "2027-01-15" {
		t.Errorf("create: milestone.due_on = %q, want %q", out.Milestone.DueOn, "2027-01-15")
	}
	if out.Milestone.State != "open" {
		t.Errorf("create: milestone.state = %q, want %q", out.Milestone.State, "open")
	}
	if m.DueOn == nil {
		t.Errorf("create: stored due_on = nil, want %q", "2027-01-15")
	} else if got := m.DueOn.UTC().Format(time.DateOnly); got != "2027-01-15" {
		t.Errorf("create: stored due_on = %q, want %q", got, "2027-01-15")
	}
	if m.Description == nil {
		t.Errorf("create: stored description = nil, want %q", "The next major.")
	} else if *m.Description != "The next major." {
		t.Errorf("create: stored description = %q, want %q", *m.Description, "The next major.")
	}
	number := toolkit.MilestoneNumber(m.Number)

	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, create)
	wantUpstream(t, env, "GET /repos/acme/widgets/milestones")
	wantNoOp(t, "repeated create", out.NoOp, true)
	if out.Milestone.Number != int(number) {
		t.Errorf("repeated create: milestone.number = %d, want %d", out.Milestone.Number, number)
	}

	path := "/repos/acme/widgets/milestones/" + strconv.Itoa(int(number))
	rename := milestones(admin.ManageMilestonesIn{Action: "update", Number: number, Title: "v3.0.0-rc", DueOn: ptr("")})
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, rename)
	wantUpstream(t, env, "GET "+path, "PATCH "+path)
	wantChanged(t, "rename", out.ChangedFields, "title,due_on")
	if out.Milestone.Title != "v3.0.0-rc" {
		t.Errorf("rename: milestone.title = %q, want %q", out.Milestone.Title, "v3.0.0-rc")
	}
	if out.Milestone.DueOn != "" {
		t.Errorf("rename: milestone.due_on = %q, want none", out.Milestone.DueOn)
	}
	if m, _ := milestoneTitled(t, env, "v3.0.0-rc"); m.DueOn != nil {
		t.Fatalf("rename: stored due_on = %v, want nil (cleared)", *m.DueOn)
	}
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, rename)
	if !out.NoOp {
		t.Fatalf("repeated rename: no_op = false, want true (%+v)", out)
	}

	byTitle := milestones(admin.ManageMilestonesIn{Action: "update", Title: "V3.0.0-RC", Description: ptr("Release candidate.")})
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, byTitle)
	wantChanged(t, "update by title", out.ChangedFields, "description")
	if out.Milestone.Number != int(number) {
		t.Errorf("update by title: milestone.number = %d, want %d", out.Milestone.Number, number)
	}
	if out.Milestone.Title != "v3.0.0-rc" {
		t.Errorf("update by title: milestone.title = %q, want %q", out.Milestone.Title, "v3.0.0-rc")
	}

	env.Upstream()
	closeIt := milestones(admin.ManageMilestonesIn{Action: "close", Number: number})
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, closeIt)
	wantUpstream(t, env, "GET "+path, "PATCH "+path)
	if out.Milestone.State != "closed" {
		t.Errorf("close: milestone.state = %q, want %q", out.Milestone.State, "closed")
	}
	wantChanged(t, "close", out.ChangedFields, "state")
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, closeIt)
	wantUpstream(t, env, "GET "+path)
	wantNoOp(t, "close again", out.NoOp, true)
	if out.Milestone.State != "closed" {
		t.Errorf("close again: milestone.state = %q, want %q", out.Milestone.State, "closed")
	}
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "reopen", Title: "v3.0.0-rc"}))
	if out.Milestone.State != "open" {
		t.Errorf("reopen: milestone.state = %q, want %q", out.Milestone.State, "open")
	}
	wantNoOp(t, "reopen", out.NoOp, false)

	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "delete", Title: "v3.0.0-rc"}))
	wantDeleted(t, "delete", out.Deleted, true)
	if out.Milestone == nil {
		t.Errorf("delete: milestone = nil, want the deleted one")
	} else if out.Milestone.Number != int(number) {
		t.Errorf("delete: milestone.number = %d, want %d", out.Milestone.Number, number)
	}
	wantContains(t, "delete", "note", out.Note, "0 open and 0 closed")
	if _, ok := milestoneTitled(t, env, "v3.0.0-rc"); ok {
		t.Fatal("delete: v3.0.0-rc is still stored")
	}
	env.Upstream()
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "delete", Number: number}))
	wantUpstream(t, env, "GET "+path, "GET /repos/acme/widgets")
	wantNoOp(t, "delete again", out.NoOp, true)
	wantDeleted(t, "delete again", out.Deleted, false)
}

// Deleting a milestone with issues says how many lose it, and they do.
func TestManageMilestonesDeleteUnsetsIssues(t *testing.T) {
	env := start(t, "")
	v150, _ := milestoneTitled(t, env, "v1.5.0")
	count := func() int {
		n := 0
		inWidgets(env, func(r *emulator.Repo) {
			for _, is := range r.Issues {
				if is.Milestone != nil && is.Milestone.Number == v150.Number {
					n++
				}
			}
		})
		return n
	}
	before := count()
	if before == 0 {
		t.Fatal("the seed has no issue in v1.5.0")
	}
	out := servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "delete", Number: toolkit.MilestoneNumber(v150.Number)}))
	wantDeleted(t, "delete", out.Deleted, true)
	if got := out.Milestone.OpenIssues + out.Milestone.ClosedIssues; got != before {
		t.Errorf("delete: open_issues+closed_issues = %d, want %d", got, before)
	}
	if n := count(); n != 0 {
		t.Errorf("delete: issues still in v1.5.0 = %d, want 0", n)
	}
}

// Every refusal: a title taken ignoring case, one taken by a closed
// milestone, one with other values (each naming it, with a repair that
// works), an unknown number or title, a rename onto another's title, a
// read-only credential, and arguments the action does not take.
func TestManageMilestonesRefusals(t *testing.T) {
	env := start(t, "")
	v150, _ := milestoneTitled(t, env, "v1.5.0")
	v140, _ := milestoneTitled(t, env, "v1.4.0")

	e := refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "V1.5.0"}))
	value, _ := e.Details.Value.(map[string]any)
	contracttest.Envelope(t, "case-only duplicate", e, contract.CodeMilestoneExists, contract.NotStarted)
	if value["title"] != "v1.5.0" {
		t.Errorf("case-only duplicate: details.value.title = %v, want %q", value["title"], "v1.5.0")
	}
	if value["number"] != float64(v150.Number) {
		t.Errorf("case-only duplicate: details.value.number = %v, want %d", value["number"], v150.Number)
	}
	wantContains(t, "case-only duplicate", "message", e.Message, "case")

	e = refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "v1.4.0"}))
	contracttest.Code(t, "closed duplicate", e, contract.CodeMilestoneExists)
	wantContains(t, "closed duplicate", "message", e.Message, "closed")
	if e.Repair == nil {
		t.Fatalf("closed duplicate: repair = nil, want one (%+v)", e)
	}
	out := servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, repairArgs(t, e))
	if out.Milestone.Number != v140.Number {
		t.Errorf("the repair reopens it: milestone.number = %d, want %d", out.Milestone.Number, v140.Number)
	}
	if out.Milestone.State != "open" {
		t.Errorf("the repair reopens it: milestone.state = %q, want %q", out.Milestone.State, "open")
	}

	e = refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "v1.5.0", DueOn: ptr("2030-01-01")}))
	contracttest.Code(t, "other values", e, contract.CodeMilestoneExists)
	wantContains(t, "other values", "message", e.Message, "due_on")
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, repairArgs(t, e))
	if out.Milestone.Number != v150.Number {
		t.Errorf("the repair updates it: milestone.number = %d, want %d", out.Milestone.Number, v150.Number)
	}
	if out.Milestone.DueOn != "2030-01-01" {
		t.Errorf("the repair updates it: milestone.due_on = %q, want %q", out.Milestone.DueOn, "2030-01-01")
	}

	for _, in := range []admin.ManageMilestonesIn{
		{Action: "close", Number: 999},
		{Action: "update", Title: "no such milestone", Description: ptr("x")},
	} {
		e = refused(t, env, toolkit.NameManageMilestones, milestones(in))
		what := fmt.Sprintf("unknown %+v", in)
		contracttest.Envelope(t, what, e, contract.CodeMilestoneNotFound, contract.NotStarted)
		contracttest.RepairTool(t, what, e.Repair, toolkit.NameListRepoMetadata)
	}
	e = refused(t, env, toolkit.NameManageMilestones, admin.ManageMilestonesIn{Owner: "acme", Repo: "nope", Action: "delete", Number: 1})
	contracttest.Code(t, "missing repository", e, contract.CodeRepoNotFound)

	e = refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "update", Number: toolkit.MilestoneNumber(v150.Number), Title: "v2.0.0"}))
	contracttest.Envelope(t, "rename onto another", e, contract.CodeMilestoneExists, contract.NoRemoteSuccessKnown)

	env.Upstream()
	for _, c := range []struct {
		name  string
		in    admin.ManageMilestonesIn
		field string
	}{
		{"create without title", admin.ManageMilestonesIn{Action: "create"}, "title"},
		{"create with number", admin.ManageMilestonesIn{Action: "create", Title: "x", Number: 3}, "number"},
		{"neither number nor title", admin.ManageMilestonesIn{Action: "close"}, "number"},
		{"due_on on close", admin.ManageMilestonesIn{Action: "close", Number: 1, DueOn: ptr("2027-01-01")}, "due_on"},
		{"both on delete", admin.ManageMilestonesIn{Action: "delete", Number: 1, Title: "x"}, "title"},
		{"not a date", admin.ManageMilestonesIn{Action: "create", Title: "x", DueOn: ptr("next week")}, "due_on"},
		{"update changing nothing", admin.ManageMilestonesIn{Action: "update", Title: "x"}, "due_on"},
	} {
		e = refused(t, env, toolkit.NameManageMilestones, milestones(c.in))
		contracttest.Envelope(t, c.name, e, contract.CodeInvalidField, contract.NotStarted)
		contracttest.Field(t, c.name, e, c.field)
	}
	wantUpstream(t, env)
}

// A credential that may only read is refused by GitHub, nothing written.
func TestManageMilestonesReadOnlyCredential(t *testing.T) {
	env := start(t, emulator.DemoTokenCarol)
	e := refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "v9"}))
	contracttest.Envelope(t, "carol", e, contract.CodeInsufficientScope, contract.NoRemoteSuccessKnown)
	if _, ok := milestoneTitled(t, env, "v9"); ok {
		t.Fatal("carol: v9 was created anyway")
	}
}

// Under each injected fault the settlement is what is known, and the
// repair taken as given finishes the job once.
func TestManageMilestonesUnderFaults(t *testing.T) {
	for _, c := range []struct {
		kind       emulator.FaultKind
		status     int
		method     string
		settlement contract.Settlement
		applied    bool
		in         admin.ManageMilestonesIn
	}{
		{emulator.FaultDropAfter, 0, "POST", contract.Indeterminate, true, admin.ManageMilestonesIn{Action: "create", Title: "v9"}},
		{emulator.FaultMalformedAfter, 0, "POST", contract.RemoteSuccessKnown, true, admin.ManageMilestonesIn{Action: "create", Title: "v9"}},
		{emulator.FaultStatus, 502, "POST", contract.NoRemoteSuccessKnown, false, admin.ManageMilestonesIn{Action: "create", Title: "v9"}},
		{emulator.FaultDropAfter, 0, "PATCH", contract.Indeterminate, true, admin.ManageMilestonesIn{Action: "close", Title: "v2.0.0"}},
		{emulator.FaultDropAfter, 0, "DELETE", contract.Indeterminate, true, admin.ManageMilestonesIn{Action: "delete", Title: "v2.0.0"}},
	} {
		t.Run(string(c.kind)+" "+c.method, func(t *testing.T) {
			env := start(t, "")
			v200, _ := milestoneTitled(t, env, "v2.0.0")
			path := "/repos/acme/widgets/milestones"
			if c.method != "POST" {
				path += "/" + strconv.Itoa(v200.Number)
			}
			addFault(t, env, emulator.Fault{Method: c.method, Path: path, Kind: c.kind, Status: c.status, Times: 1})
			e := refused(t, env, toolkit.NameManageMilestones, milestones(c.in))
			contracttest.Settlement(t, "first attempt", e, c.settlement)
			contracttest.Temporary(t, "first attempt", e, true)
			contracttest.RepairTool(t, "first attempt", e.Repair, toolkit.NameManageMilestones)
			stands := func() bool {
				switch c.in.Action {
				case "create":
					_, ok := milestoneTitled(t, env, "v9")
					return ok
				case "close":
					m, _ := milestoneTitled(t, env, "v2.0.0")
					return m.State == "closed"
				default:
					_, ok := milestoneTitled(t, env, "v2.0.0")
					return !ok
				}
			}
			if got := stands(); got != c.applied {
				t.Fatalf("applied %v, want %v", got, c.applied)
			}
			out := servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, repairArgs(t, e))
			wantNoOp(t, "the repeat", out.NoOp, c.applied)
			if !stands() {
				t.Errorf("the repeat: the change stands = false, want true")
			}
			n := 0
			inWidgets(env, func(r *emulator.Repo) {
				for _, m := range r.Milestones {
					if m.Title == "v9" {
						n++
					}
				}
			})
			if c.in.Action == "create" && n != 1 {
				t.Fatalf("milestones titled v9 = %d, want 1", n)
			}
		})
	}
}
