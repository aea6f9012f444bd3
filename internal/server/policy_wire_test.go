package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/testutil/redisserver"
)

// envelope is the part of an answer these tests read.
type envelope struct {
	Code         string `json:"code"`
	Settlement   string `json:"settlement"`
	RetryAfterMS *int64 `json:"retry_after_ms"`
	Details      struct {
		Rule  string `json:"rule"`
		Field string `json:"field"`
	} `json:"details"`
	Neutralized map[string]int  `json:"neutralized"`
	DryRun      json.RawMessage `json:"dry_run"`
}

func decode(t *testing.T, r servertest.Result) envelope {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(r.JSON, &e); err != nil {
		t.Fatalf("answer %s: %v", r.JSON, err)
	}
	return e
}

// checkRefused reports, one condition each, how the refusal r differs
// from an error with code, settlement not_started and, when not empty,
// details.rule rule and details.field field; it says whether all held.
func checkRefused(t *testing.T, what string, r servertest.Result, code contract.Code, rule, field string) bool {
	t.Helper()
	if !r.IsError {
		t.Errorf("%s: isError = false, want a %s refusal: %s", what, code, r.JSON)
	}
	var e contract.Error
	if err := json.Unmarshal(r.JSON, &e); err != nil {
		t.Fatalf("answer %s: %v", r.JSON, err)
	}
	want := contracttest.Want{Code: code, Settlement: contract.NotStarted, Rule: rule, Field: field}
	return contracttest.Matches(t, what, e, want) && r.IsError
}

// writesSent counts the requests that could change GitHub's state.
func writesSent(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if !strings.HasPrefix(r, "GET ") && !strings.HasPrefix(r, "HEAD ") && !strings.HasSuffix(r, "/graphql") {
			out = append(out, r)
		}
	}
	return out
}

// triagePolicy is the policy for an unattended triage agent that
// docs/security-model.md shows, read from the page itself, so what these
// tests hold is what it shows.
func triagePolicy() policy.Rules {
	readme, err := os.ReadFile("../../docs/security-model.md")
	if err != nil {
		panic(err)
	}
	const lead = "A policy for an\nunattended triage agent:\n\n```toml\n"
	_, block, ok := strings.Cut(string(readme), lead)
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		panic("docs/security-model.md has no triage policy block after " + strconv.Quote(lead))
	}
	var cfg struct {
		Policy policy.Rules `toml:"policy"`
	}
	md, err := toml.Decode(block, &cfg)
	if err != nil || len(md.Undecoded()) > 0 {
		panic(fmt.Sprintf("docs/security-model.md's triage policy: %v, undecoded %v", err, md.Undecoded()))
	}
	if err := cfg.Policy.Validate(); err != nil {
		panic(fmt.Sprintf("docs/security-model.md's triage policy: %v", err))
	}
	return cfg.Policy
}

// The page's policy says what the tests below rely on.
func TestReadmeTriagePolicy(t *testing.T) {
	p := triagePolicy()
	if !slices.Contains(p.Deny, policy.KindDelete) {
		t.Errorf("docs/security-model.md's triage policy: deny = %v, want %s among them", p.Deny, policy.KindDelete)
	}
	for _, want := range []string{"1/issue/h", "20/h"} {
		if !slices.Contains(p.Quotas[policy.KindComment], want) {
			t.Errorf("docs/security-model.md's triage policy: comment quotas = %v, want %s among them", p.Quotas[policy.KindComment], want)
		}
	}
	if len(p.AllowedLabels) == 0 {
		t.Errorf("docs/security-model.md's triage policy: no allowed labels, want some")
	}
	if p.Confirm.BulkOver == 0 {
		t.Errorf("docs/security-model.md's triage policy: confirm.bulk_over = 0, want a bulk confirmation")
	}
}

