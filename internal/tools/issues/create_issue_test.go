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
	if !slices.Equal(is.Labels, []string{"bug", "status: triage"}) || is.Milestone == nil || is.Milestone.Number != v150 {
		t.Fatalf("labels not in the repository's spelling or milestone missing: %+v", is)
	}
	if is.Version == "" || is.Body != "Steps: a<b && c" || out.Replayed {
		t.Fatalf("output: %+v", out)
	}
	var got issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(is.Number)}).Decode(t, &got)
	if got.Issue.Version != is.Version {
		t.Fatalf("create's version %s differs from get_issue's %s", is.Version, got.Issue.Version)
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
			if e.Code != tc.code || e.Settlement != tc.settlement || e.Details == nil || e.Details.Field != tc.field {
				t.Fatalf("envelope: %+v", e)
			}
			if tc.value != "" && !strings.Contains(fmt.Sprint(e.Details.Value), tc.value) {
				t.Fatalf("details.value %v lacks %q", e.Details.Value, tc.value)
			}
			posts := 0
			for _, call := range ciCalls(env) {
				switch {
				case call == "POST /repos/acme/widgets/issues":
					posts++
				case !strings.HasPrefix(call, "POST /graphql") && !strings.HasPrefix(call, "GET "):
					t.Fatalf("a write was sent: %s", call)
				}
			}
			if posts != tc.posts {
				t.Fatalf("%d creates sent, want %d: %v", posts, tc.posts, ciCalls(env))
			}
			if e.Repair == nil || e.Repair.Tool != toolkit.NameListRepoMetadata {
				t.Fatalf("repair: %+v", e.Repair)
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
				t.Fatalf("repair listed %q, want %q", meta.Kind, tc.kind)
			}
		})
	}
	if n := ciIssues(env, "Unknown names"); len(n) != 0 {
		t.Fatalf("issues created despite refusals: %v", n)
	}
	// The corrected call succeeds.
	in := base
	in.Labels, in.Type, in.Assignees = []string{"priority: high"}, "bug", []string{"Bob"}
	out := ciCreate(t, env, in)
	if out.Issue.Type != "Bug" || !slices.Equal(out.Issue.Assignees, []string{"bob"}) {
		t.Fatalf("corrected create: %+v", out.Issue)
	}
}

func TestCreateIssueAsSubIssue(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	out := ciCreate(t, env, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Export: XLSX", ParentIssueNumber: emulator.DemoParentIssue})
	if out.Issue.Parent == nil || out.Issue.Parent.Number != emulator.DemoParentIssue {
		t.Fatalf("the result does not state the parent link: %+v", out.Issue.Parent)
	}
	var got issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(out.Issue.Number)}).Decode(t, &got)
	if got.Relations == nil || got.Relations.Parent == nil || got.Relations.Parent.Number != emulator.DemoParentIssue {
		t.Fatalf("not linked: %+v", got.Relations)
	}

	// A missing parent is refused before the issue is created.
	e := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Orphan", ParentIssueNumber: missingIssue}).Envelope(t)
	if e.Code != contract.CodeIssueNotFound || e.Settlement != contract.NotStarted || len(ciIssues(env, "Orphan")) != 0 {
		t.Fatalf("missing parent: %+v", e)
	}

	// The link fails after the create: a partial success naming the issue,
	// with a follow-up that finishes the job.
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST",
		Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/sub_issues", emulator.DemoParentIssue), Times: 1})
	e = env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Export: ODS", ParentIssueNumber: emulator.DemoParentIssue}).Envelope(t)
	made := ciIssues(env, "Export: ODS")
	if len(made) != 1 {
		t.Fatalf("want one issue, have %v", made)
	}
	n := made[0]
	if e.Code != contract.CodePartialSuccess || e.Settlement != contract.RemoteSuccessKnown || !strings.Contains(e.Message, fmt.Sprintf("#%d", n)) ||
		e.Details == nil || !slices.Equal(e.Details.Applied, []string{fmt.Sprintf("created issue #%d", n)}) || len(e.Details.NotApplied) != 1 {
		t.Fatalf("partial success: %+v", e)
	}
	if e.FollowUp == nil || e.FollowUp.Tool != toolkit.NameLinkIssues {
		t.Fatalf("follow_up: %+v", e.FollowUp)
	}
	if res := env.Call(t, e.FollowUp.Tool, e.FollowUp.Arguments); res.IsError {
		t.Fatalf("follow-up as given failed: %s", res.JSON)
	}
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n)}).Decode(t, &got)
	if got.Relations == nil || got.Relations.Parent == nil || got.Relations.Parent.Number != emulator.DemoParentIssue {
		t.Fatalf("follow-up did not link: %+v", got.Relations)
	}
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
			if limited := tc.kind == emulator.FaultRateLimit || tc.kind == emulator.FaultSecondary; limited &&
				(e.Code != contract.CodeRateLimited || !e.Temporary || e.RetryAfterMS == nil || *e.RetryAfterMS <= 0) {
				t.Fatalf("a rate limit must say when to repeat: %+v", e)
			}
			if got := len(ciIssues(env, title)) == 1; got != tc.applied {
				t.Fatalf("applied=%v, want %v", got, tc.applied)
			}
			if tc.settlement != contract.NoRemoteSuccessKnown && (e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues || e.Temporary) {
				t.Fatalf("an uncertain create must send the agent to look first: %+v", e)
			}
			if tc.settlement != contract.NoRemoteSuccessKnown {
				// The look is a listing, which sees the write at once, not a
				// search, whose index may not have it yet.
				var look issues.SearchIssuesOut
				res := env.Call(t, toolkit.NameSearchIssues, e.Repair.Arguments)
				res.Decode(t, &look)
				found := slices.ContainsFunc(look.Items, func(is issueview.Issue) bool { return is.Title == title })
				if res.IsError || look.Source != issues.SourceList || found != tc.applied {
					t.Fatalf("the repair's look: source %q, found %v, want list and %v: %s", look.Source, found, tc.applied, res.JSON)
				}
			}
		})
	}
	// Latency delays the answer and changes nothing else.
	env := servertest.Start(t, servertest.Options{})
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultLatency, Latency: 50 * time.Millisecond, Method: "POST", Path: "/repos/acme/widgets/issues", Times: 1})
	if out := ciCreate(t, env, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Settlement latency"}); out.Issue.Number == 0 {
		t.Fatalf("create under latency: %+v", out)
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
	if !again.Replayed || again.Issue.Number != first.Issue.Number || again.Issue.Version != first.Issue.Version {
		t.Fatalf("repeat: %+v, first %+v", again, first)
	}
	ciWantCalls(t, env, "a replay writes and reads nothing")

	// The same key for another request is refused.
	other := in
	other.Title = "Something else"
	e := env.Call(t, toolkit.NameCreateIssue, other).Envelope(t)
	if e.Code != contract.CodeIdempotencyKeyReused || e.Settlement != contract.NotStarted {
		t.Fatalf("reused key: %+v", e)
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
	if res.IsError || !after.Replayed || after.Issue.Number != first.Issue.Number {
		t.Fatalf("after restart: %s", res.JSON)
	}
	if n := ciIssues(env, "Once only"); len(n) != 1 {
		t.Fatalf("issues with the title: %v", n)
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
				t.Fatalf("first call: %+v", e)
			}
			if e.Repair == nil || e.Repair.Tool != toolkit.NameCreateIssue {
				t.Fatalf("repair should repeat with the key: %+v", e.Repair)
			}
			// The repair is the same call with the same key.
			res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
			if res.IsError {
				t.Fatalf("repeat: %s", res.JSON)
			}
			var out issues.CreateIssueOut
			res.Decode(t, &out)
			made := ciIssues(env, title)
			if len(made) != 1 || made[0] != out.Issue.Number {
				t.Fatalf("issues %v, repeat returned #%d", made, out.Issue.Number)
			}
			// Replayed when the first attempt had created it; a fresh create
			// when the connection dropped before GitHub handled it.
			if out.Replayed != (kind != emulator.FaultDropBefore) {
				t.Fatalf("replayed=%v after %s", out.Replayed, kind)
			}
			env.Upstream()
			var third issues.CreateIssueOut
			env.Call(t, toolkit.NameCreateIssue, in).Decode(t, &third)
			if !third.Replayed || third.Issue.Number != out.Issue.Number {
				t.Fatalf("third call: %+v", third)
			}
			ciWantCalls(t, env, "the key is complete now")
		})
	}
}

