package admin_test

import (
	"github.com/ghgate/ghgate/internal/server/servertest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tools/admin"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func labels(t *testing.T, in admin.ManageLabelsIn) admin.ManageLabelsIn {
	t.Helper()
	in.Owner, in.Repo = "acme", "widgets"
	return in
}

// Create, repeat, update, rename, repeat the rename, delete, delete
// again: each action on the wire, the requests it made, and the
// emulator's state after it.
func TestManageLabelsEveryAction(t *testing.T) {
	env := start(t, "")
	const path = "/repos/acme/widgets/labels"
	create := labels(t, admin.ManageLabelsIn{Action: "create", Name: "kind: perf", Color: "#AbCdEf", Description: ptr("Slow paths")})
	out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, create)
	wantUpstream(t, env, "GET "+path+"/kind: perf", "POST "+path)
	wantNoOp(t, "create", out.NoOp, false)
	if out.Label == nil {
		t.Fatalf("create: label = nil, want one (%+v)", out)
	}
	if out.Label.Name != "kind: perf" {
		t.Errorf("create: label.name = %q, want %q", out.Label.Name, "kind: perf")
	}
	if !strings.EqualFold(out.Label.Color, "abcdef") {
		t.Errorf("create: label.color = %q, want %q in any case", out.Label.Color, "abcdef")
	}
	if out.Label.Description != "Slow paths" {
		t.Errorf("create: label.description = %q, want %q", out.Label.Description, "Slow paths")
	}
	inWidgets(env, func(r *emulator.Repo) {
		l := r.FindLabel("kind: perf")
		if l == nil {
			t.Fatal("stored: no label \"kind: perf\"")
		}
		if l.Name != "kind: perf" {
			t.Errorf("stored: name = %q, want %q", l.Name, "kind: perf")
		}
		if l.Description == nil {
			t.Errorf("stored: description = nil, want %q", "Slow paths")
		} else if *l.Description != "Slow paths" {
			t.Errorf("stored: description = %q, want %q", *l.Description, "Slow paths")
		}
	})

	// The same create again: the label stands as asked, nothing written.
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, create)
	wantUpstream(t, env, "GET "+path+"/kind: perf")
	wantNoOp(t, "repeated create", out.NoOp, true)
	if out.Label == nil {
		t.Fatalf("repeated create: label = nil, want one (%+v)", out)
	}
	if out.Label.Name != "kind: perf" {
		t.Errorf("repeated create: label.name = %q, want %q", out.Label.Name, "kind: perf")
	}
	wantContains(t, "repeated create", "note", out.Note, "already exists")

	update := labels(t, admin.ManageLabelsIn{Action: "update", Name: "KIND: PERF", Color: "00ff00", Description: ptr("")})
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, update)
	wantUpstream(t, env, "GET "+path+"/KIND: PERF", "PATCH "+path+"/kind: perf")
	wantNoOp(t, "update", out.NoOp, false)
	wantChanged(t, "update", out.ChangedFields, "color,description")
	if out.Label.Color != "00ff00" {
		t.Errorf("update: label.color = %q, want %q", out.Label.Color, "00ff00")
	}
	if out.Label.Description != "" {
		t.Errorf("update: label.description = %q, want none", out.Label.Description)
	}
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, update)
	wantUpstream(t, env, "GET "+path+"/KIND: PERF")
	wantNoOp(t, "repeated update", out.NoOp, true)
	if len(out.ChangedFields) != 0 {
		t.Errorf("repeated update: changed_fields = %q, want none", out.ChangedFields)
	}

	rename := labels(t, admin.ManageLabelsIn{Action: "update", Name: "kind: perf", NewName: "kind: speed"})
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, rename)
	wantNoOp(t, "rename", out.NoOp, false)
	wantChanged(t, "rename", out.ChangedFields, "name")
	if out.Label.Name != "kind: speed" {
		t.Errorf("rename: label.name = %q, want %q", out.Label.Name, "kind: speed")
	}
	env.Upstream()
	// Repeated (as after a lost answer): the old name is gone and the new
	// one stands as asked.
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, rename)
	wantUpstream(t, env, "GET "+path+"/kind: perf", "GET /repos/acme/widgets", "GET "+path+"/kind: speed")
	wantNoOp(t, "repeated rename", out.NoOp, true)
	wantContains(t, "repeated rename", "note", out.Note, "already made")

	del := labels(t, admin.ManageLabelsIn{Action: "delete", Name: "kind: speed"})
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, del)
	wantUpstream(t, env, "DELETE "+path+"/kind: speed")
	wantDeleted(t, "delete", out.Deleted, true)
	wantNoOp(t, "delete", out.NoOp, false)
	if out.Label != nil {
		t.Errorf("delete: label = %+v, want none", *out.Label)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if r.FindLabel("kind: speed") != nil {
			t.Fatal("delete: label \"kind: speed\" still stored, want it gone")
		}
	})
	// Deleting an absent label is a no-op success, once the repository is
	// known to be there.
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, del)
	wantUpstream(t, env, "DELETE "+path+"/kind: speed", "GET /repos/acme/widgets")
	wantDeleted(t, "delete again", out.Deleted, false)
	wantNoOp(t, "delete again", out.NoOp, true)
	wantContains(t, "delete again", "note", out.Note, "no label")
}

