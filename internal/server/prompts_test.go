package server_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptsListBudget is the most prompts/list may weigh, compact, with the
// default toolsets: it is read at session start, as tools/list is.
const promptsListBudget = 1_500

func listPrompts(t *testing.T, cs *mcp.ClientSession) *mcp.ListPromptsResult {
	t.Helper()
	res, err := cs.ListPrompts(context.Background(), nil)
	if err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	return res
}

func promptNames(res *mcp.ListPromptsResult) []string {
	var names []string
	for _, p := range res.Prompts {
		names = append(names, p.Name)
	}
	return names
}

// getPrompt is prompts/get's one message's text.
func getPrompt(t *testing.T, cs *mcp.ClientSession, name string, args map[string]string) string {
	t.Helper()
	res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("prompts/get %s: %v", name, err)
	}
	if len(res.Messages) != 1 {
		t.Fatalf("prompts/get %s: %d messages, want one user message", name, len(res.Messages))
	}
	if res.Messages[0].Role != "user" {
		t.Fatalf("prompts/get %s: role = %q, want user", name, res.Messages[0].Role)
	}
	text, ok := res.Messages[0].Content.(*mcp.TextContent)
	if !ok {
		t.Fatalf("prompts/get %s: content %T, want text", name, res.Messages[0].Content)
	}
	return text.Text
}

// promptCall is a tool call a prompt's message names: the tool and its
// literal arguments.
type promptCall struct {
	tool string
	args string
}

var callPattern = regexp.MustCompile(`(github_[a-z_]+) (\{[^\n]*?\})(?::|,|;|$| first)`)

// calls are the tool calls a message writes out, in order.
func calls(text string) []promptCall {
	var out []promptCall
	for _, m := range callPattern.FindAllStringSubmatch(text, -1) {
		out = append(out, promptCall{m[1], m[2]})
	}
	return out
}

// The default toolsets offer the four workflows with their arguments, in
// at most promptsListBudget bytes.
func TestPromptsListedWithTheirArguments(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res := listPrompts(t, env.Session)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("default prompts/list: %d bytes compact for %d prompts", len(b), len(res.Prompts))
	if len(b) > promptsListBudget {
		t.Errorf("prompts/list is %d bytes, over the %d budget", len(b), promptsListBudget)
	}
	want := map[string][]string{ // argument names, required ones marked !
		"triage_issues":   {"owner!", "repo!", "since"},
		"summarize_issue": {"owner!", "repo!", "issue_number!"},
		"release_notes":   {"owner!", "repo!", "milestone!"},
		"weekly_report":   {"owner!", "repo!", "since"},
	}
	// The SDK lists prompts by name.
	if got, wantNames := promptNames(res), []string{"release_notes", "summarize_issue", "triage_issues", "weekly_report"}; !slices.Equal(got, wantNames) {
		t.Fatalf("prompts = %v, want %v", got, wantNames)
	}
	for _, p := range res.Prompts {
		var args []string
		for _, a := range p.Arguments {
			name := a.Name
			if a.Required {
				name += "!"
			}
			args = append(args, name)
			if a.Description == "" {
				t.Errorf("%s: argument %s has an empty description, want one", p.Name, a.Name)
			}
		}
		if !slices.Equal(args, want[p.Name]) {
			t.Errorf("%s: arguments = %v, want %v", p.Name, args, want[p.Name])
		}
		if p.Title == "" {
			t.Errorf("%s: title is empty, want one", p.Name)
		}
		if p.Description == "" {
			t.Errorf("%s: description is empty, want one", p.Name)
		}
	}
}