func TestCreateIssueInputSchema(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res := env.Call(t, toolkit.NameCreateIssue, json.RawMessage(`{"owner":"acme","repo":"widgets","title":"x","idempotency_key":""}`))
	if e := res.Envelope(t); e.Code != contract.CodeInvalidField || e.Details.Field != "idempotency_key" {
		t.Fatalf("empty key: %+v", e)
	}
	res = env.Call(t, toolkit.NameCreateIssue, json.RawMessage(`{"owner":"acme","repo":"widgets","title":"   "}`))
	if e := res.Envelope(t); e.Code != contract.CodeInvalidField || e.Settlement != contract.NotStarted {
		t.Fatalf("blank title: %+v", e)
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
				if e.Code != contract.CodeConflict || !e.Temporary || e.Settlement != contract.NotStarted {
					t.Fatalf("concurrent repeat: %s", b)
				}
				continue
			}
			var out issues.CreateIssueOut
			_ = json.Unmarshal(b, &out)
			numbers[out.Issue.Number] = true
		}
	}
	if made := ciIssues(env, "Concurrent"); len(made) != 1 || len(numbers) != 1 || !numbers[made[0]] {
		t.Fatalf("issues %v, results %v", made, numbers)
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
		if e.Code != contract.CodeValidationFailed || e.Settlement != contract.NotStarted || e.Details == nil || e.Details.Field != "parent_issue_number" {
			t.Fatalf("parent #%d: %+v", parent, e)
		}
		for _, c := range ciCalls(env) {
			if c == "POST /repos/acme/widgets/issues" {
				t.Fatalf("parent #%d: the issue was created", parent)
			}
		}
	}
	if n := ciIssues(env, "Would be orphaned"); len(n) != 0 {
		t.Fatalf("created: %v", n)
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
	if e.Code != contract.CodeIssueCreatorNotAllowed || e.Settlement != contract.NotStarted || !strings.Contains(e.Message, "alice") {
		t.Fatalf("a create as alice under bob's scope: %+v, want issue_creator_not_allowed, not_started, naming alice", e)
	}
	for _, r := range other.Upstream() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("the refused create sent %s", r)
		}
	}
	if made := ciIssues(other, "Opened as alice"); len(made) != 0 {
		t.Fatalf("the refused create opened %v", made)
	}

	own := servertest.Start(t, servertest.Options{AllowedIssueCreator: "alice"})
	out := ciCreate(t, own, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Opened as alice"})
	if out.Issue.Author != "alice" {
		t.Fatalf("created by %q, want alice", out.Issue.Author)
	}
}
