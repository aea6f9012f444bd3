package admin_test

import (
	"github.com/ghgate/ghgate/internal/server/servertest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
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
	if out.NoOp || out.Label == nil || out.Label.Name != "kind: perf" || !strings.EqualFold(out.Label.Color, "abcdef") || out.Label.Description != "Slow paths" {
		t.Fatalf("create: %+v", out)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if l := r.FindLabel("kind: perf"); l == nil || l.Name != "kind: perf" || l.Description == nil || *l.Description != "Slow paths" {
			t.Fatalf("stored: %+v", l)
		}
	})

	// The same create again: the label stands as asked, nothing written.
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, create)
	wantUpstream(t, env, "GET "+path+"/kind: perf")
	if !out.NoOp || out.Label == nil || out.Label.Name != "kind: perf" || !strings.Contains(out.Note, "already exists") {
		t.Fatalf("repeated create: %+v", out)
	}

	update := labels(t, admin.ManageLabelsIn{Action: "update", Name: "KIND: PERF", Color: "00ff00", Description: ptr("")})
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, update)
	wantUpstream(t, env, "GET "+path+"/KIND: PERF", "PATCH "+path+"/kind: perf")
	if out.NoOp || strings.Join(out.ChangedFields, ",") != "color,description" || out.Label.Color != "00ff00" || out.Label.Description != "" {
		t.Fatalf("update: %+v", out)
	}
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, update)
	wantUpstream(t, env, "GET "+path+"/KIND: PERF")
	if !out.NoOp || len(out.ChangedFields) != 0 {
		t.Fatalf("repeated update: %+v", out)
	}

	rename := labels(t, admin.ManageLabelsIn{Action: "update", Name: "kind: perf", NewName: "kind: speed"})
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, rename)
	if out.NoOp || strings.Join(out.ChangedFields, ",") != "name" || out.Label.Name != "kind: speed" {
		t.Fatalf("rename: %+v", out)
	}
	env.Upstream()
	// Repeated (as after a lost answer): the old name is gone and the new
	// one stands as asked.
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, rename)
	wantUpstream(t, env, "GET "+path+"/kind: perf", "GET /repos/acme/widgets", "GET "+path+"/kind: speed")
	if !out.NoOp || !strings.Contains(out.Note, "already made") {
		t.Fatalf("repeated rename: %+v", out)
	}

	del := labels(t, admin.ManageLabelsIn{Action: "delete", Name: "kind: speed"})
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, del)
	wantUpstream(t, env, "DELETE "+path+"/kind: speed")
	if !out.Deleted || out.NoOp || out.Label != nil {
		t.Fatalf("delete: %+v", out)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if r.FindLabel("kind: speed") != nil {
			t.Fatal("the label is still there")
		}
	})
	// Deleting an absent label is a no-op success, once the repository is
	// known to be there.
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, del)
	wantUpstream(t, env, "DELETE "+path+"/kind: speed", "GET /repos/acme/widgets")
	if out.Deleted || !out.NoOp || !strings.Contains(out.Note, "no label") {
		t.Fatalf("delete again: %+v", out)
	}
}