// Each prompt's message names only served tools, with the prompt's
// arguments as literal arguments, and every call it writes out in full
// (no N to fill) runs without error against the emulator.
func TestPromptMessagesCallServedToolsWithTheArguments(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "reports"}})
	tools, err := env.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, tl := range tools.Tools {
		served[tl.Name] = true
	}
	base := map[string]string{"owner": emulator.DemoOrg, "repo": "widgets"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for bk, bv := range base {
			m[bk] = bv
		}
		return m
	}
	for _, c := range []struct {
		prompt    string
		args      map[string]string
		wantTools []string
		wantText  []string
	}{
		{"triage_issues", with("since", "2024-01-01"),
			[]string{toolkit.NameListRepoMetadata, toolkit.NameSearchIssues, toolkit.NameGetIssue, toolkit.NameUpdateIssue},
			[]string{`"query":"created:>=2024-01-01"`, `"no_labels":true`, `"issue_number":N`, "dry_run: true", toolkit.NameBulkUpdateIssues}},
		{"summarize_issue", with("issue_number", "1"),
			[]string{toolkit.NameGetIssue, toolkit.NameListIssueItems},
			[]string{`"issue_number":1`, "comments_next_cursor", `"collection":"linked_prs"`}},
		{"release_notes", with("milestone", "v1.4.0"),
			[]string{toolkit.NameListRepoMetadata, toolkit.NameSearchIssues},
			[]string{`"kind":"milestones"`, `"query":"milestone:\"v1.4.0\""`, `"state":"closed"`}},
		{"weekly_report", with("since", "2024-06-01"),
			[]string{toolkit.NameGetOverview, toolkit.NameSearchIssues, toolkit.NameReportCIStatus, toolkit.NameReportReleasePRs,
				toolkit.NameReportSecurityAlerts, toolkit.NameReportUnlabeled},
			[]string{`"query":"closed:>=2024-06-01"`, `"updated_after":"2024-06-01"`}},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			text := getPrompt(t, env.Session, c.prompt, c.args)
			named := map[string]bool{}
			for _, pc := range calls(text) {
				named[pc.tool] = true
				if !served[pc.tool] {
					t.Errorf("names %s, which is not served", pc.tool)
				}
				args := strings.Replace(pc.args, `"issue_number":N`, `"issue_number":1`, 1)
				var got struct{ Owner, Repo string }
				if err := json.Unmarshal([]byte(args), &got); err != nil {
					t.Errorf("%s's arguments %s are not JSON: %v", pc.tool, pc.args, err)
					continue
				}
				if got.Owner != base["owner"] {
					t.Errorf("%s: owner = %q, want %q", pc.tool, got.Owner, base["owner"])
				}
				if got.Repo != base["repo"] {
					t.Errorf("%s: repo = %q, want %q", pc.tool, got.Repo, base["repo"])
				}
				// A read written out in full is callable as it stands.
				if !strings.Contains(pc.args, `"issue_number":N`) && pc.tool != toolkit.NameUpdateIssue {
					if res := env.Call(t, pc.tool, pc.args); res.IsError {
						t.Errorf("%s %s failed: %s", pc.tool, pc.args, res.JSON)
					}
				}
			}
			for _, tool := range c.wantTools {
				if !named[tool] {
					t.Errorf("message names no call of %s, want one:\n%s", tool, text)
				}
			}
			for _, want := range c.wantText {
				if !strings.Contains(text, want) {
					t.Errorf("message lacks %s, want it:\n%s", want, text)
				}
			}
		})
	}
}

// A missing required argument, an unknown one or one of the wrong shape
// is JSON-RPC invalid params, with the envelope naming the argument.
func TestPromptArgumentErrorsAreInvalidParams(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, c := range []struct {
		name, prompt string
		args         map[string]string
		field        string
	}{
		{"missing issue_number", "summarize_issue", map[string]string{"owner": "acme", "repo": "widgets"}, "issue_number"},
		{"missing owner", "weekly_report", map[string]string{"repo": "widgets"}, "owner"},
		{"issue_number not a number", "summarize_issue", map[string]string{"owner": "acme", "repo": "widgets", "issue_number": "seven"}, "issue_number"},
		{"since not a date", "weekly_report", map[string]string{"owner": "acme", "repo": "widgets", "since": "last week"}, "since"},
		{"quote in milestone", "release_notes", map[string]string{"owner": "acme", "repo": "widgets", "milestone": `v1" label:x`}, "milestone"},
		{"owner not a login", "triage_issues", map[string]string{"owner": "acme/widgets", "repo": "widgets"}, "owner"},
		{"unknown argument", "triage_issues", map[string]string{"owner": "acme", "repo": "widgets", "label": "bug"}, "label"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := env.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: c.prompt, Arguments: c.args})
			var werr *jsonrpc.Error
			if err == nil {
				t.Fatal("prompts/get succeeded, want a JSON-RPC error")
			}
			if !asWire(err, &werr) {
				t.Fatalf("error = %v, want a JSON-RPC error", err)
			}
			if werr.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("JSON-RPC code = %d, want %d (invalid params)", werr.Code, jsonrpc.CodeInvalidParams)
			}
			var e contract.Error
			if err := json.Unmarshal(werr.Data, &e); err != nil {
				t.Fatalf("error.data %s: %v", werr.Data, err)
			}
			if e.Code != contract.CodeInvalidField {
				t.Errorf("code = %s, want %s", e.Code, contract.CodeInvalidField)
			}
			if e.Details == nil {
				t.Errorf("details = nil, want field %s", c.field)
			} else if e.Details.Field != c.field {
				t.Errorf("details.field = %q, want %s", e.Details.Field, c.field)
			}
			if e.RequestID == "" {
				t.Errorf("request_id is empty, want one")
			}
			if want := env.Stack.Server.Fingerprint(); e.Fingerprint != want {
				t.Errorf("fingerprint = %q, want the surface's %q", e.Fingerprint, want)
			}
		})
	}
}

