package issues_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// relatedRows lists an issue's related issues through the tool, as
// "repo#number" ("#number" in the issue's own repository).
func relatedRows(t *testing.T, env *servertest.Env, owner, repo string, number int) []string {
	t.Helper()
	out := servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems,
		issues.ListIssueItemsIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(number), Collection: "related"})
	var rows []string
	for _, it := range out.Items {
		if it.Title == "" {
			t.Errorf("related row %s#%d: title is empty, want one", it.Repo, it.Number)
		}
		if it.State == "" {
			t.Errorf("related row %s#%d: state is empty, want one", it.Repo, it.Number)
		}
		rows = append(rows, fmt.Sprintf("%s#%d", it.Repo, it.Number))
	}
	return rows
}

// Relating two issues shows the link on both; a repeat, from either side,
// is a no-op that says so and writes nothing; unlinking from the other
// side removes it from both; unlinking an absent link is a no-op without a
// write. Neither issue's body is touched.
func TestLinkRelatedIssues(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	a, b := emulator.DemoTriageIssue, emulator.DemoBlockerIssue
	var bodyA, bodyB string
	withState(env, func(*emulator.State) {
		bodyA, bodyB = *widgets(env).Issue(a).Body, *widgets(env).Issue(b).Body
	})
	in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(a), Relation: "related", Action: "add", TargetIssueNumber: toolkit.IssueNumber(b)}
	related := issues.LinkRelation{Issue: widgetsRef(a), RelatedTo: widgetsRef(b), Linked: true}
	env.Upstream()
	wantStands(t, link(t, env, in), false, related, fmt.Sprintf("acme/widgets#%d and acme/widgets#%d are now related, shown on both", a, b))
	wantUpstream(t, env, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", b), fmt.Sprintf("GET /repos/acme/widgets/issues/%d/related", a),
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/related", a))
	if ra := relatedRows(t, env, "acme", "widgets", a); !slices.Equal(ra, []string{fmt.Sprint("#", b)}) {
		t.Fatalf("related of #%d = %q, want [#%d]", a, ra, b)
	}
	if rb := relatedRows(t, env, "acme", "widgets", b); !slices.Equal(rb, []string{fmt.Sprint("#", a)}) {
		t.Fatalf("related of #%d = %q, want [#%d]", b, rb, a)
	}
	env.Upstream()
	wantStands(t, link(t, env, in), true, related, fmt.Sprintf("acme/widgets#%d and acme/widgets#%d are already related", a, b))
	reverse := in
	reverse.IssueNumber, reverse.TargetIssueNumber = in.TargetIssueNumber, in.IssueNumber
	if out := link(t, env, reverse); !out.NoOp {
		t.Fatalf("repeat from the other side: no_op = false, want true: %+v", out)
	}
	for _, u := range env.Upstream() {
		if !strings.HasPrefix(u, "GET ") {
			t.Errorf("upstream call %s on a no-op, want only reads", u)
		}
	}
	reverse.Action = "remove"
	// From the other side, the relation is named from that side.
	unrelated := issues.LinkRelation{Issue: widgetsRef(b), RelatedTo: widgetsRef(a)}
	wantStands(t, link(t, env, reverse), false, unrelated, fmt.Sprintf("acme/widgets#%d and acme/widgets#%d are no longer related, on either", b, a))
	if ra, rb := relatedRows(t, env, "acme", "widgets", a), relatedRows(t, env, "acme", "widgets", b); len(ra)+len(rb) != 0 {
		t.Fatalf("after removal: related of #%d = %q, of #%d = %q, want none", a, ra, b, rb)
	}
	env.Upstream()
	wantStands(t, link(t, env, reverse), true, unrelated, fmt.Sprintf("acme/widgets#%d and acme/widgets#%d were not related", b, a))
	wantUpstream(t, env, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", a), fmt.Sprintf("GET /repos/acme/widgets/issues/%d/related", b))
	withState(env, func(*emulator.State) {
		if got := *widgets(env).Issue(a).Body; got != bodyA {
			t.Errorf("#%d body = %q, want %q unchanged by a related-link edit", a, got, bodyA)
		}
		if got := *widgets(env).Issue(b).Body; got != bodyB {
			t.Errorf("#%d body = %q, want %q unchanged by a related-link edit", b, got, bodyB)
		}
	})

	self := in
	self.TargetIssueNumber = self.IssueNumber
	if e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, self), true); e.Code != contract.CodeSelfLink {
		t.Errorf("self link: code = %q, want %q: %+v", e.Code, contract.CodeSelfLink, e)
	}
	reorder := in
	reorder.Action = "reorder"
	reorder.AfterIssueNumber = 1
	if e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, reorder), true); e.Code != contract.CodeInvalidField {
		t.Errorf("reorder a related link: code = %q, want %q: %+v", e.Code, contract.CodeInvalidField, e)
	}
}

