package issues_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
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

	if out.Counts == nil || out.Counts.OpenIssues != want.openIssues || out.Counts.OpenPRs != want.openPRs || want.openIssues == 0 || want.openPRs == 0 {
		t.Errorf("open issues, PRs = %d, %d; want %d, %d", out.Counts.OpenIssues, out.Counts.OpenPRs, want.openIssues, want.openPRs)
	}
	if out.Permission != "admin" {
		t.Errorf("permission = %q, want admin (alice)", out.Permission)
	}
	got := map[string]int{}
	for i, l := range out.Metadata.Labels {
		if l.OpenIssues == nil || l.Color == "" {
			t.Fatalf("label row: %+v", l)
		}
		if i > 0 && strings.ToLower(out.Metadata.Labels[i-1].Name) > strings.ToLower(l.Name) {
			t.Errorf("labels not by name: %q before %q", out.Metadata.Labels[i-1].Name, l.Name)
		}
		got[l.Name] = *l.OpenIssues
	}
	if len(got) != len(want.labels) || !mapsEqual(got, want.labels) {
		t.Errorf("labels = %v, want %v", got, want.labels)
	}
	gotMs := map[int][2]int{}
	for _, m := range out.Metadata.Milestones {
		if m.Title != want.milestoneTitles[m.Number] {
			t.Errorf("milestone %d titled %q, want %q", m.Number, m.Title, want.milestoneTitles[m.Number])
		}
		gotMs[m.Number] = [2]int{*m.OpenIssues, *m.ClosedIssues}
	}
	if len(gotMs) == 0 || !mapsEqual(gotMs, want.milestones) {
		t.Errorf("milestones = %v, want %v", gotMs, want.milestones)
	}
	if len(want.types) == 0 || !slices.Equal(out.Metadata.IssueTypes, want.types) {
		t.Errorf("issue types = %q, want %q", out.Metadata.IssueTypes, want.types)
	}
	if n := rowNumbers(out.Issues.Newest); !slices.Equal(n, want.newest) {
		t.Errorf("newest = %v, want %v", n, want.newest)
	}
	if n := rowNumbers(out.Issues.MostCommented); !slices.Equal(n, want.mostCommented) {
		t.Errorf("most commented = %v, want %v", n, want.mostCommented)
	}
	for _, row := range append(slices.Clone(out.Issues.Newest), out.Issues.MostCommented...) {
		if row.State != "open" || row.Title == "" || row.Labels == nil || row.Body != "" {
			t.Errorf("issue row is not an open summary row: %+v", row)
		}
	}

	// The templates are those list_repo_metadata lists.
	tpl := servertest.CallOK[issues.ListRepoMetadataOut](t, env, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "templates"})
	if len(out.Metadata.Templates) == 0 || !slices.EqualFunc(out.Metadata.Templates, tpl.Items, func(a, b issues.RepoMetaItem) bool {
		return a.File == b.File && a.Name == b.Name && a.Title == b.Title && slices.Equal(a.Labels, b.Labels)
	}) {
		t.Errorf("templates = %+v, want %+v", out.Metadata.Templates, tpl.Items)
	}

	// Every upstream request is reported, and there are at most five.
	if len(upstream) > 5 || len(upstream) != len(out.Requests) {
		t.Fatalf("upstream %q, reported %+v", upstream, out.Requests)
	}
	for i, u := range upstream {
		api := "rest"
		if strings.HasSuffix(u, "/graphql") {
			api = "graphql"
		}
		if out.Requests[i].API != api || api == "rest" && !strings.HasSuffix(u, strings.TrimPrefix(out.Requests[i].What, "GET ")) {
			t.Errorf("request %d: upstream %q reported as %+v", i, u, out.Requests[i])
		}
	}
	if out.Truncated || out.PartialSuccess != nil {
		t.Errorf("nothing is cut or unread in the demo repository: %s %+v", out.TruncationHint, out.PartialSuccess)
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
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
		if e.Code != contract.CodeRepoNotFound || !strings.Contains(e.Message, "acme/"+repo) || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
			t.Fatalf("missing repository: %+v", e)
		}
		if n := len(env.Upstream()); n != 1 {
			t.Errorf("a missing repository cost %d requests, want the one query", n)
		}
	}
	// dave cannot see the private repository: the same repo_not_found.
	dave := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenDave})
	if e := wireEnvelope(t, dave.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "gadgets"}), false); e.Code != contract.CodeRepoNotFound {
		t.Fatalf("private repository: %+v", e)
	}

	// A repository with no labels, milestones, issues or templates.
	withState(env, func(s *emulator.State) {
		s.AddRepo(s.Account("alice"), "empty", "", false, widgets(env).CreatedAt)
	})
	env.Upstream()
	res := env.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "alice", Repo: "empty"})
	if !strings.Contains(string(res.JSON), `"counts":{"open_issues":0,"open_prs":0}`) {
		t.Errorf("zero counts must be written: %s", res.JSON)
	}
	var out issues.GetOverviewOut
	res.Decode(t, &out)
	if out.Counts == nil || out.Counts.OpenIssues != 0 || out.Counts.OpenPRs != 0 || out.Metadata.Labels != nil || out.Metadata.Milestones != nil || out.Metadata.Templates != nil ||
		out.Issues.Newest != nil || out.Issues.MostCommented != nil || out.Permission != "admin" {
		t.Errorf("empty repository: %+v", out)
	}
	wantUpstream(t, env, "POST /api/graphql", "GET /repos/alice/empty/contents/.github/ISSUE_TEMPLATE")
	if len(out.Requests) != 2 {
		t.Errorf("requests reported: %+v", out.Requests)
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
	if n := len(env.Upstream()); n != 5 || len(out.Requests) != 5 {
		t.Errorf("%d upstream requests, %d reported; want 5", n, len(out.Requests))
	}
	if len(out.Metadata.Labels) != 100 || len(out.Metadata.Templates) != 3 || !out.Truncated ||
		!strings.Contains(out.TruncationHint, "labels (100 of 105)") || !strings.Contains(out.TruncationHint, "templates") ||
		!strings.Contains(out.TruncationHint, toolkit.NameListRepoMetadata) {
		t.Errorf("labels %d, templates %d, truncated %v %q", len(out.Metadata.Labels), len(out.Metadata.Templates), out.Truncated, out.TruncationHint)
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
	if out.Counts == nil || out.Counts.OpenIssues != want.openIssues || len(out.Metadata.Labels) != len(want.labels) ||
		len(out.Metadata.Milestones) != len(want.milestones) || !slices.Equal(out.Metadata.IssueTypes, want.types) ||
		!slices.Equal(rowNumbers(out.Issues.Newest), want.newest) || out.Permission != "admin" {
		t.Errorf("the sections read are not whole: %+v", out)
	}
	if out.Metadata.Templates != nil {
		t.Errorf("templates listed though unread: %+v", out.Metadata.Templates)
	}
	wantUpstream(t, env, "POST /api/graphql", "GET /repos/acme/widgets/contents/.github/ISSUE_TEMPLATE")
	if len(out.Requests) != 2 || out.Requests[1].What != "GET contents/.github/ISSUE_TEMPLATE" {
		t.Errorf("requests reported: %+v", out.Requests)
	}
}

// wantUnread checks that partial_success names exactly want.
func wantUnread(t *testing.T, out issues.GetOverviewOut, want ...issues.UnreadSection) {
	t.Helper()
	if out.PartialSuccess == nil {
		t.Fatalf("no partial_success; want %+v", want)
	}
	if !slices.EqualFunc(out.PartialSuccess.Unread, want, func(a, b issues.UnreadSection) bool {
		return a.Section == b.Section && a.Code == b.Code && slices.Equal(a.RequiredScopes, b.RequiredScopes)
	}) {
		t.Errorf("unread %+v, want %+v", out.PartialSuccess.Unread, want)
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
	if out.Counts == nil || out.Counts.OpenIssues == 0 || len(out.Metadata.Labels) == 0 || out.Permission != "admin" || out.Metadata.Templates != nil {
		t.Errorf("a templates failure lost what the query read: %+v", out)
	}

	env.Emu.Emu.Faults().Clear()
	addFault(t, env, queryFault)
	out = servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, in)
	var queried []issues.UnreadSection
	for _, sec := range []string{"counts", "labels", "milestones", "issue_types", "issues", "permission"} {
		queried = append(queried, issues.UnreadSection{Section: sec, Code: contract.CodeUpstreamUnavailable})
	}
	wantUnread(t, out, queried...)
	if len(out.Metadata.Templates) == 0 || out.Counts != nil || out.Permission != "" || out.Metadata.Labels != nil || out.Issues.Newest != nil {
		t.Errorf("a query failure: want the templates alone: %+v", out)
	}
	// Not knowing the repository exists, the templates read would ask
	// for it on a 404; the demo has templates, so it did not.
	if len(out.Requests) < 2 || out.Requests[0].API != "graphql" || out.Requests[1].What != "GET contents/.github/ISSUE_TEMPLATE" {
		t.Errorf("requests reported: %+v", out.Requests)
	}

	addFault(t, env, templatesFault)
	e := wireEnvelope(t, env.Call(t, toolkit.NameGetOverview, in), false)
	if e.Code != contract.CodeUpstreamUnavailable || !e.Temporary || e.Repair == nil || !strings.Contains(e.Repair.NextStep, "same call again") {
		t.Fatalf("nothing read: %+v %+v", e, e.Repair)
	}

	// A missing repository is repo_not_found even when the query failed:
	// the templates read asks for the repository.
	env.Emu.Emu.Faults().Clear()
	addFault(t, env, queryFault)
	env.Upstream()
	e = wireEnvelope(t, env.Call(t, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "nothing-here"}), false)
	if e.Code != contract.CodeRepoNotFound || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("missing repository behind a failed query: %+v", e)
	}

	env.Emu.Emu.Faults().Clear()
	out = servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, in)
	if out.PartialSuccess != nil || len(out.Metadata.Templates) == 0 || out.Counts == nil {
		t.Fatalf("the same call again is not whole: %+v", out)
	}
}