// completion/complete with ref/prompt offers owners, repositories and a
// repository's open milestones for an offered prompt's arguments, as the
// resource templates offer theirs; anything else, nothing.
func TestPromptArgumentCompletions(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	complete := func(prompt, arg, value string, known map[string]string) []string {
		t.Helper()
		res, err := env.Session.Complete(context.Background(), &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: prompt},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: value},
			Context:  &mcp.CompleteContext{Arguments: known},
		})
		if err != nil {
			t.Fatalf("complete %s.%s: %v", prompt, arg, err)
		}
		if res.Completion.Values == nil {
			t.Fatalf("complete %s.%s: null values", prompt, arg)
		}
		return res.Completion.Values
	}
	if got := complete("triage_issues", "owner", "a", nil); !slices.Contains(got, emulator.DemoOrg) {
		t.Errorf("owners for a = %v, want %s among them", got, emulator.DemoOrg)
	}
	if got := complete("weekly_report", "repo", "w", map[string]string{"owner": "acme"}); !slices.Equal(got, []string{"widgets"}) {
		t.Errorf("repos of acme for w = %v, want [widgets]", got)
	}
	// The milestones, open and closed, as github_list_repo_metadata lists them.
	var meta struct {
		Items []struct {
			Title string `json:"title"`
		} `json:"items"`
	}
	env.Call(t, toolkit.NameListRepoMetadata, map[string]any{"owner": "acme", "repo": "widgets", "kind": "milestones"}).Decode(t, &meta)
	var open []string
	for _, m := range meta.Items {
		open = append(open, m.Title)
	}
	slices.Sort(open)
	if len(open) == 0 {
		t.Fatal("acme/widgets lists no milestone")
	}
	if got := complete("release_notes", "milestone", "", map[string]string{"owner": "acme", "repo": "widgets"}); !slices.Equal(got, open) {
		t.Errorf("milestones = %v, want %v", got, open)
	}
	prefix := open[0][:1]
	for _, m := range complete("release_notes", "milestone", strings.ToLower(prefix), map[string]string{"owner": "acme", "repo": "widgets"}) {
		if !strings.HasPrefix(strings.ToLower(m), strings.ToLower(prefix)) {
			t.Errorf("milestone %q offered for prefix %q, want only milestones with that prefix", m, prefix)
		}
	}
	for _, c := range []struct{ prompt, arg string }{
		{"summarize_issue", "issue_number"}, {"weekly_report", "since"}, {"no_such_prompt", "owner"}, {"summarize_issue", "milestone"},
	} {
		if got := complete(c.prompt, c.arg, "", map[string]string{"owner": "acme", "repo": "widgets"}); len(got) != 0 {
			t.Errorf("%s.%s offered %v, want nothing", c.prompt, c.arg, got)
		}
	}
	// The context's names go into request paths: a malformed one is refused.
	_, err := env.Session.Complete(context.Background(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "release_notes"},
		Argument: mcp.CompleteParamsArgument{Name: "milestone", Value: ""},
		Context:  &mcp.CompleteContext{Arguments: map[string]string{"owner": "acme", "repo": "../x"}},
	})
	var werr *jsonrpc.Error
	switch {
	case err == nil:
		t.Errorf("milestone completion with repo ../x succeeded, want invalid params")
	case !asWire(err, &werr):
		t.Errorf("milestone completion with repo ../x: error = %v, want a JSON-RPC error", err)
	case werr.Code != jsonrpc.CodeInvalidParams:
		t.Errorf("milestone completion with repo ../x: JSON-RPC code = %d, want %d (invalid params)", werr.Code, jsonrpc.CodeInvalidParams)
	}
}

