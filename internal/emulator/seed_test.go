package emulator_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The demo seed's promises, checked on the state itself. seed_http_test.go
// checks the same world through the REST API.

func seeded(t *testing.T) *emulator.State {
	t.Helper()
	s := state.NewState(emulator.DemoNow)
	if err := seed.SeedDemo(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func repo(t *testing.T, s *emulator.State, owner, name string) *emulator.Repo {
	t.Helper()
	r := s.Repo(owner, name)
	if r == nil {
		t.Fatalf("repository %s/%s missing", owner, name)
	}
	return r
}

func widgetsIssue(t *testing.T, s *emulator.State, n int) *emulator.Issue {
	t.Helper()
	is := repo(t, s, emulator.DemoOrg, emulator.DemoWidgetsRepo).Issue(n)
	if is == nil {
		t.Fatalf("acme/widgets#%d missing", n)
	}
	return is
}

func TestDemoSeedAccountsReposAndTokens(t *testing.T) {
	s := seeded(t)
	a := s.Account("acme")
	if a == nil {
		t.Fatal("account acme missing")
	}
	if !a.IsOrg {
		t.Errorf("acme IsOrg = false, want true")
	}
	for _, login := range []string{"alice", "bob", "carol", "dave"} {
		a := s.Account(login)
		if a == nil {
			t.Fatalf("account %s missing", login)
		}
		if a.IsOrg {
			t.Errorf("%s IsOrg = true, want false (a user)", login)
		}
	}
	widgets := repo(t, s, "acme", "widgets")
	gadgets := repo(t, s, "acme", "gadgets")
	notes := repo(t, s, "alice", "notes")
	for _, v := range []struct {
		r    *emulator.Repo
		want bool
	}{{widgets, false}, {gadgets, true}, {notes, true}} {
		if v.r.Private != v.want {
			t.Errorf("%s Private = %v, want %v", v.r.FullName(), v.r.Private, v.want)
		}
	}
	if notes.Owner.Login != "alice" {
		t.Errorf("alice/notes Owner.Login = %q, want %q", notes.Owner.Login, "alice")
	}
	for _, r := range []*emulator.Repo{widgets, gadgets} {
		for _, login := range []string{"alice", "bob", "carol"} {
			if !r.IsCollaborator(login) {
				t.Errorf("%s should be a collaborator on %s", login, r.FullName())
			}
		}
		if r.IsCollaborator("dave") {
			t.Errorf("dave should not be a collaborator on %s", r.FullName())
		}
	}

	want := []struct {
		token string
		login string
		perms map[*emulator.Repo]emulator.Permission
	}{
		{emulator.DemoTokenAlice, "alice", map[*emulator.Repo]emulator.Permission{widgets: emulator.PermAdmin, gadgets: emulator.PermAdmin, notes: emulator.PermAdmin}},
		{emulator.DemoTokenBob, "bob", map[*emulator.Repo]emulator.Permission{widgets: emulator.PermWrite, gadgets: emulator.PermWrite, notes: state.PermNone}},
		{emulator.DemoTokenCarol, "carol", map[*emulator.Repo]emulator.Permission{widgets: emulator.PermRead, gadgets: emulator.PermRead, notes: state.PermNone}},
		{emulator.DemoTokenDave, "dave", map[*emulator.Repo]emulator.Permission{widgets: emulator.PermRead, gadgets: state.PermNone, notes: state.PermNone}},
	}
	for _, w := range want {
		tok := s.Token(w.token)
		if tok == nil {
			t.Fatalf("token %s missing", w.token)
		}
		if tok.Login != w.login {
			t.Fatalf("token %s Login = %q, want %q", w.token, tok.Login, w.login)
		}
		for r, p := range w.perms {
			if got := tok.Permission(r); got != p {
				t.Errorf("%s on %s: %v, want %v", w.token, r.FullName(), got, p)
			}
		}
	}
	for _, r := range []*emulator.Repo{widgets, gadgets, notes} {
		if !strings.HasPrefix(r.Files["README.md"], "# ") {
			t.Errorf("%s has no README.md", r.FullName())
		}
	}
}

func TestDemoSeedWidgetsVolumeAndText(t *testing.T) {
	s := seeded(t)
	r := repo(t, s, "acme", "widgets")
	if len(r.Issues) != emulator.DemoWidgetsIssueCount {
		t.Fatalf("acme/widgets holds %d issues, want DemoWidgetsIssueCount (%d)", len(r.Issues), emulator.DemoWidgetsIssueCount)
	}
	if len(r.Issues) < 150 {
		t.Fatalf("acme/widgets holds %d issues, want at least 150", len(r.Issues))
	}
	var pulls, merged, commented, nilBodies, sized, bodies int
	titles := map[string]int{}
	for _, is := range r.Issues {
		titles[is.Title]++
		if is.IsPull {
			pulls++
			if !slices.Contains(seed.DemoPulls(), is.Number) {
				t.Errorf("#%d is a pull request but not in DemoPulls", is.Number)
			}
			if is.Merged {
				merged++
				if is.State != "closed" {
					t.Errorf("merged pull request #%d State = %q, want %q", is.Number, is.State, "closed")
				}
				if is.ClosedAt == nil {
					t.Errorf("merged pull request #%d ClosedAt = nil, want set", is.Number)
				}
			}
		}
		if len(is.Comments) > 0 {
			commented++
		}
		if is.Body == nil {
			nilBodies++
			continue
		}
		bodies++
		if n := len(*is.Body); n >= 200 && n <= 1500 {
			sized++
		}
		if !utf8.ValidString(*is.Body) {
			t.Errorf("#%d body is not valid UTF-8", is.Number)
		}
	}
	if pulls != len(seed.DemoPulls()) {
		t.Errorf("pull requests: %d, want len(DemoPulls) = %d", pulls, len(seed.DemoPulls()))
	}
	if pulls < 10 {
		t.Errorf("pull requests: %d, want at least 10", pulls)
	}
	if first := r.Issue(emulator.DemoFirstPull); !first.IsPull {
		t.Errorf("DemoFirstPull #%d IsPull = false, want true", emulator.DemoFirstPull)
	}
	if got := slices.Min(seed.DemoPulls()); got != emulator.DemoFirstPull {
		t.Errorf("first of DemoPulls = #%d, want DemoFirstPull #%d", got, emulator.DemoFirstPull)
	}
	if merged < 5 {
		t.Errorf("merged pull requests: %d, want at least 5", merged)
	}
	if commented < len(r.Issues)/3 {
		t.Errorf("%d of %d issues have comments, want at least a third", commented, len(r.Issues))
	}
	if nilBodies == 0 {
		t.Error("no issue has a null body, want some")
	}
	if sized*4 < bodies*3 {
		t.Errorf("%d of %d bodies are 200 to 1500 bytes long, want at least three quarters", sized, bodies)
	}
	for title, n := range titles {
		if n > 1 {
			t.Errorf("title used %d times: %q", n, title)
		}
	}
}

func TestDemoSeedLabelsMilestonesAndTypes(t *testing.T) {
	s := seeded(t)
	r := repo(t, s, "acme", "widgets")
	if len(r.Labels) < 12 {
		t.Errorf("acme/widgets has %d labels, want at least 12", len(r.Labels))
	}
	hex := regexp.MustCompile(`^[0-9a-f]{6}$`)
	for _, l := range r.Labels {
		if !hex.MatchString(l.Color) {
			t.Errorf("label %q Color = %q, want six lowercase hex digits", l.Name, l.Color)
		}
		if l.Description == nil || *l.Description == "" {
			t.Errorf("label %q Description is nil or empty, want text", l.Name)
		}
	}
	for _, name := range []string{"bug", "enhancement", "status: triage", "status: in progress", "priority: high"} {
		l := r.FindLabel(name)
		if l == nil {
			t.Errorf("label %q missing", name)
			continue
		}
		if l.Name != name {
			t.Errorf("FindLabel(%q).Name = %q, want %q", name, l.Name, name)
		}
	}
	if len(r.Milestones) != 3 {
		t.Fatalf("acme/widgets has %d milestones, want 3", len(r.Milestones))
	}
	closed := 0
	for _, m := range r.Milestones {
		if m.DueOn == nil {
			t.Errorf("milestone %s has no due date", m.Title)
		}
		if m.State == "closed" {
			closed++
			if m.ClosedAt == nil {
				t.Errorf("closed milestone %s has no closed_at", m.Title)
			}
		}
	}
	if closed != 1 {
		t.Errorf("closed milestones: %d, want 1", closed)
	}

	gadgets := repo(t, s, "acme", "gadgets")
	if n := len(gadgets.Issues); n < 18 || n > 25 {
		t.Errorf("acme/gadgets holds %d issues, want 18..25", n)
	}
	if len(gadgets.Labels) < 3 {
		t.Errorf("acme/gadgets has %d labels, want at least 3", len(gadgets.Labels))
	}
	if gadgets.FindLabel("firmware") == nil {
		t.Errorf("acme/gadgets lacks its own label %q", "firmware")
	}
	if l := gadgets.FindLabel("enhancement"); l != nil {
		t.Errorf("acme/gadgets has widgets' label %q, want it absent", l.Name)
	}
	if n := len(repo(t, s, "alice", "notes").Issues); n != 5 {
		t.Errorf("alice/notes holds %d issues, want 5", n)
	}

	types := s.IssueTypes("acme")
	var names []string
	for _, it := range types {
		names = append(names, it.Name)
		if it.Description == nil || *it.Description == "" {
			t.Errorf("issue type %s Description is nil or empty, want text", it.Name)
		}
		colors := []string{"gray", "blue", "green", "yellow", "orange", "red", "pink", "purple"}
		if it.Color == nil {
			t.Errorf("issue type %s Color = nil, want one of %v", it.Name, colors)
		} else if !slices.Contains(colors, *it.Color) {
			t.Errorf("issue type %s Color = %q, want one of %v", it.Name, *it.Color, colors)
		}
	}
	if !slices.Equal(names, []string{"Task", "Bug", "Feature"}) {
		t.Errorf("acme issue types: %v, want Task, Bug, Feature", names)
	}
	typed := 0
	for _, is := range r.Issues {
		if is.Type != nil {
			typed++
			if is.IsPull {
				t.Errorf("pull request #%d has an issue type", is.Number)
			}
		}
	}
	if typed < 20 {
		t.Errorf("%d issues have a type, want at least 20", typed)
	}
}

func TestDemoSeedSubIssueTreesAndDependencies(t *testing.T) {
	s := seeded(t)
	r := repo(t, s, "acme", "widgets")
	parents := 0
	for _, is := range r.Issues {
		if len(is.SubIssues) >= 3 {
			parents++
		}
		for _, c := range is.SubIssues {
			if c.Parent != is {
				t.Errorf("#%d lists #%d as a sub-issue but its parent is %v", is.Number, c.Number, c.Parent)
			}
		}
	}
	if parents < 2 {
		t.Errorf("parents with 3+ sub-issues: %d, want at least 2", parents)
	}
	top := widgetsIssue(t, s, emulator.DemoParentIssue)
	nested := widgetsIssue(t, s, emulator.DemoNestedParentIssue)
	if nested.Parent != top {
		t.Errorf("DemoNestedParentIssue Parent = %v, want DemoParentIssue #%d", nested.Parent, top.Number)
	}
	if len(nested.SubIssues) < 3 {
		t.Errorf("DemoNestedParentIssue has %d sub-issues, want at least 3", len(nested.SubIssues))
	}
	if second := widgetsIssue(t, s, seed.DemoSecondParentIssue); len(second.SubIssues) < 3 {
		t.Errorf("DemoSecondParentIssue has %d sub-issues, want at least 3", len(second.SubIssues))
	}

	blocked := widgetsIssue(t, s, emulator.DemoBlockedIssue)
	chain := widgetsIssue(t, s, emulator.DemoChainIssue)
	blocker := widgetsIssue(t, s, emulator.DemoBlockerIssue)
	if !slices.Contains(blocked.BlockedBy, chain) {
		t.Errorf("#%d BlockedBy (%d issues) lacks DemoChainIssue #%d", blocked.Number, len(blocked.BlockedBy), chain.Number)
	}
	if !slices.Contains(chain.BlockedBy, blocker) {
		t.Errorf("#%d BlockedBy (%d issues) lacks DemoBlockerIssue #%d", chain.Number, len(chain.BlockedBy), blocker.Number)
	}
	if blocker.State != "closed" {
		t.Errorf("DemoBlockerIssue #%d State = %q, want %q", blocker.Number, blocker.State, "closed")
	}
	if slices.IndexFunc(blocked.BlockedBy, func(b *emulator.Issue) bool { return b.State == "open" }) < 0 {
		t.Errorf("#%d has no open blocker, want at least one", blocked.Number)
	}
	// No cycles: following blocked-by links from any issue never returns
	// to it. The walk is bounded by the number of issues.
	for _, is := range r.Issues {
		seen := map[*emulator.Issue]bool{}
		queue := slices.Clone(is.BlockedBy)
		for len(queue) > 0 && len(seen) <= len(r.Issues) {
			b := queue[0]
			queue = queue[1:]
			if b == is {
				t.Fatalf("#%d blocks itself through a cycle", is.Number)
			}
			if !seen[b] {
				seen[b] = true
				queue = append(queue, b.BlockedBy...)
			}
		}
		for _, b := range is.BlockedBy {
			if !slices.Contains(b.Blocking, is) {
				t.Errorf("#%d blocked by #%d, but #%d does not list it as blocking", is.Number, b.Number, b.Number)
			}
		}
	}
}

func TestDemoSeedNotableIssues(t *testing.T) {
	s := seeded(t)
	r := repo(t, s, "acme", "widgets")

	locked := widgetsIssue(t, s, emulator.DemoLockedIssue)
	if !locked.Locked {
		t.Errorf("DemoLockedIssue Locked = false, want true")
	}
	if locked.ActiveLockReason == nil {
		t.Errorf("DemoLockedIssue ActiveLockReason = nil, want %q", "too heated")
	} else if *locked.ActiveLockReason != "too heated" {
		t.Errorf("DemoLockedIssue ActiveLockReason = %q, want %q", *locked.ActiveLockReason, "too heated")
	}
	if !slices.ContainsFunc(locked.Events, func(e *state.Event) bool { return e.Event == "locked" }) {
		t.Error("DemoLockedIssue has no locked event")
	}
	if n := len(widgetsIssue(t, s, emulator.DemoManyCommentsIssue).Comments); n < 12 {
		t.Errorf("DemoManyCommentsIssue has %d comments, want at least 12", n)
	}

	unlabeled := 0
	reasons := map[string]int{}
	for _, is := range r.Issues {
		if !is.IsPull && is.State == "open" && len(is.Labels) == 0 {
			unlabeled++
		}
		if is.State == "closed" && !is.IsPull {
			if is.StateReason == nil {
				t.Errorf("closed issue #%d has no state_reason", is.Number)
				continue
			}
			reasons[*is.StateReason]++
		}
	}
	if unlabeled < 5 {
		t.Errorf("open issues without labels: %d, want at least 5", unlabeled)
	}
	for _, reason := range []string{"completed", "not_planned", "duplicate"} {
		if reasons[reason] == 0 {
			t.Errorf("no issue closed as %s (have %v)", reason, reasons)
		}
	}
	for n, reason := range map[int]string{emulator.DemoNotPlannedIssue: "not_planned", emulator.DemoDuplicateIssue: "duplicate"} {
		is := widgetsIssue(t, s, n)
		if is.StateReason == nil {
			t.Errorf("#%d StateReason = nil, want %q", n, reason)
		} else if *is.StateReason != reason {
			t.Errorf("#%d StateReason = %q, want %q", n, *is.StateReason, reason)
		}
	}

	triage := widgetsIssue(t, s, emulator.DemoTriageIssue)
	var names []string
	for _, l := range triage.Labels {
		names = append(names, l.Name)
	}
	if triage.State != "open" {
		t.Errorf("DemoTriageIssue State = %q, want %q", triage.State, "open")
	}
	if !slices.Contains(names, "status: triage") {
		t.Errorf("DemoTriageIssue labels = %v, want %q among them", names, "status: triage")
	}
	if len(names) < 2 {
		t.Errorf("DemoTriageIssue has %d labels (%v), want at least 2", len(names), names)
	}
	if len(triage.Comments) == 0 {
		t.Errorf("DemoTriageIssue has no comments, want some")
	}

	hostile := widgetsIssue(t, s, emulator.DemoHostileIssue)
	if hostile.Body == nil {
		t.Fatal("DemoHostileIssue has no body")
	}
	checkHostile(t, *hostile.Body)
}

// hostileClasses are the kinds of content DemoHostileIssue must carry.
var hostileClasses = []struct {
	name string
	has  func(string) bool
}{
	{"U+200B", func(s string) bool { return strings.ContainsRune(s, '\u200b') }},
	{"U+200C", func(s string) bool { return strings.ContainsRune(s, '\u200c') }},
	{"U+200D", func(s string) bool { return strings.ContainsRune(s, '\u200d') }},
	{"U+2060", func(s string) bool { return strings.ContainsRune(s, '\u2060') }},
	{"U+FEFF", func(s string) bool { return strings.ContainsRune(s, '\ufeff') }},
	{"bidi U+202A-U+202E", func(s string) bool {
		for r := '\u202a'; r <= '\u202e'; r++ {
			if !strings.ContainsRune(s, r) {
				return false
			}
		}
		return true
	}},
	{"bidi U+2066-U+2069", func(s string) bool {
		for r := '\u2066'; r <= '\u2069'; r++ {
			if !strings.ContainsRune(s, r) {
				return false
			}
		}
		return true
	}},
	{"tag characters", func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r >= 0xE0000 && r <= 0xE007F })
	}},
	{"HTML comment instruction", func(s string) bool {
		return regexp.MustCompile(`(?s)<!--\s*ignore previous instructions.*?-->`).MatchString(s)
	}},
	{"a<b", func(s string) bool { return strings.Contains(s, "a<b") }},
	{"&&", func(s string) bool { return strings.Contains(s, "&&") }},
	{"fenced code block", func(s string) bool { return regexp.MustCompile("(?s)\n```[a-z]*\n.+?\n```").MatchString(s) }},
}

