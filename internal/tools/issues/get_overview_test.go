package issues_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gocmp "github.com/google/go-cmp/cmp"
)

// overviewWant is what the emulator's state says an overview of
// acme/widgets must show, computed from the state itself.
type overviewWant struct {
	openIssues, openPRs   int
	labels                map[string]int // open issues per label
	milestones            map[int][2]int // open, closed issues per open milestone
	types                 []string       // enabled issue types
	newest, mostCommented []int          // issue numbers
	milestoneTitles       map[int]string
}

func wantOverview(env *servertest.Env) overviewWant {
	w := overviewWant{labels: map[string]int{}, milestones: map[int][2]int{}, milestoneTitles: map[int]string{}}
	withState(env, func(s *emulator.State) {
		r := widgets(env)
		var open []*emulator.Issue
		for _, is := range r.Issues {
			if is.Deleted || is.State != "open" {
				continue
			}
			if is.IsPull {
				w.openPRs++
				continue
			}
			w.openIssues++
			open = append(open, is)
		}
		for _, l := range r.Labels {
			w.labels[l.Name] = 0
		}
		for _, is := range open {
			for _, l := range is.Labels {
				w.labels[l.Name]++
			}
		}
		for _, m := range r.Milestones {
			if m.State != "open" {
				continue
			}
			var c [2]int
			for _, is := range r.Issues {
				if !is.Deleted && !is.IsPull && is.Milestone == m {
					c[map[string]int{"open": 0, "closed": 1}[is.State]]++
				}
			}
			w.milestones[m.Number], w.milestoneTitles[m.Number] = c, m.Title
		}
		for _, t := range s.IssueTypes(r.Owner.Login) {
			if t.IsEnabled {
				w.types = append(w.types, t.Name)
			}
		}
		top := func(key func(*emulator.Issue) int64) []int {
			list := slices.Clone(open)
			slices.SortFunc(list, func(a, b *emulator.Issue) int {
				return cmp.Or(cmp.Compare(key(b), key(a)), cmp.Compare(b.Number, a.Number))
			})
			var out []int
			for _, is := range list[:min(5, len(list))] {
				out = append(out, is.Number)
			}
			return out
		}
		w.newest = top(func(is *emulator.Issue) int64 { return is.CreatedAt.Unix() })
		w.mostCommented = top(func(is *emulator.Issue) int64 { return int64(len(is.Comments)) })
	})
	return w
}

func rowNumbers(rows []issueview.Issue) []int {
	var out []int
	for _, r := range rows {
		out = append(out, r.Number)
	}
	return out
}