// Read-only, triage still reads and labels nothing: its write step is a
// proposal, with no dry run; with writes served it applies, dry run first.
func TestTriagePromptProposesUnderReadOnly(t *testing.T) {
	t.Parallel()
	args := map[string]string{"owner": "acme", "repo": "widgets"}
	ro := servertest.Start(t, servertest.Options{ReadOnly: true})
	if got := promptNames(listPrompts(t, ro.Session)); !slices.Contains(got, "triage_issues") {
		t.Fatalf("read-only prompts = %v, want triage_issues offered as proposals", got)
	}
	text := getPrompt(t, ro.Session, "triage_issues", args)
	for _, bad := range []string{"dry_run", "Apply each", toolkit.NameBulkUpdateIssues} {
		if strings.Contains(text, bad) {
			t.Errorf("read-only triage says %q:\n%s", bad, text)
		}
	}
	for _, want := range []string{"Write nothing", toolkit.NameUpdateIssue} {
		if !strings.Contains(text, want) {
			t.Errorf("read-only triage lacks %q, want its labels worded as proposals of %s:\n%s", want, toolkit.NameUpdateIssue, text)
		}
	}
	rw := servertest.Start(t, servertest.Options{})
	text = getPrompt(t, rw.Session, "triage_issues", args)
	for _, want := range []string{"Apply each", "dry_run: true"} {
		if !strings.Contains(text, want) {
			t.Errorf("triage with writes served lacks %q, want it to apply with a dry run first:\n%s", want, text)
		}
	}
	// The weekly report names the reports only where they are served.
	if text := getPrompt(t, rw.Session, "weekly_report", args); strings.Contains(text, "github_report_") {
		t.Errorf("weekly report names a report tool the default toolsets do not serve:\n%s", text)
	}
}

// A prompt is offered only where its tools are: none with the reports
// toolset alone, none needing a denied tool, and they appear when a
// toolset that serves their tools is enabled.
func TestPromptsFollowTheToolsServed(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"reports"}})
	if got := promptNames(listPrompts(t, env.Session)); len(got) != 0 {
		t.Errorf("reports alone offers prompts %v, want none", got)
	}
	if _, err := env.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "weekly_report",
		Arguments: map[string]string{"owner": "acme", "repo": "widgets"}}); err == nil {
		t.Error("a prompt not offered was answered, want an error")
	}
	if err := env.Stack.Server.EnableToolsets("issues"); err != nil {
		t.Fatal(err)
	}
	if got := promptNames(listPrompts(t, env.Session)); len(got) != 4 {
		t.Errorf("after enabling issues, prompts = %v, want all four", got)
	}
	if text := getPrompt(t, env.Session, "weekly_report", map[string]string{"owner": "acme", "repo": "widgets"}); !strings.Contains(text, toolkit.NameReportCIStatus) {
		t.Errorf("weekly report with reports served names no %s:\n%s", toolkit.NameReportCIStatus, text)
	}

	srv, err := server.New(&toolkit.Service{Clients: toolkit.OneClient{}}, server.Options{Deny: []string{toolkit.NameGetOverview, toolkit.NameGetIssue}})
	if err != nil {
		t.Fatal(err)
	}
	cs := servertest.Connect(t, srv.MCP)
	if got, want := promptNames(listPrompts(t, cs)), []string{"release_notes"}; !slices.Equal(got, want) {
		t.Errorf("with get_overview and get_issue denied, prompts = %v, want %v", got, want)
	}
}

// Where update_issue must be confirmed and the rules hide it from a
// client that cannot ask its user, triage proposes to that client and
// applies for one that can.
func TestTriagePromptProposesWhereTheWriteIsHidden(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Policy: policy.Rules{Confirm: policy.Confirm{
		Tools: []string{toolkit.NameUpdateIssue}, Unavailable: "hide"}}})
	args := map[string]string{"owner": "acme", "repo": "widgets"}
	text := getPrompt(t, env.Session, "triage_issues", args)
	if strings.Contains(text, "Apply each") {
		t.Errorf("to a client not shown %s, triage says \"Apply each\", want a proposal:\n%s", toolkit.NameUpdateIssue, text)
	}
	if !strings.Contains(text, "Write nothing") {
		t.Errorf("to a client not shown %s, triage lacks \"Write nothing\", want a proposal:\n%s", toolkit.NameUpdateIssue, text)
	}
	eliciting := connectEliciting(t, env, func(*mcp.ElicitRequest) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} })
	if text := getPrompt(t, eliciting, "triage_issues", args); !strings.Contains(text, "Apply each") {
		t.Errorf("to a client that can confirm, triage does not apply:\n%s", text)
	}
}
