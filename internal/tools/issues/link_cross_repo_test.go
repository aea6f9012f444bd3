package issues_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// target_owner and target_repo name an issue in another repository: a
// sub-issue and a blocker there are linked as GitHub links them, a repeat
// is a no-op that names the other repository, and a target missing there
// is refused before any write.
func TestLinkIssuesAcrossRepositories(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var other int
	withState(env, func(s *emulator.State) {
		for _, is := range s.Repo(emulator.DemoOrg, emulator.DemoGadgetsRepo).Issues {
			if !is.IsPull && !is.Deleted && is.Parent == nil && is.State == "open" {
				other = is.Number
				break
			}
		}
	})
	if other == 0 {
		t.Fatal("no open issue without a parent in acme/gadgets, want one")
	}
	in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Relation: "sub_issue", Action: "add",
		TargetIssueNumber: toolkit.IssueNumber(other), TargetRepo: emulator.DemoGadgetsRepo}
	gadgets := fmt.Sprintf("acme/gadgets#%d", other)
	child := issues.LinkRelation{Parent: widgetsRef(emulator.DemoParentIssue), SubIssue: gadgets, Linked: true}
	wantStands(t, link(t, env, in), false, child, fmt.Sprintf("%s is now a sub-issue of acme/widgets#%d", gadgets, emulator.DemoParentIssue))
	withState(env, func(s *emulator.State) {
		p := s.Repo(emulator.DemoOrg, emulator.DemoGadgetsRepo).Issue(other).Parent
		if p == nil {
			t.Fatalf("acme/gadgets#%d's parent = nil, want acme/widgets#%d", other, emulator.DemoParentIssue)
		}
		if p.Number != emulator.DemoParentIssue {
			t.Fatalf("acme/gadgets#%d's parent = #%d, want #%d", other, p.Number, emulator.DemoParentIssue)
		}
		if p.Repo.Name != emulator.DemoWidgetsRepo {
			t.Fatalf("acme/gadgets#%d's parent is in %q, want %q", other, p.Repo.Name, emulator.DemoWidgetsRepo)
		}
	})
	wantStands(t, link(t, env, in), true, child, fmt.Sprintf("%s is already a sub-issue of acme/widgets#%d", gadgets, emulator.DemoParentIssue))

	// The direction is in the field names and the sentence: the issue
	// named by issue_number is blocked by the one in the other repository.
	blocked := in
	blocked.IssueNumber, blocked.Relation = emulator.DemoUntriagedFrom, "blocked_by"
	blockedBy := issues.LinkRelation{Issue: widgetsRef(emulator.DemoUntriagedFrom), BlockedBy: gadgets, Linked: true}
	wantStands(t, link(t, env, blocked), false, blockedBy, fmt.Sprintf("acme/widgets#%d is now blocked by %s", emulator.DemoUntriagedFrom, gadgets))
	withState(env, func(s *emulator.State) {
		bs := widgets(env).Issue(emulator.DemoUntriagedFrom).BlockedBy
		if len(bs) != 1 {
			t.Fatalf("acme/widgets#%d blocked by %d issues, want 1: %v", emulator.DemoUntriagedFrom, len(bs), bs)
		}
		if bs[0].Number != other {
			t.Fatalf("acme/widgets#%d blocked by #%d, want #%d", emulator.DemoUntriagedFrom, bs[0].Number, other)
		}
		if bs[0].Repo.Name != emulator.DemoGadgetsRepo {
			t.Fatalf("acme/widgets#%d's blocker is in %q, want %q", emulator.DemoUntriagedFrom, bs[0].Repo.Name, emulator.DemoGadgetsRepo)
		}
	})
	wantStands(t, link(t, env, blocked), true, blockedBy, fmt.Sprintf("acme/widgets#%d is already blocked by %s", emulator.DemoUntriagedFrom, gadgets))

	missing := in
	missing.TargetIssueNumber = 99999
	e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, missing), true)
	if !contracttest.Envelope(t, "missing target", e, contract.CodeIssueNotFound, contract.NotStarted) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, "acme/gadgets#99999") {
		t.Fatalf("missing target: message = %q, want it to name acme/gadgets#99999", e.Message)
	}
}
