package issues_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ciCalls returns the upstream calls since the last check as "METHOD /path",
// without the GHES-style /api prefixes the test server is reached by.
func ciCalls(env *servertest.Env) []string {
	var out []string
	for _, u := range env.Upstream() {
		method, path, _ := strings.Cut(u, " ")
		path = strings.TrimPrefix(strings.TrimPrefix(path, "/api/v3"), "/api")
		out = append(out, method+" "+path)
	}
	return out
}

// ciWantCalls fails unless the upstream calls since the last check are want.
func ciWantCalls(t *testing.T, env *servertest.Env, why string, want ...string) {
	t.Helper()
	if got := ciCalls(env); !slices.Equal(got, want) {
		t.Errorf("%s: upstream calls\n got  %q\n want %q", why, got, want)
	}
}

func ciFault(t *testing.T, env *servertest.Env, f emulator.Fault) {
	t.Helper()
	if err := env.Emu.Emu.Faults().Add(f); err != nil {
		t.Fatal(err)
	}
}

// ciIssues returns the numbers of acme/widgets issues with this title.
func ciIssues(env *servertest.Env, title string) []int {
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	var out []int
	for _, is := range st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issues {
		if is.Title == title && !is.Deleted {
			out = append(out, is.Number)
		}
	}
	return out
}

// ciMilestone returns the number of a widgets milestone by title.
func ciMilestone(t *testing.T, env *servertest.Env, title string) int {
	t.Helper()
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	for _, m := range st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Milestones {
		if m.Title == title {
			return m.Number
		}
	}
	t.Fatalf("no milestone %q", title)
	return 0
}

// ciWantParent stops the test unless rel names parent as the issue's parent.
func ciWantParent(t *testing.T, what string, rel *issueview.Relations, parent int) {
	t.Helper()
	if rel == nil {
		t.Fatalf("%s: relations = nil, want parent #%d", what, parent)
	}
	if rel.Parent == nil {
		t.Fatalf("%s: relations.parent = nil, want #%d", what, parent)
	}
	if rel.Parent.Number != parent {
		t.Fatalf("%s: relations.parent.number = %d, want %d", what, rel.Parent.Number, parent)
	}
}

func ciCreate(t *testing.T, env *servertest.Env, in issues.CreateIssueIn) issues.CreateIssueOut {
	t.Helper()
	return servertest.CallOK[issues.CreateIssueOut](t, env, toolkit.NameCreateIssue, in)
}

func TestCreateIssueWithLabelsAndMilestoneAtMinimum(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	v150 := ciMilestone(t, env, "v1.5.0")
	env.Upstream()
	out := ciCreate(t, env, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Export fails on empty sheets",
		Body: "Steps: a<b && c", Labels: []string{"BUG", "Status: Triage"}, Milestone: toolkit.MilestoneNumber(v150)})
	// The minimum with names checked before writing: one preflight read
	// (labels and milestone together) and the create. REST alone allows 1
	// only by letting GitHub create misspelled labels silently.
	ciWantCalls(t, env, "create with labels and a milestone", "POST /graphql", "POST /repos/acme/widgets/issues")
	is := out.Issue
	if want := []string{"bug", "status: triage"}; !slices.Equal(is.Labels, want) {
		t.Errorf("Labels = %q, want %q (the repository's spelling)", is.Labels, want)
	}
	if is.Milestone == nil {
		t.Fatalf("Milestone = nil, want #%d", v150)
	}
	if is.Milestone.Number != v150 {
		t.Errorf("Milestone.Number = %d, want %d", is.Milestone.Number, v150)
	}
	if is.Version == "" {
		t.Errorf("Version is empty, want the issue's version")
	}
	if want := "Steps: a<b && c"; is.Body != want {
		t.Errorf("Body = %q, want %q", is.Body, want)
	}
	if out.Replayed {
		t.Errorf("Replayed = true, want false on a first create")
	}
	var got issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(is.Number)}).Decode(t, &got)
	if got.Issue.Version != is.Version {
		t.Fatalf("get_issue's version = %s, want create's %s", got.Issue.Version, is.Version)
	}

	env.Upstream()
	ciCreate(t, env, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Plain"})
	ciWantCalls(t, env, "plain create", "POST /repos/acme/widgets/issues")
}