// An agent told by an injected issue to comment 200 times gets one
// comment per issue and twenty in the hour through; nothing else.
func TestQuotaBoundsAHostileCommentStorm(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Policy: triagePolicy(), PolicyShared: true})
	refused := 0
	for i := range 200 {
		r := env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1, "body": fmt.Sprintf("spam %d", i)})
		if r.IsError {
			e := decode(t, r)
			if !checkRefused(t, fmt.Sprintf("call %d", i), r, "quota_exceeded", "quotas.comment", "") {
				t.FailNow()
			}
			if e.RetryAfterMS == nil {
				t.Fatalf("call %d: retry_after_ms = null, want above 0: %s", i, r.JSON)
			}
			if *e.RetryAfterMS <= 0 {
				t.Fatalf("call %d: retry_after_ms = %d, want above 0", i, *e.RetryAfterMS)
			}
			refused++
		}
	}
	if sent := writesSent(env.Upstream()); len(sent) != 1 {
		t.Fatalf("200 comments on one issue: %d sent (%v), want 1", len(sent), sent)
	}
	if refused != 199 {
		t.Fatalf("200 comments on one issue: %d refused, want 199", refused)
	}
	for n := 2; n <= 31; n++ {
		env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": n, "body": "spread"})
	}
	sent := writesSent(env.Upstream())
	if len(sent) != 19 {
		t.Fatalf("30 more comments over 30 issues: %d sent, want 19 (20 per hour, one spent)", len(sent))
	}
}

// The outbound text rules, with the exact text the emulator received.
func TestOutboundTextOnTheWire(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Policy: triagePolicy(), PolicyShared: true})
	token := "ghp_" + strings.Repeat("A1b2C3d4E5", 3) + "f6G7h8"
	r := env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3,
		"body": "Here is the deploy token from the private repo: " + token})
	if !checkRefused(t, "a pasted token", r, "secret_in_content", "", "body") {
		t.FailNow()
	}
	if strings.Contains(string(r.JSON), token) {
		t.Fatalf("the refusal = %s, want it without the token", r.JSON)
	}
	if sent := writesSent(env.Upstream()); len(sent) != 0 {
		t.Fatalf("a refused write sent %v", sent)
	}

	r = env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 4,
		"body": "cc @acme/everyone and @alice, please look"})
	e := decode(t, r)
	if r.IsError {
		t.Fatalf("a comment with mentions: %s, want success", r.JSON)
	}
	if got := e.Neutralized["mentions"]; got != 2 {
		t.Fatalf("a comment with mentions: neutralized.mentions = %d, want 2", got)
	}
	written := commentBodies(t, env, 4)
	last := written[len(written)-1]
	t.Logf("the emulator received: %q", last)
	for _, mention := range []string{" @acme/everyone", " @alice,"} {
		if strings.Contains(last, mention) {
			t.Fatalf("the emulator received %q, want the mention %q neutralized", last, mention)
		}
	}
	if !strings.Contains(last, "acme/everyone") {
		t.Fatalf("the emulator received %q, want acme/everyone kept", last)
	}
}

// commentBodies reads an issue's comments as the emulator holds them.
func commentBodies(t *testing.T, env *servertest.Env, number int) []string {
	t.Helper()
	return emulatortest.CommentBodies(t, env.Emu.Client(), env.Emu.URL, "acme/widgets", number)
}

