package policy

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestParseQuota(t *testing.T) {
	for _, c := range []struct {
		in       string
		limit    int
		perIssue bool
		window   time.Duration
		bad      bool
	}{
		{in: "20/h", limit: 20, window: time.Hour},
		{in: "1/issue/h", limit: 1, perIssue: true, window: time.Hour},
		{in: "100/d", limit: 100, window: 24 * time.Hour},
		{in: "5/30m", limit: 5, window: 30 * time.Minute},
		{in: "0/m", limit: 0, window: time.Minute},
		{in: "20", bad: true},
		{in: "20/repo/h", bad: true},
		{in: "-1/h", bad: true},
		{in: "x/h", bad: true},
		{in: "5/100ms", bad: true},
		{in: "5/1.0005s", bad: true},
		{in: "2000000000000000/h", bad: true},
	} {
		q, err := parseQuota(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("%q: parsed as %+v, want an error", c.in, q)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if q.Limit != c.limit {
			t.Errorf("%q: Limit = %d, want %d", c.in, q.Limit, c.limit)
		}
		if q.PerIssue != c.perIssue {
			t.Errorf("%q: PerIssue = %v, want %v", c.in, q.PerIssue, c.perIssue)
		}
		if q.Window != c.window {
			t.Errorf("%q: Window = %s, want %s", c.in, q.Window, c.window)
		}
	}
}

func TestRulesValidateNamesTheMistake(t *testing.T) {
	for _, c := range []struct {
		r    Rules
		want string
	}{
		{Rules{Quotas: map[Kind][]string{"comments": {"1/h"}}}, `"comments" is not a kind`},
		{Rules{Quotas: map[Kind][]string{KindComment: {"1/week"}}}, "policy.quotas.comment"},
		{Rules{Deny: []Kind{"erase"}}, `"erase" is not a kind`},
		{Rules{AllowedLabels: []string{"[bug"}}, "bad pattern"},
		{Rules{Confirm: Confirm{Unavailable: "ignore"}}, "policy.confirm.unavailable"},
		{Rules{Flow: Flow{Allow: []string{"acme/private"}}}, "policy.flow.allow"},
	} {
		err := c.r.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.r, err, c.want)
		}
	}
	if err := (Rules{Quotas: map[Kind][]string{KindComment: {"20/h", "1/issue/h"}}, AllowedLabels: []string{"area: *"}}).Validate(); err != nil {
		t.Errorf("a good policy: %v", err)
	}
}

func TestTicketAdmitsOnlyDeclaredRepositories(t *testing.T) {
	tk := newTicket([]Write{{Kind: KindLink, Target: Target{Owner: "Acme", Repo: "Widgets", Number: 1},
		Touches: []Target{{Owner: "acme", Repo: "gadgets", Number: 2}}}})
	for _, c := range []struct {
		method, path string
		want         bool
	}{
		{"POST", "/repos/acme/widgets/issues/1/sub_issues", true},
		{"POST", "/api/v3/repos/ACME/WIDGETS/issues/1/comments", true},
		{"DELETE", "/repos/acme/gadgets/issues/2/dependencies/blocked_by/9", true},
		{"POST", "/repos/acme/other/issues", false},
		{"POST", "/repos/acme", false},
		{"PUT", "/user/starred/acme/widgets", false},
		{"POST", "/graphql", true},
		{"POST", "/api/graphql", true},
	} {
		if got := tk.Admits(c.method, c.path); got != c.want {
			t.Errorf("%s %s: admitted %v, want %v", c.method, c.path, got, c.want)
		}
	}
}

// A yes is bound to the arguments and spent by one write.
func TestConfirmationIsBoundAndSpentOnce(t *testing.T) {
	cf, err := NewConfirmations([]byte(strings.Repeat("s", 32)), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &Path{Confirmations: cf, Rules: Rules{Confirm: Confirm{Tools: []string{"t"}}}}
	body := "hello"
	call := func(args string, a *Answer) (bool, *Ask) {
		t.Helper()
		ctx, d, e := p.Admit(context.Background(), Call{Tool: "t", Arguments: []byte(args), Answer: a, CanElicit: true,
			Writes: []Write{{Kind: KindComment, Target: Target{Owner: "o", Repo: "r", Number: 1}, Text: Str("body", &body)}}})
		if e != nil {
			t.Fatalf("%s: %v", args, e)
		}
		_, admitted := TicketFrom(ctx)
		return admitted, d.Ask
	}
	asked := func(what string, ok bool, ask *Ask) {
		t.Helper()
		if ok {
			t.Fatalf("%s: admitted, want a question first", what)
		}
		if ask == nil {
			t.Fatalf("%s: refused without a question, want one", what)
		}
	}
	ok, ask := call(`{"n":1}`, nil)
	asked("first round", ok, ask)
	if !strings.Contains(ask.Message, "o/r#1") {
		t.Fatalf("first round: question %q, want one naming o/r#1", ask.Message)
	}
	yes := &Answer{Action: "accept", Confirmed: true, State: ask.State}
	ok, ask = call(`{"n":2}`, yes)
	asked("a yes given for other arguments", ok, ask)
	if ok, _ := call(`{"n":1}`, yes); !ok {
		t.Fatalf("the yes did not admit the call it was given for")
	}
	ok, ask = call(`{"n":1}`, yes)
	asked("the same yes for a second write", ok, ask)
	ok, ask = call(`{"n":1}`, &Answer{Action: "accept", Confirmed: true, State: "forged"})
	asked("a forged state", ok, ask)
}