// Unknown labels are refused before any write: GitHub's POST would create
// them. Unknown milestones, types and assignees go to GitHub in the one POST,
// which refuses them with a 422 and writes nothing; the answer is the same
// named error, settled as sent and refused.
func TestCreateIssueRefusesUnknownNames(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	base := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Unknown names"}
	cases := []struct {
		name       string
		edit       func(*issues.CreateIssueIn)
		code       contract.Code
		field      string
		kind       string
		value      string
		settlement contract.Settlement
		posts      int
	}{
		{"label", func(in *issues.CreateIssueIn) { in.Labels = []string{"bug", "priorty: high"} }, contract.CodeLabelNotFound, "labels", "labels", "priority: high", contract.NotStarted, 0},
		{"milestone", func(in *issues.CreateIssueIn) { in.Milestone = 99 }, contract.CodeMilestoneNotFound, "milestone", "milestones", "", contract.NoRemoteSuccessKnown, 1},
		{"type", func(in *issues.CreateIssueIn) { in.Type = "Epic" }, contract.CodeIssueTypeNotFound, "type", "issue_types", "Bug", contract.NoRemoteSuccessKnown, 1},
		{"assignee", func(in *issues.CreateIssueIn) { in.Assignees = []string{"dave"} }, contract.CodeAssigneeNotFound, "assignees", "assignees", "", contract.NoRemoteSuccessKnown, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			tc.edit(&in)
			env.Upstream()
			e := env.Call(t, toolkit.NameCreateIssue, in).Envelope(t)
			if !contracttest.Envelope(t, "create", e, tc.code, tc.settlement) || !contracttest.Field(t, "create", e, tc.field) {
				t.FailNow()
			}
			if tc.value != "" && !strings.Contains(fmt.Sprint(e.Details.Value), tc.value) {
				t.Fatalf("details.value = %v, want it to contain %q", e.Details.Value, tc.value)
			}
			posts := 0
			for _, call := range ciCalls(env) {
				switch {
				case call == "POST /repos/acme/widgets/issues":
					posts++
				case !strings.HasPrefix(call, "POST /graphql") && !strings.HasPrefix(call, "GET "):
					t.Fatalf("a write was sent: %s, want only reads and the create", call)
				}
			}
			if posts != tc.posts {
				t.Fatalf("%d creates sent, want %d: %v", posts, tc.posts, ciCalls(env))
			}
			if !contracttest.RepairTool(t, "create", e.Repair, toolkit.NameListRepoMetadata) {
				t.FailNow()
			}
			// The repair is callable as given and lists the valid names.
			res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
			if res.IsError {
				t.Fatalf("repair call failed: %s", res.JSON)
			}
			var meta struct {
				Kind string `json:"kind"`
			}
			res.Decode(t, &meta)
			if meta.Kind != tc.kind {
				t.Fatalf("repair listed kind %q, want %q", meta.Kind, tc.kind)
			}
		})
	}
	if n := ciIssues(env, "Unknown names"); len(n) != 0 {
		t.Fatalf("issues created despite refusals: %v, want none", n)
	}
	// The corrected call succeeds.
	in := base
	in.Labels, in.Type, in.Assignees = []string{"priority: high"}, "bug", []string{"Bob"}
	out := ciCreate(t, env, in)
	if out.Issue.Type != "Bug" {
		t.Errorf("corrected create: Type = %q, want %q", out.Issue.Type, "Bug")
	}
	if want := []string{"bob"}; !slices.Equal(out.Issue.Assignees, want) {
		t.Errorf("corrected create: Assignees = %q, want %q", out.Issue.Assignees, want)
	}
}