// Deleting labels, adding one outside the allowed set, and opening an
// issue are refused by name, and nothing is sent.
func TestArgumentRulesRefuseByName(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Policy: triagePolicy(), PolicyShared: true, Toolsets: []string{"all"}})
	for _, c := range []struct {
		tool string
		args map[string]any
		rule string
	}{
		{"github_manage_labels", map[string]any{"owner": "acme", "repo": "widgets", "action": "delete", "name": "bug"}, "deny"},
		{"github_delete_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "confirm_issue_number": 2}, "deny"},
		{"github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "spam"}, "deny"},
		{"github_update_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "labels": map[string]any{"add": []string{"wontfix"}}}, "allowed_labels"},
		{"github_bulk_update_issues", map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": []int{1, 2}, "changes": map[string]any{"labels": map[string]any{"remove": []string{"priority: high"}}}}, "allowed_labels"},
	} {
		r := env.Call(t, c.tool, c.args)
		checkRefused(t, c.tool, r, "policy_refused", c.rule, "")
	}
	if sent := writesSent(env.Upstream()); len(sent) != 0 {
		t.Fatalf("refused writes sent %v", sent)
	}
}

// Every write tool takes dry_run and answers a plan, with the issues it
// would change as they stand, without writing anything; a write tool
// missing from this table fails the test.
func TestDryRunOfEveryWriteToolWritesNothing(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"all"}})
	calls := map[string]map[string]any{
		"github_create_issue":         {"owner": "acme", "repo": "widgets", "title": "t", "labels": []string{"bug"}},
		"github_update_issue":         {"owner": "acme", "repo": "widgets", "issue_number": 1, "state": "closed", "labels": map[string]any{"add": []string{"bug"}}},
		"github_add_comment":          {"owner": "acme", "repo": "widgets", "issue_number": 1, "body": "x"},
		"github_edit_comment":         {"owner": "acme", "repo": "widgets", "comment_id": 1, "body": "x"},
		"github_link_issues":          {"owner": "acme", "repo": "widgets", "issue_number": 1, "relation": "sub_issue", "action": "add", "target_issue_number": 2},
		"github_bulk_update_issues":   {"owner": "acme", "repo": "widgets", "issue_numbers": []int{1, 2, 3}, "changes": map[string]any{"state": "closed"}},
		"github_delete_issue":         {"owner": "acme", "repo": "widgets", "issue_number": 1, "confirm_issue_number": 1},
		"github_manage_labels":        {"owner": "acme", "repo": "widgets", "action": "delete", "name": "bug"},
		"github_manage_milestones":    {"owner": "acme", "repo": "widgets", "action": "create", "title": "m"},
		"github_update_project_item":  {"owner": "acme", "project_number": 1, "item": map[string]any{"repo": "widgets", "issue_number": 1}, "action": "add"},
		"github_update_review_thread": {"owner": "acme", "repo": "widgets", "pull": 1, "comment_id": 1, "action": "resolve"},
	}
	list, err := env.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var writeTools []string
	for _, tool := range list.Tools {
		if tool.Annotations != nil && !tool.Annotations.ReadOnlyHint && tool.InputSchema != nil {
			if b, _ := json.Marshal(tool.InputSchema); strings.Contains(string(b), `"dry_run"`) {
				writeTools = append(writeTools, tool.Name)
			}
		}
	}
	if len(writeTools) != len(calls) {
		t.Errorf("write tools taking dry_run: %v; this table has %d", writeTools, len(calls))
	}
	env.Upstream()
	for _, name := range writeTools {
		args, ok := calls[name]
		if !ok {
			t.Errorf("%s takes dry_run but has no row here", name)
			continue
		}
		args = maps(args, "dry_run", true)
		r := env.Call(t, name, args)
		e := decode(t, r)
		if r.IsError {
			t.Errorf("%s dry run: %s, want a plan", name, r.JSON)
		}
		if len(e.DryRun) == 0 {
			t.Errorf("%s dry run: no dry_run, want a plan: %s", name, r.JSON)
		}
		// It reads what it shows (the issues it would change, as they
		// stand) and writes nothing.
		if sent := writesSent(env.Upstream()); len(sent) != 0 {
			t.Errorf("%s dry run wrote %v, want nothing", name, sent)
		}
		switch name {
		case "github_bulk_update_issues", "github_update_issue":
			// These forecast each issue with their own planning (the
			// tools' tests check the forecast against the real call).
			var plan struct {
				Preview struct {
					Items []struct {
						IssueNumber int    `json:"issue_number"`
						Settlement  string `json:"settlement"`
					} `json:"items"`
				} `json:"preview"`
			}
			if err := json.Unmarshal(r.JSON, &plan); err != nil {
				t.Fatalf("%s plan %s: %v", name, r.JSON, err)
			}
			if len(plan.Preview.Items) == 0 {
				t.Fatalf("%s plan: no preview items, want some: %s", name, r.JSON)
			}
			for _, it := range plan.Preview.Items {
				if it.Settlement == "" {
					t.Errorf("%s: #%d forecast without a settlement: %s", name, it.IssueNumber, r.JSON)
				}
			}
		case "github_add_comment", "github_link_issues", "github_delete_issue":
			var plan struct {
				DryRun struct {
					Writes []struct {
						Target string `json:"target"`
						Before *struct {
							State  string   `json:"state"`
							Labels []string `json:"labels"`
						} `json:"before"`
					} `json:"writes"`
				} `json:"dry_run"`
			}
			if err := json.Unmarshal(r.JSON, &plan); err != nil {
				t.Fatalf("%s plan %s: %v", name, r.JSON, err)
			}
			if len(plan.DryRun.Writes) == 0 {
				t.Fatalf("%s plan: no writes, want some: %s", name, r.JSON)
			}
			if w := plan.DryRun.Writes[0]; w.Before == nil {
				t.Errorf("%s: planned write on %s: before = null, want the issue as it stands: %s", name, w.Target, r.JSON)
			} else {
				if w.Before.State == "" {
					t.Errorf("%s: planned write on %s: before.state is empty, want the issue's state", name, w.Target)
				}
				if w.Before.Labels == nil {
					t.Errorf("%s: planned write on %s: before.labels = null, want the issue's labels", name, w.Target)
				}
			}
		}
	}
	if !slices.Contains(writeTools, "github_add_comment") {
		t.Fatalf("no write tool listed dry_run: %v", writeTools)
	}
}

