package issues_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Under 10% of the rate budget, results say how much is left; once it is
// spent, the error says when to retry.
func TestRateBudgetIsReportedBeforeItRunsOut(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{CoreLimit: 40}, MaxReadRetries: -1})
	var warned bool
	for i := 1; i <= 45; i++ {
		res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(i), Detail: "summary"})
		if res.IsError {
			e := res.Envelope(t)
			if !contracttest.Code(t, fmt.Sprintf("call %d", i), e, contract.CodeRateLimited) {
				t.FailNow()
			}
			if e.RetryAfterMS == nil || *e.RetryAfterMS <= 0 {
				t.Fatalf("call %d: retry_after_ms = %s, want > 0", i, ptr(e.RetryAfterMS))
			}
			if !e.Temporary {
				t.Fatalf("call %d: temporary = false, want true", i)
			}
			if !warned {
				t.Fatal("the budget ran out without a rate_limit_remaining warning first, want one")
			}
			return
		}
		var out issues.GetIssueOut
		res.Decode(t, &out)
		if out.RateLimitRemaining != nil {
			if *out.RateLimitRemaining*10 >= 40 {
				t.Fatalf("call %d: warned with %d of 40 left, want the warning under 10%% (< 4)", i, *out.RateLimitRemaining)
			}
			warned = true
		} else if warned {
			t.Fatalf("call %d: rate_limit_remaining absent after a warning, want it still there", i)
		}
	}
	t.Fatal("the budget never ran out in 45 calls, want rate_limited within them")
}

func TestCredentialFailuresAreNamed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		token string
		code  contract.Code
	}{
		{"-", contract.CodeMissingCredential},
		{"emu-revoked", contract.CodeInvalidCredential},
	} {
		t.Run(c.token, func(t *testing.T) {
			t.Parallel()
			env := servertest.Start(t, servertest.Options{Token: c.token})
			e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: firstIssue}).Envelope(t)
			if e.Code != c.code {
				t.Errorf("token %q: code = %q (%q), want %q", c.token, e.Code, e.Message, c.code)
			}
			if e.Repair == nil {
				t.Errorf("token %q: repair = nil, want one", c.token)
			}
		})
	}
	// carol can read (and, as on GitHub, comment) but not label: the write
	// fails as insufficient_scope.
	env := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenCarol})
	e := env.Call(t, toolkit.NameUpdateIssue, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"labels":{"add":["question"]}}`, plainIssue)).Envelope(t)
	if !contracttest.Code(t, "write without permission", e, contract.CodeInsufficientScope) {
		t.FailNow()
	}
	if e.Settlement == "" {
		t.Fatalf("write without permission: settlement is empty, want one on a write")
	}
	// The envelope names the permission the call needs.
	if e.Details == nil {
		t.Fatalf("insufficient_scope: details = nil, want required_scopes")
	}
	if !slices.Contains(e.Details.RequiredScopes, "issues=write") {
		t.Fatalf("insufficient_scope: details.required_scopes = %q, want issues=write among them", e.Details.RequiredScopes)
	}
}