// Names holding a slash, a colon or a percent sign reach the label's own
// route and no other.
func TestManageLabelsNamesNeedingEscapes(t *testing.T) {
	env := start(t, "")
	for _, name := range []string{"type/bug", "100% done", "a?b#c"} {
		out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: name}))
		if out.Label == nil {
			t.Fatalf("create %q: label = nil, want one (%+v)", name, out)
		}
		if out.Label.Name != name {
			t.Errorf("create %q: label.name = %q, want %q", name, out.Label.Name, name)
		}
		out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "update", Name: name, Color: "123456"}))
		if out.Label == nil {
			t.Fatalf("update %q: label = nil, want one (%+v)", name, out)
		}
		if out.Label.Name != name {
			t.Errorf("update %q: label.name = %q, want %q", name, out.Label.Name, name)
		}
		if out.Label.Color != "123456" {
			t.Errorf("update %q: label.color = %q, want %q", name, out.Label.Color, "123456")
		}
		out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "delete", Name: name}))
		if !out.Deleted {
			t.Fatalf("delete %q: deleted = false, want true (%+v)", name, out)
		}
		inWidgets(env, func(r *emulator.Repo) {
			if r.FindLabel(name) != nil {
				t.Fatalf("delete %q: still stored, want it gone", name)
			}
		})
	}
}

// Deleting a label takes it off every issue that carries it, as GitHub
// does; the result says so.
func TestManageLabelsDeleteTakesItOffIssues(t *testing.T) {
	env := start(t, "")
	carrying := func() int {
		n := 0
		inWidgets(env, func(r *emulator.Repo) {
			for _, is := range r.Issues {
				for _, l := range is.Labels {
					if l.Name == "bug" {
						n++
					}
				}
			}
		})
		return n
	}
	if carrying() == 0 {
		t.Fatal("the seed has no issue labelled bug")
	}
	out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "delete", Name: "Bug"}))
	wantDeleted(t, "delete", out.Deleted, true)
	wantContains(t, "delete", "note", out.Note, "every issue")
	if n := carrying(); n != 0 {
		t.Errorf("delete: %d issues still carry the label, want 0", n)
	}
}