func TestGetOverviewOfTheDemoRepository(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	want := wantOverview(env)
	env.Upstream()
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
	upstream := env.Upstream()

	if want.openIssues == 0 {
		t.Errorf("the demo's open issues = 0, want some")
	}
	if want.openPRs == 0 {
		t.Errorf("the demo's open PRs = 0, want some")
	}
	if diff := gocmp.Diff(&issues.OverviewCounts{OpenIssues: want.openIssues, OpenPRs: want.openPRs}, out.Counts); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}
	if out.Permission != "admin" {
		t.Errorf("permission = %q, want admin (alice)", out.Permission)
	}
	got := map[string]int{}
	for i, l := range out.Metadata.Labels {
		if l.OpenIssues == nil {
			t.Fatalf("label %q: open_issues = nil, want a count", l.Name)
		}
		if l.Color == "" {
			t.Errorf("label %q: color is empty, want the label's color", l.Name)
		}
		if i > 0 && strings.ToLower(out.Metadata.Labels[i-1].Name) > strings.ToLower(l.Name) {
			t.Errorf("labels not by name: %q before %q, want them sorted by name", out.Metadata.Labels[i-1].Name, l.Name)
		}
		got[l.Name] = *l.OpenIssues
	}
	if diff := gocmp.Diff(want.labels, got); diff != "" {
		t.Errorf("open issues per label mismatch (-want +got):\n%s", diff)
	}
	gotMs := map[int][2]int{}
	for _, m := range out.Metadata.Milestones {
		if m.Title != want.milestoneTitles[m.Number] {
			t.Errorf("milestone %d titled %q, want %q", m.Number, m.Title, want.milestoneTitles[m.Number])
		}
		gotMs[m.Number] = [2]int{*m.OpenIssues, *m.ClosedIssues}
	}
	if len(gotMs) == 0 {
		t.Errorf("milestones listed: none, want the open ones")
	}
	if diff := gocmp.Diff(want.milestones, gotMs); diff != "" {
		t.Errorf("open, closed issues per milestone mismatch (-want +got):\n%s", diff)
	}
	if len(want.types) == 0 {
		t.Errorf("the demo's enabled issue types: none, want some")
	}
	if !slices.Equal(out.Metadata.IssueTypes, want.types) {
		t.Errorf("issue types = %q, want %q", out.Metadata.IssueTypes, want.types)
	}
	if n := rowNumbers(out.Issues.Newest); !slices.Equal(n, want.newest) {
		t.Errorf("newest = %v, want %v", n, want.newest)
	}
	if n := rowNumbers(out.Issues.MostCommented); !slices.Equal(n, want.mostCommented) {
		t.Errorf("most commented = %v, want %v", n, want.mostCommented)
	}
	for _, row := range append(slices.Clone(out.Issues.Newest), out.Issues.MostCommented...) {
		// An open summary row: no body.
		if row.State != "open" {
			t.Errorf("issue row #%d: state = %q, want open", row.Number, row.State)
		}
		if row.Title == "" {
			t.Errorf("issue row #%d: title is empty, want the issue's", row.Number)
		}
		if row.Labels == nil {
			t.Errorf("issue row #%d: labels = nil, want a list (empty when none)", row.Number)
		}
		if row.Body != "" {
			t.Errorf("issue row #%d: body = %q, want none in a summary row", row.Number, row.Body)
		}
	}

	// The templates are those list_repo_metadata lists.
	tpl := servertest.CallOK[issues.ListRepoMetadataOut](t, env, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "templates"})
	if len(out.Metadata.Templates) == 0 {
		t.Errorf("templates: none, want those list_repo_metadata lists")
	}
	if !slices.EqualFunc(out.Metadata.Templates, tpl.Items, func(a, b issues.RepoMetaItem) bool {
		return a.File == b.File && a.Name == b.Name && a.Title == b.Title && slices.Equal(a.Labels, b.Labels)
	}) {
		t.Errorf("templates = %+v, want %+v", out.Metadata.Templates, tpl.Items)
	}

	// Every upstream request is reported, and there are at most five.
	if len(upstream) > 5 {
		t.Errorf("%d upstream requests, want at most 5: %q", len(upstream), upstream)
	}
	if len(upstream) != len(out.Requests) {
		t.Fatalf("%d requests reported, want the %d made upstream:\n reported %+v\n upstream %q", len(out.Requests), len(upstream), out.Requests, upstream)
	}
	for i, u := range upstream {
		api := "rest"
		if strings.HasSuffix(u, "/graphql") {
			api = "graphql"
		}
		if out.Requests[i].API != api {
			t.Errorf("request %d: api = %q, want %q for upstream %q", i, out.Requests[i].API, api, u)
		}
		if api == "rest" && !strings.HasSuffix(u, strings.TrimPrefix(out.Requests[i].What, "GET ")) {
			t.Errorf("request %d: what = %q, want the path of upstream %q", i, out.Requests[i].What, u)
		}
	}
	// Nothing is cut or unread in the demo repository.
	if out.Truncated {
		t.Errorf("truncated = true (%q), want false", out.TruncationHint)
	}
	if out.PartialSuccess != nil {
		t.Errorf("partial_success = %+v, want nil", out.PartialSuccess)
	}
}

