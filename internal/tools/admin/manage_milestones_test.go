package admin_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
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
	if out.NoOp || out.Milestone == nil || out.Milestone.Number != m.Number || out.Milestone.DueOn != "2027-01-15" || out.Milestone.State != "open" ||
		!ok || m.DueOn == nil || m.DueOn.UTC().Format(time.DateOnly) != "2027-01-15" || m.Description == nil || *m.Description != "The next major." {
		t.Fatalf("create: %+v; stored %+v", out, m)
	}
	number := toolkit.MilestoneNumber(m.Number)

	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, create)
	wantUpstream(t, env, "GET /repos/acme/widgets/milestones")
	if !out.NoOp || out.Milestone.Number != int(number) {
		t.Fatalf("repeated create: %+v", out)
	}

	path := "/repos/acme/widgets/milestones/" + strconv.Itoa(int(number))
	rename := milestones(admin.ManageMilestonesIn{Action: "update", Number: number, Title: "v3.0.0-rc", DueOn: ptr("")})
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, rename)
	wantUpstream(t, env, "GET "+path, "PATCH "+path)
	if strings.Join(out.ChangedFields, ",") != "title,due_on" || out.Milestone.Title != "v3.0.0-rc" || out.Milestone.DueOn != "" {
		t.Fatalf("rename: %+v", out)
	}
	if m, _ := milestoneTitled(t, env, "v3.0.0-rc"); m.DueOn != nil {
		t.Fatalf("due date not cleared: %+v", m)
	}
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, rename)
	if !out.NoOp {
		t.Fatalf("repeated rename: %+v", out)
	}

	byTitle := milestones(admin.ManageMilestonesIn{Action: "update", Title: "V3.0.0-RC", Description: ptr("Release candidate.")})
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, byTitle)
	if strings.Join(out.ChangedFields, ",") != "description" || out.Milestone.Number != int(number) || out.Milestone.Title != "v3.0.0-rc" {
		t.Fatalf("update by title: %+v", out)
	}

	env.Upstream()
	closeIt := milestones(admin.ManageMilestonesIn{Action: "close", Number: number})
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, closeIt)
	wantUpstream(t, env, "GET "+path, "PATCH "+path)
	if out.Milestone.State != "closed" || strings.Join(out.ChangedFields, ",") != "state" {
		t.Fatalf("close: %+v", out)
	}
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, closeIt)
	wantUpstream(t, env, "GET "+path)
	if !out.NoOp || out.Milestone.State != "closed" {
		t.Fatalf("close again: %+v", out)
	}
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "reopen", Title: "v3.0.0-rc"}))
	if out.Milestone.State != "open" || out.NoOp {
		t.Fatalf("reopen: %+v", out)
	}

	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "delete", Title: "v3.0.0-rc"}))
	if !out.Deleted || out.Milestone == nil || out.Milestone.Number != int(number) || !strings.Contains(out.Note, "0 open and 0 closed") {
		t.Fatalf("delete: %+v", out)
	}
	if _, ok := milestoneTitled(t, env, "v3.0.0-rc"); ok {
		t.Fatal("still there")
	}
	env.Upstream()
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "delete", Number: number}))
	wantUpstream(t, env, "GET "+path, "GET /repos/acme/widgets")
	if !out.NoOp || out.Deleted {
		t.Fatalf("delete again: %+v", out)
	}
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
	if !out.Deleted || out.Milestone.OpenIssues+out.Milestone.ClosedIssues != before || count() != 0 {
		t.Fatalf("delete: %+v; %d issues before, %d after", out, before, count())
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
	if e.Code != contract.CodeMilestoneExists || e.Settlement != contract.NotStarted || value["title"] != "v1.5.0" ||
		value["number"] != float64(v150.Number) || !strings.Contains(e.Message, "case") {
		t.Fatalf("case-only duplicate: %+v", e)
	}

	e = refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "v1.4.0"}))
	if e.Code != contract.CodeMilestoneExists || !strings.Contains(e.Message, "closed") || e.Repair == nil {
		t.Fatalf("closed duplicate: %+v", e)
	}
	out := servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, repairArgs(t, e))
	if out.Milestone.Number != v140.Number || out.Milestone.State != "open" {
		t.Fatalf("the repair reopens it: %+v", out)
	}

	e = refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "v1.5.0", DueOn: ptr("2030-01-01")}))
	if e.Code != contract.CodeMilestoneExists || !strings.Contains(e.Message, "due_on") {
		t.Fatalf("other values: %+v", e)
	}
	out = servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, repairArgs(t, e))
	if out.Milestone.Number != v150.Number || out.Milestone.DueOn != "2030-01-01" {
		t.Fatalf("the repair updates it: %+v", out)
	}

	for _, in := range []admin.ManageMilestonesIn{
		{Action: "close", Number: 999},
		{Action: "update", Title: "no such milestone", Description: ptr("x")},
	} {
		e = refused(t, env, toolkit.NameManageMilestones, milestones(in))
		if e.Code != contract.CodeMilestoneNotFound || e.Settlement != contract.NotStarted || e.Repair == nil || e.Repair.Tool != toolkit.NameListRepoMetadata {
			t.Fatalf("unknown %+v: %+v", in, e)
		}
	}
	e = refused(t, env, toolkit.NameManageMilestones, admin.ManageMilestonesIn{Owner: "acme", Repo: "nope", Action: "delete", Number: 1})
	if e.Code != contract.CodeRepoNotFound {
		t.Fatalf("missing repository: %+v", e)
	}

	e = refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "update", Number: toolkit.MilestoneNumber(v150.Number), Title: "v2.0.0"}))
	if e.Code != contract.CodeMilestoneExists || e.Settlement != contract.NoRemoteSuccessKnown {
		t.Fatalf("rename onto another: %+v", e)
	}

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
		if e.Code != contract.CodeInvalidField || e.Settlement != contract.NotStarted || e.Details == nil || e.Details.Field != c.field {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
	wantUpstream(t, env)
}

// A credential that may only read is refused by GitHub, nothing written.
func TestManageMilestonesReadOnlyCredential(t *testing.T) {
	env := start(t, emulator.DemoTokenCarol)
	e := refused(t, env, toolkit.NameManageMilestones, milestones(admin.ManageMilestonesIn{Action: "create", Title: "v9"}))
	if e.Code != contract.CodeInsufficientScope || e.Settlement != contract.NoRemoteSuccessKnown {
		t.Fatalf("carol: %+v", e)
	}
	if _, ok := milestoneTitled(t, env, "v9"); ok {
		t.Fatal("created anyway")
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
			if e.Settlement != c.settlement || !e.Temporary || e.Repair == nil || e.Repair.Tool != toolkit.NameManageMilestones {
				t.Fatalf("first attempt: %+v", e)
			}
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
			if stands() != c.applied {
				t.Fatalf("applied %v, want %v", stands(), c.applied)
			}
			out := servertest.CallOK[admin.ManageMilestonesOut](t, env, toolkit.NameManageMilestones, repairArgs(t, e))
			if out.NoOp != c.applied || !stands() {
				t.Fatalf("the repeat: %+v", out)
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
				t.Fatalf("%d milestones titled v9", n)
			}
		})
	}
}