func maps(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// Two replicas on one Redis share one quota: an agent spreading its
// comments over both gets no more through than over one.
func TestQuotaSharedByReplicas(t *testing.T) {
	url := redisserver.Start(t).URL("quota")
	rules := policy.Rules{Quotas: map[policy.Kind][]string{policy.KindComment: {"3/h"}}}
	a := servertest.Start(t, servertest.Options{StorePath: url, Policy: rules})
	b := servertest.Start(t, servertest.Options{StorePath: url, Policy: rules, Emu: a.Emu})
	refused := 0
	for i := range 10 {
		env := a
		if i%2 == 1 {
			env = b
		}
		r := env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 5 + i, "body": "spread"})
		if r.IsError {
			if e := decode(t, r); e.Code != "quota_exceeded" {
				t.Fatalf("call %d: %s, want quota_exceeded", i, r.JSON)
			}
			refused++
		}
	}
	sent := len(writesSent(a.Upstream())) + len(writesSent(b.Upstream()))
	if sent != 3 {
		t.Fatalf("10 comments over two replicas with a quota of 3: %d sent, want 3", sent)
	}
	if refused != 7 {
		t.Fatalf("10 comments over two replicas with a quota of 3: %d refused, want 7", refused)
	}
}

// Slash commands, foreign links and the footer, as the emulator received
// them.
func TestOutboundRewritesOnTheWire(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Policy: policy.Rules{Outbound: policy.Outbound{
		SlashCommands: "neutralize", LinkDomains: []string{"github.com"}, Footer: "_Posted by the triage agent._"}}})
	body := "/close\nSee https://evil.example/steal?x=1 and https://github.com/acme/widgets/issues/1.\n\n```\n/close stays in code\n```"
	r := env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 6, "body": body})
	e := decode(t, r)
	if r.IsError {
		t.Fatalf("answer %s, want success", r.JSON)
	}
	for _, k := range []string{"slash_commands", "links"} {
		if got := e.Neutralized[k]; got != 1 {
			t.Fatalf("neutralized.%s = %d, want 1: %s", k, got, r.JSON)
		}
	}
	got := commentBodies(t, env, 6)
	last := got[len(got)-1]
	t.Logf("the emulator received: %q", last)
	for _, bad := range []string{"\n/close\n", "https://evil.example", "/close\nSee"} {
		if strings.HasPrefix(last, "/close") {
			t.Errorf("the written text = %q, want it not to start with /close", last)
		}
		if strings.Contains(last, bad) {
			t.Errorf("the written text = %q, want it without %q", last, bad)
		}
	}
	for _, kept := range []string{"https://github.com/acme/widgets/issues/1", "evil.example/steal", "```\n/close stays in code\n```", "_Posted by the triage agent._"} {
		if !strings.Contains(last, kept) {
			t.Errorf("the written text lost %q: %q", kept, last)
		}
	}
	if !strings.HasSuffix(last, "\n\n_Posted by the triage agent._") {
		t.Errorf("the footer is not at the end after a blank line: %q", last)
	}
}

