package issues_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
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
			if e.Code != contract.CodeRateLimited || e.RetryAfterMS == nil || *e.RetryAfterMS <= 0 || !e.Temporary {
				t.Fatalf("call %d: %+v", i, e)
			}
			if !warned {
				t.Fatal("the budget ran out without a rate_limit_remaining warning first")
			}
			return
		}
		var out issues.GetIssueOut
		res.Decode(t, &out)
		if out.RateLimitRemaining != nil {
			if *out.RateLimitRemaining*10 >= 40 {
				t.Fatalf("call %d: warned with %d of 40 left", i, *out.RateLimitRemaining)
			}
			warned = true
		} else if warned {
			t.Fatalf("call %d: the warning disappeared", i)
		}
	}
	t.Fatal("the budget never ran out")
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
			if e.Code != c.code || e.Repair == nil {
				t.Errorf("token %q: %+v", c.token, e)
			}
		})
	}
	// carol can read (and, as on GitHub, comment) but not label: the write
	// fails as insufficient_scope.
	env := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenCarol})
	e := env.Call(t, toolkit.NameUpdateIssue, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"labels":{"add":["question"]}}`, plainIssue)).Envelope(t)
	if e.Code != contract.CodeInsufficientScope || e.Settlement == "" {
		t.Fatalf("write without permission: %+v", e)
	}
	// The envelope names the permission the call needs.
	if e.Details == nil || !slices.Contains(e.Details.RequiredScopes, "issues=write") {
		t.Fatalf("insufficient_scope without details.required_scopes: %+v", e.Details)
	}
}