// A related issue in another repository is named by target_owner and
// target_repo, shows on both, and its row names its repository.
func TestLinkRelatedAcrossRepositories(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var other int
	withState(env, func(s *emulator.State) {
		for _, is := range s.Repo(emulator.DemoOrg, emulator.DemoGadgetsRepo).Issues {
			if !is.IsPull && !is.Deleted {
				other = is.Number
				break
			}
		}
	})
	in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoTriageIssue, Relation: "related", Action: "add",
		TargetIssueNumber: toolkit.IssueNumber(other), TargetRepo: emulator.DemoGadgetsRepo}
	if out := link(t, env, in); out.NoOp {
		t.Fatalf("add: no_op = true, want false: %+v", out)
	}
	if rows := relatedRows(t, env, "acme", "widgets", emulator.DemoTriageIssue); !slices.Equal(rows, []string{fmt.Sprintf("acme/gadgets#%d", other)}) {
		t.Fatalf("related of widgets#%d = %q, want [acme/gadgets#%d]", emulator.DemoTriageIssue, rows, other)
	}
	if rows := relatedRows(t, env, "acme", "gadgets", other); !slices.Equal(rows, []string{fmt.Sprintf("acme/widgets#%d", emulator.DemoTriageIssue)}) {
		t.Fatalf("related of gadgets#%d = %q, want [acme/widgets#%d]", other, rows, emulator.DemoTriageIssue)
	}
	out := link(t, env, in)
	if !out.NoOp {
		t.Fatalf("repeat: no_op = false, want true: %+v", out)
	}
	if !strings.Contains(out.Note, "acme/gadgets#") {
		t.Fatalf("repeat: note = %q, want one naming acme/gadgets#", out.Note)
	}
	missing := in
	missing.TargetIssueNumber = 99999
	e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, missing), true)
	contracttest.Envelope(t, "", e, contract.CodeIssueNotFound, contract.NotStarted)
}

// Where the server does not serve related issues, both tools answer
// related_issues_unsupported, settled not_started for the write, with a
// literal repair; nothing is written and no body changes. A GitHub
// Enterprise Server version answers the 2026-03-10 request 400; a server
// that knows the version but not the endpoint answers 404 on it.
func TestRelatedIssuesUnsupported(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		opts  emulator.Options
		fault bool
	}{
		{"ghes version", emulator.Options{GHESVersion: "3.20"}, false},
		{"endpoint missing", emulator.Options{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env := servertest.Start(t, servertest.Options{Emulator: c.opts})
			a, b := emulator.DemoTriageIssue, emulator.DemoBlockerIssue
			if c.fault {
				addFault(t, env, emulator.Fault{Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/related", a), Kind: emulator.FaultStatus, Status: 404})
			}
			var body string
			withState(env, func(*emulator.State) { body = *widgets(env).Issue(a).Body })
			env.Upstream()
			in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(a), Relation: "related", Action: "add", TargetIssueNumber: toolkit.IssueNumber(b)}
			e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, in), true)
			if e.Settlement != contract.NotStarted {
				t.Errorf("link: settlement = %q, want %q", e.Settlement, contract.NotStarted)
			}
			contracttest.Code(t, "", e, contract.CodeRelatedIssuesUnsupported)
			contracttest.MustRepair(t, "", e.Repair, toolkit.NameListIssueItems)
			for _, u := range env.Upstream() {
				if !strings.HasPrefix(u, "GET ") {
					t.Errorf("upstream call %s on an unsupported link, want only reads", u)
				}
			}
			e = wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems,
				issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(a), Collection: "related"}), false)
			if e.Code != contract.CodeRelatedIssuesUnsupported {
				t.Fatalf("list: code = %q, want %q: %+v", e.Code, contract.CodeRelatedIssuesUnsupported, e)
			}
			withState(env, func(*emulator.State) {
				is := widgets(env).Issue(a)
				if len(is.Related) != 0 {
					t.Errorf("unsupported: related = %v, want none", is.Related)
				}
				if *is.Body != body {
					t.Errorf("unsupported: body = %q, want %q unchanged", *is.Body, body)
				}
			})
			// A missing issue is still issue_not_found, not unsupported.
			e = wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems,
				issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: 99999, Collection: "related"}), false)
			if c.fault && e.Code != contract.CodeIssueNotFound {
				t.Errorf("missing issue: code = %q, want %q: %+v", e.Code, contract.CodeIssueNotFound, e)
			}
		})
	}
}