// The credential's role is read from GitHub, for each level a token can hold.
func TestGetOverviewPermissionLevels(t *testing.T) {
	t.Parallel()
	for token, want := range map[string]string{emulator.DemoTokenAlice: "admin", emulator.DemoTokenBob: "write",
		"emu-triager": "triage", emulator.DemoTokenCarol: "read", emulator.DemoTokenDave: "read"} {
		t.Run(want+" "+token, func(t *testing.T) {
			t.Parallel()
			env := servertest.Start(t, servertest.Options{Token: token})
			withState(env, func(s *emulator.State) {
				s.AddToken(&emulator.Token{Value: "emu-triager", Login: "carol",
					Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermTriage}})
			})
			out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
			if out.Permission != want {
				t.Errorf("permission = %q, want %q", out.Permission, want)
			}
		})
	}
}

func TestGetOverviewRefusalsAndEmptyRepository(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, repo := range []string{"nothing-here"} {
		env.Upstream()
		e := wireEnvelope(t, env.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: repo}), false)
		if !contracttest.Code(t, "missing repository", e, contract.CodeRepoNotFound) {
			t.FailNow()
		}
		if !strings.Contains(e.Message, "acme/"+repo) {
			t.Fatalf("missing repository: message = %q, want it to name acme/%s", e.Message, repo)
		}
		if !contracttest.RepairTool(t, "missing repository", e.Repair, toolkit.NameSearchIssues) {
			t.FailNow()
		}
		if n := len(env.Upstream()); n != 1 {
			t.Errorf("a missing repository cost %d requests, want the one query", n)
		}
	}
	// dave cannot see the private repository: the same repo_not_found.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	if !contracttest.Code(t, "private repository", wireEnvelope(t, dave.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "gadgets"}), false), contract.CodeRepoNotFound) {
		t.FailNow()
	}

	// A repository with no labels, milestones, issues or templates.
	withState(env, func(s *emulator.State) {
		s.AddRepo(s.Account("alice"), "empty", "", false, widgets(env).CreatedAt)
	})
	env.Upstream()
	res := env.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "alice", Repo: "empty"})
	if !strings.Contains(string(res.JSON), `"counts":{"open_issues":0,"open_prs":0}`) {
		t.Errorf("counts not written as zeros, want %s in: %s", `"counts":{"open_issues":0,"open_prs":0}`, res.JSON)
	}
	var out issues.GetOverviewOut
	res.Decode(t, &out)
	if diff := gocmp.Diff(&issues.OverviewCounts{}, out.Counts); diff != "" {
		t.Errorf("empty repository: counts mismatch (-want +got):\n%s", diff)
	}
	if out.Metadata.Labels != nil {
		t.Errorf("empty repository: labels = %+v, want none", out.Metadata.Labels)
	}
	if out.Metadata.Milestones != nil {
		t.Errorf("empty repository: milestones = %+v, want none", out.Metadata.Milestones)
	}
	if out.Metadata.Templates != nil {
		t.Errorf("empty repository: templates = %+v, want none", out.Metadata.Templates)
	}
	if out.Issues.Newest != nil {
		t.Errorf("empty repository: newest = %v, want none", rowNumbers(out.Issues.Newest))
	}
	if out.Issues.MostCommented != nil {
		t.Errorf("empty repository: most_commented = %v, want none", rowNumbers(out.Issues.MostCommented))
	}
	if out.Permission != "admin" {
		t.Errorf("empty repository: permission = %q, want admin", out.Permission)
	}
	wantUpstream(t, env, "POST /api/graphql", "GET /repos/alice/empty/contents/.github/ISSUE_TEMPLATE")
	if len(out.Requests) != 2 {
		t.Errorf("requests reported = %+v, want 2", out.Requests)
	}
}