func checkHostile(t *testing.T, body string) {
	t.Helper()
	for _, c := range hostileClasses {
		if !c.has(body) {
			t.Errorf("hostile body lacks %s", c.name)
		}
	}
	if !utf8.ValidString(body) {
		t.Error("hostile body is not valid UTF-8")
	}
}

func TestDemoSeedTemplates(t *testing.T) {
	s := seeded(t)
	files := repo(t, s, "acme", "widgets").Files
	form := files[".github/ISSUE_TEMPLATE/bug_report.yml"]
	for _, want := range []string{"name: ", "description: ", "title: ", "labels: ", "body:",
		"type: markdown", "type: textarea", "type: input", "type: dropdown", "type: checkboxes"} {
		if !strings.Contains(form, want) {
			t.Errorf("bug_report.yml lacks %q", want)
		}
	}
	md := files[".github/ISSUE_TEMPLATE/feature_request.md"]
	front, _, ok := strings.Cut(strings.TrimPrefix(md, "---\n"), "\n---\n")
	if !strings.HasPrefix(md, "---\n") {
		t.Fatalf("feature_request.md does not start with \"---\\n\":\n%s", md)
	}
	if !ok {
		t.Fatalf("feature_request.md front matter has no closing \"---\":\n%s", md)
	}
	for _, key := range []string{"name:", "about:", "title:", "labels:", "assignees:"} {
		if !strings.Contains(front, "\n"+key) && !strings.HasPrefix(front, key) {
			t.Errorf("feature_request.md front matter lacks %s", key)
		}
	}
	if !strings.Contains(files[".github/ISSUE_TEMPLATE/config.yml"], "blank_issues_enabled:") {
		t.Error("config.yml lacks blank_issues_enabled")
	}
}