// Every refusal: a name taken ignoring case (named, with the respelling
// call), one taken with other values (with the update call), an unknown
// label, a missing repository, a read-only credential, and arguments no
// action takes. None writes.
func TestManageLabelsRefusals(t *testing.T) {
	env := start(t, "")
	e := refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: "BUG"}))
	wantUpstream(t, env, "GET /repos/acme/widgets/labels/BUG")
	contracttest.Envelope(t, "case-only duplicate", e, contract.CodeLabelExists, contract.NotStarted)
	if e.Details == nil {
		t.Errorf("case-only duplicate: details = nil, want value %q", "bug")
	} else if e.Details.Value != "bug" {
		t.Errorf("case-only duplicate: details.value = %v, want %q", e.Details.Value, "bug")
	}
	wantContains(t, "case-only duplicate", "message", e.Message, `"bug"`)
	contracttest.RepairTool(t, "case-only duplicate", e.Repair, toolkit.NameManageLabels)
	// The repair, taken as given, respells the existing label.
	out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, repairArgs(t, e))
	if out.Label == nil {
		t.Fatalf("respelled: label = nil, want one (%+v)", out)
	}
	if out.Label.Name != "BUG" {
		t.Errorf("respelled: label.name = %q, want %q", out.Label.Name, "BUG")
	}
	wantChanged(t, "respelled", out.ChangedFields, "name")

	e = refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: "documentation", Color: "000000"}))
	contracttest.Code(t, "same name, other color", e, contract.CodeLabelExists)
	if e.Details == nil {
		t.Errorf("same name, other color: details = nil, want value %q", "documentation")
	} else if e.Details.Value != "documentation" {
		t.Errorf("same name, other color: details.value = %v, want %q", e.Details.Value, "documentation")
	}
	wantContains(t, "same name, other color", "message", e.Message, "color")
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, repairArgs(t, e))
	if out.Label == nil {
		t.Fatalf("the repair's update: label = nil, want one (%+v)", out)
	}
	if out.Label.Color != "000000" {
		t.Errorf("the repair's update: label.color = %q, want %q", out.Label.Color, "000000")
	}

	env.Upstream()
	e = refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "update", Name: "no such label", Color: "ffffff"}))
	contracttest.Envelope(t, "unknown label", e, contract.CodeLabelNotFound, contract.NotStarted)
	contracttest.Field(t, "unknown label", e, "name")
	contracttest.RepairTool(t, "unknown label", e.Repair, toolkit.NameListRepoMetadata)
	wantUpstream(t, env, "GET /repos/acme/widgets/labels/no such label", "GET /repos/acme/widgets")

	// A rename onto a name another label holds: GitHub's 422, named.
	e = refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "update", Name: "question", NewName: "Invalid"}))
	contracttest.Envelope(t, "rename onto another", e, contract.CodeLabelExists, contract.NoRemoteSuccessKnown)
	contracttest.Field(t, "rename onto another", e, "new_name")

	for _, action := range []admin.LabelAction{"create", "delete"} {
		e = refused(t, env, toolkit.NameManageLabels, admin.ManageLabelsIn{Owner: "acme", Repo: "nope", Action: action, Name: "x"})
		if e.Code != contract.CodeRepoNotFound {
			t.Fatalf("%s in a missing repository: code = %q, want %q (%+v)", action, e.Code, contract.CodeRepoNotFound, e)
		}
	}

	env.Upstream()
	for _, c := range []struct {
		name  string
		in    admin.ManageLabelsIn
		field string
	}{
		{"bad color", admin.ManageLabelsIn{Action: "create", Name: "x", Color: "red"}, "color"},
		{"new_name on create", admin.ManageLabelsIn{Action: "create", Name: "x", NewName: "y"}, "new_name"},
		{"color on delete", admin.ManageLabelsIn{Action: "delete", Name: "x", Color: "ffffff"}, "color"},
		{"update changing nothing", admin.ManageLabelsIn{Action: "update", Name: "x"}, "new_name"},
		{"blank name", admin.ManageLabelsIn{Action: "create", Name: "  "}, "name"},
		{"long description", admin.ManageLabelsIn{Action: "create", Name: "x", Description: ptr(strings.Repeat("d", 101))}, "description"},
	} {
		e = refused(t, env, toolkit.NameManageLabels, labels(t, c.in))
		contracttest.Envelope(t, c.name, e, contract.CodeInvalidField, contract.NotStarted)
		contracttest.Field(t, c.name, e, c.field)
	}
	wantUpstream(t, env)
}