// Labels past the first hundred are cut, and the result says how to read
// them all; templates past the request budget likewise.
func TestGetOverviewTruncates(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	withState(env, func(s *emulator.State) {
		r := widgets(env)
		for i := len(r.Labels); i < 105; i++ {
			s.AddLabel(r, "extra-"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)), "ededed", nil)
		}
		for _, f := range []string{"a.md", "b.md", "c.md"} {
			r.Files[".github/ISSUE_TEMPLATE/"+f] = "---\nname: " + f + "\n---\n"
		}
	})
	env.Upstream()
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
	if n := len(env.Upstream()); n != 5 {
		t.Errorf("%d upstream requests, want 5", n)
	}
	if n := len(out.Requests); n != 5 {
		t.Errorf("%d requests reported, want 5", n)
	}
	if n := len(out.Metadata.Labels); n != 100 {
		t.Errorf("%d labels, want 100", n)
	}
	if n := len(out.Metadata.Templates); n != 3 {
		t.Errorf("%d templates, want 3", n)
	}
	if !out.Truncated {
		t.Errorf("truncated = false, want true")
	}
	for _, part := range []string{"labels (100 of 105)", "templates", toolkit.NameListRepoMetadata} {
		if !strings.Contains(out.TruncationHint, part) {
			t.Errorf("truncation_hint = %q, want it to contain %q", out.TruncationHint, part)
		}
	}
}

// A fine-grained token granted issues but not contents reads every
// section but the templates, which GitHub refuses it: they are left out
// and named with the permission GitHub said they need, the rest whole.
func TestGetOverviewWithoutContentsPermission(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenAliceIssues})
	want := wantOverview(env)
	env.Upstream()
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
	wantUnread(t, out, issues.UnreadSection{Section: "templates", Code: contract.CodeInsufficientScope, RequiredScopes: []string{"contents=read"}})
	// The sections read are whole.
	if out.Counts == nil {
		t.Errorf("counts = nil, want %d open issues", want.openIssues)
	} else if out.Counts.OpenIssues != want.openIssues {
		t.Errorf("counts.open_issues = %d, want %d", out.Counts.OpenIssues, want.openIssues)
	}
	if n := len(out.Metadata.Labels); n != len(want.labels) {
		t.Errorf("%d labels, want %d", n, len(want.labels))
	}
	if n := len(out.Metadata.Milestones); n != len(want.milestones) {
		t.Errorf("%d milestones, want %d", n, len(want.milestones))
	}
	if !slices.Equal(out.Metadata.IssueTypes, want.types) {
		t.Errorf("issue types = %q, want %q", out.Metadata.IssueTypes, want.types)
	}
	if n := rowNumbers(out.Issues.Newest); !slices.Equal(n, want.newest) {
		t.Errorf("newest = %v, want %v", n, want.newest)
	}
	if out.Permission != "admin" {
		t.Errorf("permission = %q, want admin", out.Permission)
	}
	if out.Metadata.Templates != nil {
		t.Errorf("templates = %+v, want none: they were not read", out.Metadata.Templates)
	}
	wantUpstream(t, env, "POST /api/graphql", "GET /repos/acme/widgets/contents/.github/ISSUE_TEMPLATE")
	if len(out.Requests) != 2 {
		t.Errorf("requests reported = %+v, want 2", out.Requests)
	} else if got, want := out.Requests[1].What, "GET contents/.github/ISSUE_TEMPLATE"; got != want {
		t.Errorf("requests[1].what = %q, want %q", got, want)
	}
}

// wantUnread checks that partial_success names exactly want.
func wantUnread(t *testing.T, out issues.GetOverviewOut, want ...issues.UnreadSection) {
	t.Helper()
	if out.PartialSuccess == nil {
		t.Fatalf("partial_success = nil, want unread %+v", want)
	}
	if !slices.EqualFunc(out.PartialSuccess.Unread, want, func(a, b issues.UnreadSection) bool {
		return a.Section == b.Section && a.Code == b.Code && slices.Equal(a.RequiredScopes, b.RequiredScopes)
	}) {
		t.Errorf("partial_success.unread = %+v, want %+v", out.PartialSuccess.Unread, want)
	}
}