// Every timestamp lies between the seed's start and DemoNow, and each
// issue's timeline reads in order.
func TestDemoSeedTimesAreOrdered(t *testing.T) {
	s := seeded(t)
	start := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	for _, r := range s.Repos() {
		for _, is := range r.Issues {
			if is.CreatedAt.Before(start) {
				t.Errorf("%s#%d CreatedAt = %s, want at or after %s", r.FullName(), is.Number, is.CreatedAt, start)
			}
			if now := emulator.DemoNow(); !is.UpdatedAt.Before(now) {
				t.Errorf("%s#%d UpdatedAt = %s, want before DemoNow %s", r.FullName(), is.Number, is.UpdatedAt, now)
			}
			if is.UpdatedAt.Before(is.CreatedAt) {
				t.Errorf("%s#%d UpdatedAt = %s, want at or after CreatedAt %s", r.FullName(), is.Number, is.UpdatedAt, is.CreatedAt)
			}
			prev := is.CreatedAt
			for _, e := range is.Events {
				if e.CreatedAt.Before(prev) {
					t.Errorf("%s#%d: %s event at %s precedes the one before (%s)", r.FullName(), is.Number, e.Event, e.CreatedAt, prev)
				}
				prev = e.CreatedAt
			}
			if is.ClosedAt != nil && is.ClosedAt.Before(is.CreatedAt) {
				t.Errorf("%s#%d closed before it was created", r.FullName(), is.Number)
			}
		}
	}
}