func TestCreateIssueAsSubIssue(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	out := ciCreate(t, env, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Export: XLSX", ParentIssueNumber: emulator.DemoParentIssue})
	if out.Issue.Parent == nil {
		t.Fatalf("Issue.Parent = nil, want #%d: the result does not state the parent link", emulator.DemoParentIssue)
	}
	if out.Issue.Parent.Number != emulator.DemoParentIssue {
		t.Errorf("Issue.Parent.Number = %d, want %d", out.Issue.Parent.Number, emulator.DemoParentIssue)
	}
	var got issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(out.Issue.Number)}).Decode(t, &got)
	ciWantParent(t, "get_issue after the create", got.Relations, emulator.DemoParentIssue)

	// A missing parent is refused before the issue is created.
	e := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Orphan", ParentIssueNumber: missingIssue}).Envelope(t)
	if !contracttest.Envelope(t, "missing parent", e, contract.CodeIssueNotFound, contract.NotStarted) {
		t.FailNow()
	}
	if made := ciIssues(env, "Orphan"); len(made) != 0 {
		t.Fatalf("missing parent: issues created %v, want none", made)
	}

	// The link fails after the create: a partial success naming the issue,
	// with a follow-up that finishes the job.
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST",
		Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/sub_issues", emulator.DemoParentIssue), Times: 1})
	e = env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Export: ODS", ParentIssueNumber: emulator.DemoParentIssue}).Envelope(t)
	made := ciIssues(env, "Export: ODS")
	if len(made) != 1 {
		t.Fatalf("issues titled %q = %v, want one", "Export: ODS", made)
	}
	n := made[0]
	if !contracttest.Envelope(t, "partial success", e, contract.CodePartialSuccess, contract.RemoteSuccessKnown) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, fmt.Sprintf("#%d", n)) {
		t.Fatalf("partial success: message = %q, want it to name #%d", e.Message, n)
	}
	if e.Details == nil {
		t.Fatalf("partial success: details = nil, want applied and not_applied")
	}
	if want := []string{fmt.Sprintf("created issue #%d", n)}; !slices.Equal(e.Details.Applied, want) {
		t.Fatalf("partial success: details.applied = %q, want %q", e.Details.Applied, want)
	}
	if len(e.Details.NotApplied) != 1 {
		t.Fatalf("partial success: details.not_applied = %q, want one entry", e.Details.NotApplied)
	}
	if !contracttest.RepairTool(t, "partial success follow_up", e.FollowUp, toolkit.NameLinkIssues) {
		t.FailNow()
	}
	if res := env.Call(t, e.FollowUp.Tool, e.FollowUp.Arguments); res.IsError {
		t.Fatalf("follow-up as given failed: %s", res.JSON)
	}
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n)}).Decode(t, &got)
	ciWantParent(t, "get_issue after the follow-up", got.Relations, emulator.DemoParentIssue)
}

func TestCreateIssueSettlementUnderFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind       emulator.FaultKind
		status     int
		settlement contract.Settlement
		applied    bool
	}{
		{emulator.FaultDropBefore, 0, contract.Indeterminate, false},
		{emulator.FaultDropAfter, 0, contract.Indeterminate, true},
		{emulator.FaultMalformedAfter, 0, contract.RemoteSuccessKnown, true},
		{emulator.FaultStatus, 500, contract.NoRemoteSuccessKnown, false},
		// GitHub refused before doing anything: wait and repeat.
		{emulator.FaultRateLimit, 0, contract.NoRemoteSuccessKnown, false},
		{emulator.FaultSecondary, 0, contract.NoRemoteSuccessKnown, false},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			t.Parallel()
			// A fresh server each: after a rate limit, the access layer
			// rightly sends nothing until the reset.
			env := servertest.Start(t, servertest.Options{})
			title := "Settlement " + string(tc.kind)
			ciFault(t, env, emulator.Fault{Kind: tc.kind, Status: tc.status, Method: "POST", Path: "/repos/acme/widgets/issues", Times: 1})
			e := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: title}).Envelope(t)
			if e.Settlement != tc.settlement {
				t.Fatalf("settlement %q, want %q: %+v", e.Settlement, tc.settlement, e)
			}
			if limited := tc.kind == emulator.FaultRateLimit || tc.kind == emulator.FaultSecondary; limited {
				// A rate limit must say when to repeat.
				failed := false
				if e.Code != contract.CodeRateLimited {
					t.Errorf("code = %q, want %q", e.Code, contract.CodeRateLimited)
					failed = true
				}
				if !e.Temporary {
					t.Errorf("temporary = false, want true")
					failed = true
				}
				if e.RetryAfterMS == nil || *e.RetryAfterMS <= 0 {
					t.Errorf("retry_after_ms = %s, want > 0", ptr(e.RetryAfterMS))
					failed = true
				}
				if failed {
					t.FailNow()
				}
			}
			if got := len(ciIssues(env, title)) == 1; got != tc.applied {
				t.Fatalf("applied = %v, want %v", got, tc.applied)
			}
			if tc.settlement != contract.NoRemoteSuccessKnown {
				// An uncertain create must send the agent to look first.
				if !contracttest.RepairTool(t, "uncertain create", e.Repair, toolkit.NameSearchIssues) {
					t.FailNow()
				}
				if e.Temporary {
					t.Fatalf("uncertain create: temporary = true, want false")
				}
				// The look is a listing, which sees the write at once, not a
				// search, whose index may not have it yet.
				var look issues.SearchIssuesOut
				res := env.Call(t, toolkit.NameSearchIssues, e.Repair.Arguments)
				res.Decode(t, &look)
				found := slices.ContainsFunc(look.Items, func(is issueview.Issue) bool { return is.Title == title })
				if res.IsError {
					t.Fatalf("the repair's look failed: %s", res.JSON)
				}
				if look.Source != issues.SourceList {
					t.Errorf("the repair's look: source = %q, want %q", look.Source, issues.SourceList)
				}
				if found != tc.applied {
					t.Errorf("the repair's look: found = %v, want %v", found, tc.applied)
				}
			}
		})
	}
	// Latency delays the answer and changes nothing else.
	env := servertest.Start(t, servertest.Options{})
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultLatency, Latency: 50 * time.Millisecond, Method: "POST", Path: "/repos/acme/widgets/issues", Times: 1})
	if out := ciCreate(t, env, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Settlement latency"}); out.Issue.Number == 0 {
		t.Fatalf("create under latency: Issue.Number = 0, want the created issue's")
	}
}

func TestCreateIssueIdempotentAcrossRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.db")
	env := servertest.Start(t, servertest.Options{StorePath: path})
	in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Once only", Labels: []string{"bug"}, IdempotencyKey: "k-restart"}
	first := ciCreate(t, env, in)
	env.Upstream()
	again := ciCreate(t, env, in)
	if !again.Replayed {
		t.Errorf("repeat: Replayed = false, want true")
	}
	if again.Issue.Number != first.Issue.Number {
		t.Errorf("repeat: Issue.Number = %d, want the first's %d", again.Issue.Number, first.Issue.Number)
	}
	if again.Issue.Version != first.Issue.Version {
		t.Errorf("repeat: Issue.Version = %q, want the first's %q", again.Issue.Version, first.Issue.Version)
	}
	ciWantCalls(t, env, "a replay writes and reads nothing")

	// The same key for another request is refused.
	other := in
	other.Title = "Something else"
	e := env.Call(t, toolkit.NameCreateIssue, other).Envelope(t)
	if !contracttest.Envelope(t, "reused key", e, contract.CodeIdempotencyKeyReused, contract.NotStarted) {
		t.FailNow()
	}

	// A second ghgate on the same state file, against the same GitHub, as
	// after a restart.
	st, err := server.NewStack(context.Background(), server.StackOptions{BaseURL: env.Emu.URL, Token: emulator.DemoTokenAlice,
		StorePath: path, HTTPClient: env.Emu.Client()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	restarted := &servertest.Env{Emu: env.Emu, Stack: st, Session: servertest.Connect(t, st.Server.MCP)}
	res := restarted.Call(t, toolkit.NameCreateIssue, in)
	var after issues.CreateIssueOut
	res.Decode(t, &after)
	if res.IsError {
		t.Fatalf("after restart: the create failed: %s", res.JSON)
	}
	if !after.Replayed {
		t.Errorf("after restart: Replayed = false, want true")
	}
	if after.Issue.Number != first.Issue.Number {
		t.Errorf("after restart: Issue.Number = %d, want the first's %d", after.Issue.Number, first.Issue.Number)
	}
	if n := ciIssues(env, "Once only"); len(n) != 1 {
		t.Fatalf("issues titled %q = %v, want one", "Once only", n)
	}
}

func TestCreateIssueIdempotentAfterDroppedConnection(t *testing.T) {
	t.Parallel()
	for _, kind := range []emulator.FaultKind{emulator.FaultDropAfter, emulator.FaultDropBefore, emulator.FaultMalformedAfter} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			env := servertest.Start(t, servertest.Options{})
			title := "Dropped " + string(kind)
			in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: title, Body: "body", IdempotencyKey: toolkit.IdempotencyKey("k-" + string(kind))}
			ciFault(t, env, emulator.Fault{Kind: kind, Method: "POST", Path: "/repos/acme/widgets/issues", Times: 1})
			e := env.Call(t, toolkit.NameCreateIssue, in).Envelope(t)
			if e.Settlement != contract.Indeterminate && e.Settlement != contract.RemoteSuccessKnown {
				t.Fatalf("first call: settlement = %q, want %q or %q", e.Settlement, contract.Indeterminate, contract.RemoteSuccessKnown)
			}
			// The repair repeats the call with the key.
			if !contracttest.RepairTool(t, "first call", e.Repair, toolkit.NameCreateIssue) {
				t.FailNow()
			}
			// The repair is the same call with the same key.
			res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
			if res.IsError {
				t.Fatalf("repeat failed: %s", res.JSON)
			}
			var out issues.CreateIssueOut
			res.Decode(t, &out)
			made := ciIssues(env, title)
			if len(made) != 1 {
				t.Fatalf("issues titled %q = %v, want one", title, made)
			}
			if made[0] != out.Issue.Number {
				t.Fatalf("repeat returned #%d, want the issue made, #%d", out.Issue.Number, made[0])
			}
			// Replayed when the first attempt had created it; a fresh create
			// when the connection dropped before GitHub handled it.
			if out.Replayed != (kind != emulator.FaultDropBefore) {
				t.Fatalf("Replayed = %v after %s, want %v", out.Replayed, kind, kind != emulator.FaultDropBefore)
			}
			env.Upstream()
			var third issues.CreateIssueOut
			env.Call(t, toolkit.NameCreateIssue, in).Decode(t, &third)
			if !third.Replayed {
				t.Errorf("third call: Replayed = false, want true")
			}
			if third.Issue.Number != out.Issue.Number {
				t.Errorf("third call: Issue.Number = %d, want %d", third.Issue.Number, out.Issue.Number)
			}
			ciWantCalls(t, env, "the key is complete now")
		})
	}
}