// A credential that may only read the repository is refused by GitHub:
// insufficient_scope, nothing written.
func TestManageLabelsReadOnlyCredential(t *testing.T) {
	env := start(t, emulator.DemoTokenCarol)
	e := refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: "kind: perf"}))
	contracttest.Envelope(t, "carol", e, contract.CodeInsufficientScope, contract.NoRemoteSuccessKnown)
	inWidgets(env, func(r *emulator.Repo) {
		if r.FindLabel("kind: perf") != nil {
			t.Fatal("carol: label \"kind: perf\" stored, want none (created anyway)")
		}
	})
}

// Under each injected fault the settlement is what is known, and the same
// call (the repair, taken as given) finishes the job exactly once.
func TestManageLabelsUnderFaults(t *testing.T) {
	for _, c := range []struct {
		kind       emulator.FaultKind
		status     int
		method     string
		settlement contract.Settlement
		applied    bool
		in         admin.ManageLabelsIn
	}{
		{emulator.FaultDropAfter, 0, "POST", contract.Indeterminate, true, admin.ManageLabelsIn{Action: "create", Name: "kind: perf", Color: "abcdef"}},
		{emulator.FaultMalformedAfter, 0, "POST", contract.RemoteSuccessKnown, true, admin.ManageLabelsIn{Action: "create", Name: "kind: perf", Color: "abcdef"}},
		{emulator.FaultStatus, 502, "POST", contract.NoRemoteSuccessKnown, false, admin.ManageLabelsIn{Action: "create", Name: "kind: perf", Color: "abcdef"}},
		{emulator.FaultDropAfter, 0, "PATCH", contract.Indeterminate, true, admin.ManageLabelsIn{Action: "update", Name: "question", NewName: "kind: question"}},
		{emulator.FaultDropAfter, 0, "DELETE", contract.Indeterminate, true, admin.ManageLabelsIn{Action: "delete", Name: "question"}},
		{emulator.FaultStatus, 503, "DELETE", contract.NoRemoteSuccessKnown, false, admin.ManageLabelsIn{Action: "delete", Name: "question"}},
	} {
		t.Run(string(c.kind)+" "+c.method+" "+string(c.in.Action), func(t *testing.T) {
			env := start(t, "")
			path := "/repos/acme/widgets/labels"
			if c.method != "POST" {
				path += "/" + c.in.Name
			}
			addFault(t, env, emulator.Fault{Method: c.method, Path: path, Kind: c.kind, Status: c.status, Times: 1})
			in := labels(t, c.in)
			e := refused(t, env, toolkit.NameManageLabels, in)
			contracttest.Settlement(t, "first attempt", e, c.settlement)
			contracttest.Temporary(t, "first attempt", e, true)
			contracttest.RepairTool(t, "first attempt", e.Repair, toolkit.NameManageLabels)
			want := map[admin.LabelAction]string{"create": "kind: perf", "update": "kind: question", "delete": ""}[c.in.Action]
			stands := func() bool {
				ok := false
				inWidgets(env, func(r *emulator.Repo) {
					if want == "" {
						ok = r.FindLabel("question") == nil
					} else {
						ok = r.FindLabel(want) != nil
					}
				})
				return ok
			}
			if got := stands(); got != c.applied {
				t.Fatalf("applied %v, want %v", got, c.applied)
			}
			out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, repairArgs(t, e))
			wantNoOp(t, "the repeat", out.NoOp, c.applied)
			if !stands() {
				t.Errorf("the repeat: the change stands = false, want true")
			}
			n := 0
			inWidgets(env, func(r *emulator.Repo) {
				for _, l := range r.Labels {
					if want != "" && strings.EqualFold(l.Name, want) {
						n++
					}
				}
			})
			if want != "" && n != 1 {
				t.Fatalf("labels named %q = %d, want 1", want, n)
			}
		})
	}
}