// GitHub failing on one read (past the retries) leaves that read's
// sections out, named with the retryable code, and keeps the rest; failing
// on both fails the call with the structured, retryable upstream error;
// and the same call is whole once GitHub answers.
func TestGetOverviewUpstreamFailure(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	in := issues.GetOverviewIn{Owner: "acme", Repo: "widgets"}
	templatesFault := emulator.Fault{Kind: emulator.FaultStatus, Status: 500, Method: "GET", Path: "/repos/acme/widgets/contents/*"}
	queryFault := emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/api/graphql"}

	addFault(t, env, templatesFault)
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, in)
	wantUnread(t, out, issues.UnreadSection{Section: "templates", Code: contract.CodeUpstreamUnavailable})
	// A templates failure keeps what the query read.
	if out.Counts == nil {
		t.Errorf("templates failure: counts = nil, want the query's")
	} else if out.Counts.OpenIssues == 0 {
		t.Errorf("templates failure: counts.open_issues = 0, want the query's count")
	}
	if len(out.Metadata.Labels) == 0 {
		t.Errorf("templates failure: labels: none, want the query's")
	}
	if out.Permission != "admin" {
		t.Errorf("templates failure: permission = %q, want admin", out.Permission)
	}
	if out.Metadata.Templates != nil {
		t.Errorf("templates failure: templates = %+v, want none", out.Metadata.Templates)
	}

	env.Emu.Emu.Faults().Clear()
	addFault(t, env, queryFault)
	out = servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, in)
	var queried []issues.UnreadSection
	for _, sec := range []string{"counts", "labels", "milestones", "issue_types", "issues", "permission"} {
		queried = append(queried, issues.UnreadSection{Section: sec, Code: contract.CodeUpstreamUnavailable})
	}
	wantUnread(t, out, queried...)
	// A query failure leaves the templates alone.
	if len(out.Metadata.Templates) == 0 {
		t.Errorf("query failure: templates: none, want the demo's")
	}
	if out.Counts != nil {
		t.Errorf("query failure: counts = %+v, want nil", *out.Counts)
	}
	if out.Permission != "" {
		t.Errorf("query failure: permission = %q, want none", out.Permission)
	}
	if out.Metadata.Labels != nil {
		t.Errorf("query failure: labels = %+v, want none", out.Metadata.Labels)
	}
	if out.Issues.Newest != nil {
		t.Errorf("query failure: newest = %v, want none", rowNumbers(out.Issues.Newest))
	}
	// Not knowing the repository exists, the templates read would ask
	// for it on a 404; the demo has templates, so it did not.
	if len(out.Requests) < 2 {
		t.Errorf("requests reported = %+v, want at least 2", out.Requests)
	} else {
		if got := out.Requests[0].API; got != "graphql" {
			t.Errorf("requests[0].api = %q, want graphql", got)
		}
		if got, want := out.Requests[1].What, "GET contents/.github/ISSUE_TEMPLATE"; got != want {
			t.Errorf("requests[1].what = %q, want %q", got, want)
		}
	}

	addFault(t, env, templatesFault)
	e := wireEnvelope(t, env.Call(t, toolkit.NameGetOverview, in), false)
	if !contracttest.Code(t, "nothing read", e, contract.CodeUpstreamUnavailable) {
		t.FailNow()
	}
	if !e.Temporary {
		t.Fatalf("nothing read: temporary = false, want true")
	}
	if e.Repair == nil {
		t.Fatalf("nothing read: repair = nil, want one saying to make the same call again")
	}
	if !strings.Contains(e.Repair.NextStep, "same call again") {
		t.Fatalf("nothing read: repair.next_step = %q, want it to say %q", e.Repair.NextStep, "same call again")
	}

	// A missing repository is repo_not_found even when the query failed:
	// the templates read asks for the repository.
	env.Emu.Emu.Faults().Clear()
	addFault(t, env, queryFault)
	env.Upstream()
	e = wireEnvelope(t, env.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "nothing-here"}), false)
	if !contracttest.Code(t, "missing repository behind a failed query", e, contract.CodeRepoNotFound) {
		t.FailNow()
	}
	if !contracttest.RepairTool(t, "missing repository behind a failed query", e.Repair, toolkit.NameSearchIssues) {
		t.FailNow()
	}

	env.Emu.Emu.Faults().Clear()
	out = servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, in)
	// The same call again is whole.
	if out.PartialSuccess != nil {
		t.Errorf("again: partial_success = %+v, want nil", out.PartialSuccess)
	}
	if len(out.Metadata.Templates) == 0 {
		t.Errorf("again: templates: none, want the demo's")
	}
	if out.Counts == nil {
		t.Errorf("again: counts = nil, want the counts")
	}
}