func TestCreateIssueInputSchema(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res := env.Call(t, toolkit.NameCreateIssue, json.RawMessage(`{"owner":"acme","repo":"widgets","title":"x","idempotency_key":""}`))
	e := res.Envelope(t)
	if e.Code != contract.CodeInvalidField {
		t.Fatalf("empty key: code = %q (%q), want %q", e.Code, e.Message, contract.CodeInvalidField)
	}
	if !contracttest.Field(t, "empty key", e, "idempotency_key") {
		t.FailNow()
	}
	res = env.Call(t, toolkit.NameCreateIssue, json.RawMessage(`{"owner":"acme","repo":"widgets","title":"   "}`))
	if !contracttest.Envelope(t, "blank title", res.Envelope(t), contract.CodeInvalidField, contract.NotStarted) {
		t.FailNow()
	}
}

func TestCreateIssueConcurrentRepeatsCreateOnce(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	// Slow creates, so the repeats are likely to overlap the first; the
	// outcome asserted holds however they interleave.
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultLatency, LatencyMS: 200, Method: "POST", Path: "/repos/acme/widgets/issues"})
	in := issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Concurrent", IdempotencyKey: "k-concurrent"}
	args, _ := json.Marshal(in)
	const calls = 4
	results := make(chan *mcp.CallToolResult, calls)
	errs := make(chan error, calls)
	for range calls {
		go func() {
			res, err := env.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: toolkit.NameCreateIssue, Arguments: json.RawMessage(args)})
			if err != nil {
				errs <- err
				return
			}
			results <- res
		}()
	}
	numbers := map[int]bool{}
	for range calls {
		select {
		case err := <-errs:
			t.Fatal(err)
		case res := <-results:
			b := servertest.Answer(t, env.Session, toolkit.NameCreateIssue, json.RawMessage(args), res).JSON
			if res.IsError {
				var e contract.Error
				_ = json.Unmarshal(b, &e)
				// A repeat that arrives while the first is writing is told to
				// wait, and writes nothing.
				if !contracttest.Envelope(t, "concurrent repeat", e, contract.CodeConflict, contract.NotStarted) {
					t.FailNow()
				}
				if !e.Temporary {
					t.Fatalf("concurrent repeat: temporary = false, want true: %s", b)
				}
				continue
			}
			var out issues.CreateIssueOut
			_ = json.Unmarshal(b, &out)
			numbers[out.Issue.Number] = true
		}
	}
	made := ciIssues(env, "Concurrent")
	if len(made) != 1 {
		t.Fatalf("issues titled %q = %v, want one", "Concurrent", made)
	}
	if len(numbers) != 1 {
		t.Errorf("issue numbers the calls returned = %v, want one", numbers)
	}
	if !numbers[made[0]] {
		t.Errorf("issue numbers the calls returned = %v, want #%d among them", numbers, made[0])
	}
}