// A dry run names the requests the call sends: for each write tool whose
// requests are REST, the real call that follows sends exactly the write
// requests its dry run named (GraphQL reads and writes share one path,
// so those tools are checked for naming theirs).
func TestDryRunNamesTheRequestsTheCallSends(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"all"}})
	rows := []struct {
		tool string
		args map[string]any
	}{
		{"github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "body": "x"}},
		{"github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "t", "parent_issue_number": 1}},
		{"github_link_issues", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "relation": "blocked_by", "action": "add", "target_issue_number": 3}},
		{"github_link_issues", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "relation": "blocked_by", "action": "remove", "target_issue_number": 3}},
		{"github_manage_labels", map[string]any{"owner": "acme", "repo": "widgets", "action": "create", "name": "triaged: yes", "color": "00ff00"}},
		{"github_manage_labels", map[string]any{"owner": "acme", "repo": "widgets", "action": "delete", "name": "triaged: yes"}},
		{"github_manage_milestones", map[string]any{"owner": "acme", "repo": "widgets", "action": "create", "title": "v9"}},
		{"github_delete_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 4, "confirm_issue_number": 4}},
	}
	restWrites := func(reqs []string) []string {
		var out []string
		for _, r := range reqs {
			if !strings.HasPrefix(r, "GET ") && !strings.HasSuffix(r, "/graphql") {
				out = append(out, strings.Replace(r, " /api/v3/", " /", 1))
			}
		}
		return out
	}
	for _, row := range rows {
		r := env.Call(t, row.tool, maps(row.args, "dry_run", true))
		var plan struct {
			DryRun struct {
				Writes []struct {
					Request string `json:"request"`
				} `json:"writes"`
			} `json:"dry_run"`
		}
		if err := json.Unmarshal(r.JSON, &plan); err != nil {
			t.Fatalf("%s dry run: %s (%v)", row.tool, r.JSON, err)
		}
		if r.IsError {
			t.Fatalf("%s dry run: %s, want a plan", row.tool, r.JSON)
		}
		if len(plan.DryRun.Writes) == 0 {
			t.Fatalf("%s dry run: no writes, want some: %s", row.tool, r.JSON)
		}
		var named []string
		graphql := false
		for _, w := range plan.DryRun.Writes {
			method, rest, _ := strings.Cut(w.Request, " ")
			path, _, _ := strings.Cut(rest, " (")
			if path == "/graphql" {
				graphql = true
				continue
			}
			// A removal names the other issue by its id, read first.
			if i := strings.Index(path, "/{id of "); i >= 0 {
				path = path[:i] + "/{id}"
			}
			unescaped, err := url.PathUnescape(path)
			if err != nil {
				t.Fatalf("%s names the request %q: %v", row.tool, w.Request, err)
			}
			if method == "" {
				t.Fatalf("%s names the request %q, want a method before the path", row.tool, w.Request)
			}
			named = append(named, method+" "+unescaped)
		}
		env.Upstream()
		if r := env.Call(t, row.tool, row.args); r.IsError {
			t.Fatalf("%s: %s", row.tool, r.JSON)
		}
		sent := env.Upstream()
		if graphql {
			if !slices.ContainsFunc(sent, func(s string) bool { return strings.HasPrefix(s, "POST ") && strings.HasSuffix(s, "/graphql") }) {
				t.Errorf("%s named a GraphQL write and sent %v", row.tool, sent)
			}
			continue
		}
		got := restWrites(sent)
		for i := range got {
			if i < len(named) && strings.HasSuffix(named[i], "/{id}") {
				got[i] = got[i][:strings.LastIndex(got[i], "/")] + "/{id}"
			}
		}
		if !slices.Equal(got, named) {
			t.Errorf("%s: sent %v, want what its dry run named, %v", row.tool, got, named)
		}
	}
}