func TestDemoSeedRestoresTheClock(t *testing.T) {
	fixed := time.Date(2030, time.May, 4, 3, 2, 1, 0, time.UTC)
	s := state.NewState(func() time.Time { return fixed })
	if err := seed.SeedDemo(s); err != nil {
		t.Fatal(err)
	}
	if got := s.Now(); !got.Equal(fixed) {
		t.Fatalf("clock after seeding reads %s, want the caller's %s", got, fixed)
	}
}

// Every seeded pull request that says "Fixes #N" is cross-referenced on
// #N's timeline, as GitHub records a mention, and no issue records a
// mention of itself or twice from one source.
func TestDemoSeedCrossReferences(t *testing.T) {
	s := seeded(t)
	r := repo(t, s, "acme", "widgets")
	fixes := regexp.MustCompile(`(?m)^Fixes #(\d+)$`)
	linked := 0
	for _, n := range seed.DemoPulls() {
		pr := r.Issue(n)
		if pr.Body == nil {
			continue
		}
		m := fixes.FindStringSubmatch(*pr.Body)
		if m == nil {
			continue
		}
		target := widgetsIssue(t, s, atoi(t, m[1]))
		if !slices.ContainsFunc(target.Events, func(e *state.Event) bool {
			return e.Event == "cross-referenced" && e.Source == pr && e.Actor == pr.User && e.CreatedAt.Equal(pr.CreatedAt)
		}) {
			t.Errorf("#%d fixes #%s but #%s has no cross-referenced event from it", n, m[1], m[1])
		}
		linked++
	}
	if linked == 0 {
		t.Fatal("no seeded pull request fixes an issue")
	}
	for _, rp := range s.Repos() {
		for _, is := range rp.Issues {
			seen := map[*emulator.Issue]bool{}
			for _, e := range is.Events {
				if e.Event != "cross-referenced" {
					continue
				}
				switch {
				case e.Source == nil:
					t.Errorf("%s#%d: cross-referenced event Source = nil, want the mentioning issue", rp.FullName(), is.Number)
				case e.Source == is:
					t.Errorf("%s#%d: cross-referenced event from itself, want another issue", rp.FullName(), is.Number)
				case seen[e.Source]:
					t.Errorf("%s#%d: cross-referenced twice from #%d, want once", rp.FullName(), is.Number, e.Source.Number)
				}
				seen[e.Source] = true
			}
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