// A parent at GitHub's sub-issue limits refuses the create before the
// issue exists, instead of leaving it created and unlinked.
func TestCreateUnderAFullOrDeepParentWritesNothing(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	st := env.Emu.Emu.State()
	st.Lock()
	r := st.Repo("acme", "widgets")
	alice := st.Account("alice")
	now := st.Now()
	full := st.AddIssue(r, alice, "Full parent", nil, false, now)
	for i := 0; i < 100; i++ {
		if err := st.AddSubIssue(full, st.AddIssue(r, alice, fmt.Sprintf("child %d", i), nil, false, now), alice, false); err != nil {
			st.Unlock()
			t.Fatal(err)
		}
	}
	deep := st.AddIssue(r, alice, "Level 0", nil, false, now)
	for i := 1; i <= 8; i++ {
		next := st.AddIssue(r, alice, fmt.Sprintf("Level %d", i), nil, false, now)
		if err := st.AddSubIssue(deep, next, alice, false); err != nil {
			st.Unlock()
			t.Fatal(err)
		}
		deep = next
	}
	st.Unlock()
	for _, parent := range []int{full.Number, deep.Number} {
		env.Upstream()
		e := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Would be orphaned", ParentIssueNumber: toolkit.IssueNumber(parent)}).Envelope(t)
		what := fmt.Sprintf("parent #%d", parent)
		if !contracttest.Envelope(t, what, e, contract.CodeValidationFailed, contract.NotStarted) {
			t.FailNow()
		}
		if !contracttest.Field(t, what, e, "parent_issue_number") {
			t.FailNow()
		}
		for _, c := range ciCalls(env) {
			if c == "POST /repos/acme/widgets/issues" {
				t.Fatalf("parent #%d: the issue was created, want nothing written", parent)
			}
		}
	}
	if n := ciIssues(env, "Would be orphaned"); len(n) != 0 {
		t.Fatalf("issues titled %q = %v, want none", "Would be orphaned", n)
	}
}

// Under the creator scope, a credential whose user is not the allowed
// creator opens no issue: it would be one the deployment may not touch.
// The allowed creator's own credential opens it.
func TestCreateIssueUnderTheCreatorScope(t *testing.T) {
	t.Parallel()
	other := servertest.Start(t, servertest.Options{AllowedIssueCreator: "bob"})
	other.Upstream()
	e := other.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Opened as alice",
		IdempotencyKey: "k-1"}).Envelope(t)
	if !contracttest.Envelope(t, "a create as alice under bob's scope", e, contract.CodeIssueCreatorNotAllowed, contract.NotStarted) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, "alice") {
		t.Fatalf("a create as alice under bob's scope: message = %q, want it to name alice", e.Message)
	}
	for _, r := range other.Upstream() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("the refused create sent %s, want only GET requests", r)
		}
	}
	if made := ciIssues(other, "Opened as alice"); len(made) != 0 {
		t.Fatalf("the refused create opened %v, want none", made)
	}

	own := servertest.Start(t, servertest.Options{AllowedIssueCreator: "alice"})
	out := ciCreate(t, own, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Opened as alice"})
	if out.Issue.Author != "alice" {
		t.Fatalf("Issue.Author = %q, want %q", out.Issue.Author, "alice")
	}
}