// What an overview listed exists: a create naming its labels, an open
// milestone and a type is the POST alone.
func TestOverviewNamesSkipThePreflight(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
	if len(out.Metadata.Milestones) == 0 {
		t.Fatalf("overview milestones: none, want the demo's")
	}
	if len(out.Metadata.IssueTypes) == 0 {
		t.Fatalf("overview issue types: none, want the demo's")
	}
	env.Upstream()
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "after an overview",
		Labels: []string{"bug", "enhancement"}, Milestone: toolkit.MilestoneNumber(out.Metadata.Milestones[0].Number), Type: out.Metadata.IssueTypes[0]})
	if res.IsError {
		t.Fatalf("create after an overview failed: %s", res.JSON)
	}
	if calls := env.Upstream(); len(calls) != 1 {
		t.Fatalf("upstream calls of a create naming what the overview listed = %v, want the POST alone", calls)
	}
}

// A repository whose issues are turned off has no overview of them: gone,
// with a search of the owner's other repositories as the repair.
func TestGetOverviewIssuesDisabled(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	withState(env, func(*emulator.State) { widgets(env).IssuesDisabled = true })
	env.Upstream()
	e := wireEnvelope(t, env.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"}), false)
	if !contracttest.Code(t, "issues disabled", e, contract.CodeGone) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, "disabled") {
		t.Fatalf("issues disabled: message = %q, want it to say disabled", e.Message)
	}
	if !contracttest.RepairTool(t, "issues disabled", e.Repair, toolkit.NameSearchIssues) {
		t.FailNow()
	}
	if n := len(env.Upstream()); n != 1 {
		t.Errorf("%d upstream requests, want the one query", n)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("the repair, taken as given, failed: %s", res.JSON)
	}
}

// Under the creator scope the overview lists only the allowed user's
// issues in newest and most_commented, as search does, and says how many
// rows it withheld instead of passing the lists off as whole.
func TestGetOverviewCreatorScope(t *testing.T) {
	t.Parallel()
	plain := servertest.Start(t, servertest.Options{})
	want := wantOverview(plain)
	authors := map[int]string{}
	withState(plain, func(*emulator.State) {
		for _, is := range widgets(plain).Issues {
			if is.User != nil {
				authors[is.Number] = is.User.Login
			}
		}
	})
	allowed := authors[want.newest[0]]
	keep := func(ns []int) (out []int) {
		for _, n := range ns {
			if authors[n] == allowed {
				out = append(out, n)
			}
		}
		return out
	}
	others := map[int]bool{}
	for _, n := range append(slices.Clone(want.newest), want.mostCommented...) {
		if authors[n] != allowed {
			others[n] = true
		}
	}
	if len(others) == 0 {
		t.Fatalf("the demo's overview rows are all %s's; the test needs another author among them", allowed)
	}
	env := servertest.Start(t, servertest.Options{AllowedIssueCreator: allowed})
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
	if n := rowNumbers(out.Issues.Newest); !slices.Equal(n, keep(want.newest)) {
		t.Errorf("newest = %v, want %s's only: %v", n, allowed, keep(want.newest))
	}
	if n := rowNumbers(out.Issues.MostCommented); !slices.Equal(n, keep(want.mostCommented)) {
		t.Errorf("most_commented = %v, want %s's only: %v", n, allowed, keep(want.mostCommented))
	}
	if !out.Truncated {
		t.Errorf("truncated = false, want true: %d rows withheld", len(others))
	}
	if want := fmt.Sprintf("%d open issues opened by someone other than %s", len(others), allowed); !strings.Contains(out.TruncationHint, want) {
		t.Errorf("truncation_hint = %q, want it to contain %q", out.TruncationHint, want)
	}
}