// What an overview listed exists: a create naming its labels, an open
// milestone and a type is the POST alone.
func TestOverviewNamesSkipThePreflight(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	out := servertest.CallOK[issues.GetOverviewOut](t, env, toolkit.NameGetOverview, issues.GetOverviewIn{Owner: "acme", Repo: "widgets"})
	if len(out.Metadata.Milestones) == 0 || len(out.Metadata.IssueTypes) == 0 {
		t.Fatalf("overview without milestones or types: %+v", out.Metadata)
	}
	env.Upstream()
	res := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "after an overview",
		Labels: []string{"bug", "enhancement"}, Milestone: toolkit.MilestoneNumber(out.Metadata.Milestones[0].Number), Type: out.Metadata.IssueTypes[0]})
	if res.IsError {
		t.Fatal(string(res.JSON))
	}
	if calls := env.Upstream(); len(calls) != 1 {
		t.Fatalf("a create naming what the overview listed should be the POST alone: %v", calls)
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
	if e.Code != contract.CodeGone || !strings.Contains(e.Message, "disabled") || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("issues disabled: %+v", e)
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
	if !out.Truncated || !strings.Contains(out.TruncationHint, fmt.Sprintf("%d open issues opened by someone other than %s", len(others), allowed)) {
		t.Errorf("truncated %v, hint %q: want %d withheld rows named", out.Truncated, out.TruncationHint, len(others))
	}
}