// Names holding a slash, a colon or a percent sign reach the label's own
// route and no other.
func TestManageLabelsNamesNeedingEscapes(t *testing.T) {
	env := start(t, "")
	for _, name := range []string{"type/bug", "100% done", "a?b#c"} {
		out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: name}))
		if out.Label == nil || out.Label.Name != name {
			t.Fatalf("create %q: %+v", name, out)
		}
		out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "update", Name: name, Color: "123456"}))
		if out.Label == nil || out.Label.Name != name || out.Label.Color != "123456" {
			t.Fatalf("update %q: %+v", name, out)
		}
		out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "delete", Name: name}))
		if !out.Deleted {
			t.Fatalf("delete %q: %+v", name, out)
		}
		inWidgets(env, func(r *emulator.Repo) {
			if r.FindLabel(name) != nil {
				t.Fatalf("%q is still there", name)
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
	if !out.Deleted || !strings.Contains(out.Note, "every issue") || carrying() != 0 {
		t.Fatalf("delete: %+v; %d issues still carry it", out, carrying())
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
	if e.Code != contract.CodeLabelExists || e.Settlement != contract.NotStarted || e.Details == nil || e.Details.Value != "bug" ||
		!strings.Contains(e.Message, `"bug"`) || e.Repair == nil || e.Repair.Tool != toolkit.NameManageLabels {
		t.Fatalf("case-only duplicate: %+v", e)
	}
	// The repair, taken as given, respells the existing label.
	out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, repairArgs(t, e))
	if out.Label == nil || out.Label.Name != "BUG" || strings.Join(out.ChangedFields, ",") != "name" {
		t.Fatalf("respelled: %+v", out)
	}

	e = refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: "documentation", Color: "000000"}))
	if e.Code != contract.CodeLabelExists || e.Details.Value != "documentation" || !strings.Contains(e.Message, "color") {
		t.Fatalf("same name, other color: %+v", e)
	}
	out = servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, repairArgs(t, e))
	if out.Label == nil || out.Label.Color != "000000" {
		t.Fatalf("the repair's update: %+v", out)
	}

	env.Upstream()
	e = refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "update", Name: "no such label", Color: "ffffff"}))
	if e.Code != contract.CodeLabelNotFound || e.Settlement != contract.NotStarted || e.Details.Field != "name" ||
		e.Repair == nil || e.Repair.Tool != toolkit.NameListRepoMetadata {
		t.Fatalf("unknown label: %+v", e)
	}
	wantUpstream(t, env, "GET /repos/acme/widgets/labels/no such label", "GET /repos/acme/widgets")

	// A rename onto a name another label holds: GitHub's 422, named.
	e = refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "update", Name: "question", NewName: "Invalid"}))
	if e.Code != contract.CodeLabelExists || e.Settlement != contract.NoRemoteSuccessKnown || e.Details.Field != "new_name" {
		t.Fatalf("rename onto another: %+v", e)
	}

	for _, action := range []admin.LabelAction{"create", "delete"} {
		e = refused(t, env, toolkit.NameManageLabels, admin.ManageLabelsIn{Owner: "acme", Repo: "nope", Action: action, Name: "x"})
		if e.Code != contract.CodeRepoNotFound {
			t.Fatalf("%s in a missing repository: %+v", action, e)
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
		if e.Code != contract.CodeInvalidField || e.Settlement != contract.NotStarted || e.Details == nil || e.Details.Field != c.field {
			t.Errorf("%s: %+v", c.name, e)
		}
	}
	wantUpstream(t, env)
}

// A credential that may only read the repository is refused by GitHub:
// insufficient_scope, nothing written.
func TestManageLabelsReadOnlyCredential(t *testing.T) {
	env := start(t, emulator.DemoTokenCarol)
	e := refused(t, env, toolkit.NameManageLabels, labels(t, admin.ManageLabelsIn{Action: "create", Name: "kind: perf"}))
	if e.Code != contract.CodeInsufficientScope || e.Settlement != contract.NoRemoteSuccessKnown {
		t.Fatalf("carol: %+v", e)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if r.FindLabel("kind: perf") != nil {
			t.Fatal("created anyway")
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
			if e.Settlement != c.settlement || !e.Temporary || e.Repair == nil || e.Repair.Tool != toolkit.NameManageLabels {
				t.Fatalf("first attempt: %+v", e)
			}
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
			if stands() != c.applied {
				t.Fatalf("applied %v, want %v", stands(), c.applied)
			}
			out := servertest.CallOK[admin.ManageLabelsOut](t, env, toolkit.NameManageLabels, repairArgs(t, e))
			if out.NoOp != c.applied || !stands() {
				t.Fatalf("the repeat: %+v (stands %v)", out, stands())
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
				t.Fatalf("%d labels named %q", n, want)
			}
		})
	}
}
