package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Each qualifier is checked on the demo seed through GET /search/issues:
// the answer must be exactly the issues and pull requests a direct walk of
// the state selects, with the test's own reading of the qualifier (written
// against the model here, not through the emulator's search code).

type searchCase struct {
	q    string
	want func(is *state.Issue) bool
	// some says the seed must hold at least one match and one non-match,
	// so the case can tell a working qualifier from an ignored one.
	some bool
}

func hasLabel(is *state.Issue, name string) bool {
	for _, l := range is.Labels {
		if strings.EqualFold(l.Name, name) {
			return true
		}
	}
	return false
}

func hasAssignee(is *state.Issue, login string) bool {
	for _, a := range is.Assignees {
		if a.Login == login {
			return true
		}
	}
	return false
}

func hasCommenter(is *state.Issue, login string) bool {
	for _, c := range is.Comments {
		if c.User != nil && c.User.Login == login {
			return true
		}
	}
	return false
}

func inWidgets(is *state.Issue) bool { return is.Repo.FullName() == "acme/widgets" }

func day0(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// seedFacts picks values from the seed for the cases: a parent issue with
// sub-issues, an issue that blocks another, and a date in the middle of
// acme/widgets' history.
type seedFacts struct {
	parent, blocker *state.Issue
	mid             time.Time
	typeName        string
}

func demoFacts(t *testing.T, st *state.State) seedFacts {
	var f seedFacts
	widgets := st.Repo("acme", "widgets")
	var created []time.Time
	for _, is := range widgets.Issues {
		created = append(created, is.CreatedAt)
		if f.parent == nil && len(is.SubIssues) > 1 {
			f.parent = is
		}
		if f.blocker == nil && len(is.Blocking) > 0 {
			f.blocker = is
		}
		if f.typeName == "" && is.Type != nil {
			f.typeName = is.Type.Name
		}
	}
	if f.parent == nil {
		t.Fatalf("acme/widgets has no issue with 2+ sub-issues, want one")
	}
	if f.blocker == nil {
		t.Fatalf("acme/widgets has no issue blocking another, want one")
	}
	if f.typeName == "" {
		t.Fatalf("acme/widgets has no issue with a type, want one")
	}
	if len(created) == 0 {
		t.Fatalf("acme/widgets has no issues, want some")
	}
	slices.SortFunc(created, func(a, b time.Time) int { return a.Compare(b) })
	f.mid = created[len(created)/2].Truncate(24 * time.Hour)
	return f
}

func searchCases(f seedFacts) []searchCase {
	mid := f.mid.Format("2006-01-02")
	midEnd := f.mid.AddDate(0, 0, 1)
	parentRef := fmt.Sprintf("%s#%d", f.parent.Repo.FullName(), f.parent.Number)
	return []searchCase{
		{q: "repo:acme/widgets", want: inWidgets, some: true},
		{q: "-repo:acme/widgets", want: func(is *state.Issue) bool { return !inWidgets(is) }, some: true},
		{q: "user:acme", want: func(is *state.Issue) bool { return is.Repo.Owner.Login == "acme" }, some: true},
		{q: "-user:acme", want: func(is *state.Issue) bool { return is.Repo.Owner.Login != "acme" }, some: true},
		{q: "repo:acme/widgets repo:acme/gadgets", want: func(is *state.Issue) bool { return is.Repo.Owner.Login == "acme" }, some: true},
		{q: "(repo:acme/widgets OR repo:alice/notes) is:issue", want: func(is *state.Issue) bool {
			return (inWidgets(is) || is.Repo.FullName() == "alice/notes") && !is.IsPull
		}, some: true},
		{q: "repo:acme/widgets is:pr", want: func(is *state.Issue) bool { return inWidgets(is) && is.IsPull }, some: true},
		{q: "repo:acme/widgets type:issue is:closed", want: func(is *state.Issue) bool { return inWidgets(is) && !is.IsPull && is.State == "closed" }, some: true},
		{q: "repo:acme/widgets state:open", want: func(is *state.Issue) bool { return inWidgets(is) && is.State == "open" }, some: true},
		{q: "repo:acme/widgets is:unmerged", want: func(is *state.Issue) bool { return inWidgets(is) && is.IsPull && !is.Merged }},
		// Pull request qualifiers, read here from the pull request model.
		{q: "repo:acme/widgets is:merged", want: func(is *state.Issue) bool { return inWidgets(is) && is.Pull != nil && is.Pull.MergedAt != nil }, some: true},
		{q: "repo:acme/widgets is:draft", want: func(is *state.Issue) bool { return inWidgets(is) && is.Pull != nil && is.Pull.Draft }, some: true},
		{q: "repo:acme/widgets is:pr draft:false", want: func(is *state.Issue) bool { return inWidgets(is) && is.Pull != nil && !is.Pull.Draft }, some: true},
		{q: "repo:acme/widgets review:approved", want: func(is *state.Issue) bool {
			return inWidgets(is) && latestVerdict(is, "APPROVED") && !latestVerdict(is, "CHANGES_REQUESTED")
		}, some: true},
		{q: "repo:acme/widgets review:changes_requested", want: func(is *state.Issue) bool { return inWidgets(is) && latestVerdict(is, "CHANGES_REQUESTED") }, some: true},
		{q: "repo:acme/widgets is:pr review:none", want: func(is *state.Issue) bool { return inWidgets(is) && is.Pull != nil && submittedReviews(is) == 0 }, some: true},
		{q: "repo:acme/widgets reviewed-by:alice", want: func(is *state.Issue) bool { return inWidgets(is) && reviewedBy(is, "alice") }, some: true},
		{q: "repo:acme/widgets -reviewed-by:alice is:pr", want: func(is *state.Issue) bool { return inWidgets(is) && is.IsPull && !reviewedBy(is, "alice") }, some: true},
		{q: "repo:acme/widgets base:main", want: func(is *state.Issue) bool { return inWidgets(is) && is.Pull != nil && is.Pull.BaseRef == "main" }, some: true},
		{q: "repo:acme/widgets linked:issue", want: func(is *state.Issue) bool { return inWidgets(is) && is.IsPull && mentionsClosing(is) }},
		{q: "repo:acme/widgets is:locked", want: func(is *state.Issue) bool { return inWidgets(is) && is.Locked }, some: true},
		{q: "is:private", want: func(is *state.Issue) bool { return is.Repo.Private }, some: true},
		{q: "type:" + f.typeName, want: func(is *state.Issue) bool { return is.Type != nil && is.Type.Name == f.typeName }, some: true},
		{q: "-type:" + strings.ToLower(f.typeName), want: func(is *state.Issue) bool { return is.Type == nil || is.Type.Name != f.typeName }, some: true},
		{q: "reason:completed", want: func(is *state.Issue) bool {
			return is.State == "closed" && is.StateReason != nil && *is.StateReason == "completed"
		}, some: true},
		{q: `reason:"not planned"`, want: func(is *state.Issue) bool {
			return is.State == "closed" && is.StateReason != nil && *is.StateReason == "not_planned"
		}, some: true},
		{q: "label:bug", want: func(is *state.Issue) bool { return hasLabel(is, "bug") }, some: true},
		{q: "label:bug,enhancement", want: func(is *state.Issue) bool { return hasLabel(is, "bug") || hasLabel(is, "enhancement") }, some: true},
		{q: `label:bug label:"area: api"`, want: func(is *state.Issue) bool { return hasLabel(is, "bug") && hasLabel(is, "area: api") }, some: true},
		{q: "repo:acme/widgets -label:bug", want: func(is *state.Issue) bool { return inWidgets(is) && !hasLabel(is, "bug") }, some: true},
		{q: "no:label", want: func(is *state.Issue) bool { return len(is.Labels) == 0 }, some: true},
		{q: "no:assignee", want: func(is *state.Issue) bool { return len(is.Assignees) == 0 }, some: true},
		{q: "no:milestone", want: func(is *state.Issue) bool { return is.Milestone == nil }, some: true},
		{q: "milestone:v1.5.0", want: func(is *state.Issue) bool { return is.Milestone != nil && is.Milestone.Title == "v1.5.0" }, some: true},
		{q: "comments:>3", want: func(is *state.Issue) bool { return len(is.Comments) > 3 }, some: true},
		{q: "comments:>=3", want: func(is *state.Issue) bool { return len(is.Comments) >= 3 }, some: true},
		{q: "comments:<2", want: func(is *state.Issue) bool { return len(is.Comments) < 2 }, some: true},
		{q: "comments:2..4", want: func(is *state.Issue) bool { return len(is.Comments) >= 2 && len(is.Comments) <= 4 }, some: true},
		{q: "comments:5..*", want: func(is *state.Issue) bool { return len(is.Comments) >= 5 }, some: true},
		{q: "is:blocked", want: func(is *state.Issue) bool { return len(is.BlockedBy) > 0 }, some: true},
		{q: "is:blocking", want: func(is *state.Issue) bool { return len(is.Blocking) > 0 }, some: true},
		{q: fmt.Sprintf("blocked-by:%d", f.blocker.Number), want: func(is *state.Issue) bool {
			return slices.ContainsFunc(is.BlockedBy, func(b *state.Issue) bool { return b == f.blocker }) ||
				slices.ContainsFunc(is.BlockedBy, func(b *state.Issue) bool { return b.Number == f.blocker.Number && b.Repo == is.Repo })
		}, some: true},
		{q: fmt.Sprintf("blocking:%s#%d", f.blocker.Repo.FullName(), f.blocker.Number), want: func(is *state.Issue) bool {
			return slices.ContainsFunc(is.Blocking, func(b *state.Issue) bool { return b.Repo == f.blocker.Repo && b.Number == f.blocker.Number })
		}},
		{q: "parent-issue:" + parentRef, want: func(is *state.Issue) bool { return is.Parent == f.parent }, some: true},
		{q: "has:sub-issues", want: func(is *state.Issue) bool {
			return slices.ContainsFunc(is.SubIssues, func(c *state.Issue) bool { return !c.Deleted })
		}, some: true},
		{q: "no:sub-issues", want: func(is *state.Issue) bool {
			return !slices.ContainsFunc(is.SubIssues, func(c *state.Issue) bool { return !c.Deleted })
		}, some: true},
		{q: "has:parent-issue", want: func(is *state.Issue) bool { return is.Parent != nil }, some: true},
		{q: "no:parent-issue", want: func(is *state.Issue) bool { return is.Parent == nil }, some: true},
		{q: "sub-issues-progress:>0", want: func(is *state.Issue) bool {
			done, total := 0, 0
			for _, c := range is.SubIssues {
				if !c.Deleted {
					total++
					if c.State == "closed" {
						done++
					}
				}
			}
			return total > 0 && done*100/total > 0
		}},
		{q: "sub-issues-progress:0", want: func(is *state.Issue) bool {
			total, done := 0, 0
			for _, c := range is.SubIssues {
				if !c.Deleted {
					total++
					if c.State == "closed" {
						done++
					}
				}
			}
			return total > 0 && done == 0
		}},
		{q: "author:carol", want: func(is *state.Issue) bool { return is.User.Login == "carol" }, some: true},
		{q: "-author:carol repo:acme/widgets", want: func(is *state.Issue) bool { return is.User.Login != "carol" && inWidgets(is) }, some: true},
		{q: "author:@me", want: func(is *state.Issue) bool { return is.User.Login == "alice" }, some: true},
		{q: "assignee:bob", want: func(is *state.Issue) bool { return hasAssignee(is, "bob") }, some: true},
		{q: "commenter:dave", want: func(is *state.Issue) bool { return hasCommenter(is, "dave") }, some: true},
		{q: "mentions:bob", want: func(is *state.Issue) bool { return state.MentionsUser(is, "bob") }},
		{q: "involves:carol", want: func(is *state.Issue) bool {
			return is.User.Login == "carol" || hasAssignee(is, "carol") || hasCommenter(is, "carol") || state.MentionsUser(is, "carol")
		}, some: true},
		{q: "created:>=" + mid, want: func(is *state.Issue) bool { return !is.CreatedAt.Before(f.mid) }, some: true},
		{q: "created:<" + mid, want: func(is *state.Issue) bool { return is.CreatedAt.Before(f.mid) }, some: true},
		{q: "created:>" + mid, want: func(is *state.Issue) bool { return !is.CreatedAt.Before(midEnd) }, some: true},
		{q: "created:" + f.mid.AddDate(0, -3, 0).Format("2006-01-02") + ".." + mid, want: func(is *state.Issue) bool {
			return !is.CreatedAt.Before(f.mid.AddDate(0, -3, 0)) && is.CreatedAt.Before(midEnd)
		}, some: true},
		{q: "updated:>=" + mid, want: func(is *state.Issue) bool { return !is.UpdatedAt.Before(f.mid) }, some: true},
		{q: "closed:*.." + mid, want: func(is *state.Issue) bool { return is.ClosedAt != nil && is.ClosedAt.Before(midEnd) }, some: true},
		{q: "-closed:*.." + mid + " repo:acme/widgets", want: func(is *state.Issue) bool {
			return inWidgets(is) && (is.ClosedAt == nil || !is.ClosedAt.Before(midEnd))
		}, some: true},
		{q: "widget in:title", want: func(is *state.Issue) bool { return strings.Contains(strings.ToLower(is.Title), "widget") }, some: true},
		{q: `"time zone" in:title,body`, want: func(is *state.Issue) bool {
			text := strings.ToLower(is.Title)
			if is.Body != nil {
				text += "\n" + strings.ToLower(*is.Body)
			}
			return strings.Contains(text, "time zone")
		}, some: true},
		{q: "thanks in:comments", want: func(is *state.Issue) bool {
			return slices.ContainsFunc(is.Comments, func(c *state.Comment) bool { return strings.Contains(strings.ToLower(c.Body), "thanks") })
		}, some: true},
		{q: "repo:acme/widgets -widget", want: func(is *state.Issue) bool {
			text := strings.ToLower(is.Title)
			if is.Body != nil {
				text += "\n" + strings.ToLower(*is.Body)
			}
			return inWidgets(is) && !strings.Contains(text, "widget")
		}, some: true},
		{q: "repo:acme/widgets NOT widget", want: func(is *state.Issue) bool {
			text := strings.ToLower(is.Title)
			if is.Body != nil {
				text += "\n" + strings.ToLower(*is.Body)
			}
			return inWidgets(is) && !strings.Contains(text, "widget")
		}, some: true},
		{q: "user:@me", want: func(is *state.Issue) bool { return is.Repo.Owner.Login == "alice" }, some: true},
		{q: "label:bug OR label:documentation", want: func(is *state.Issue) bool { return hasLabel(is, "bug") || hasLabel(is, "documentation") }, some: true},
		{q: "repo:acme/widgets -(label:bug OR is:closed)", want: func(is *state.Issue) bool {
			return inWidgets(is) && !hasLabel(is, "bug") && is.State != "closed"
		}, some: true},
	}
}

type issueSearchPage struct {
	TotalCount int `json:"total_count"`
	Items      []struct {
		Number        int    `json:"number"`
		RepositoryURL string `json:"repository_url"`
		CreatedAt     string `json:"created_at"`
		Comments      int    `json:"comments"`
	} `json:"items"`
}

func searchREST(t *testing.T, base, q, extra string) issueSearchPage {
	t.Helper()
	var all issueSearchPage
	for page := 1; ; page++ {
		u := base + "/search/issues?per_page=100&page=" + fmt.Sprint(page) + "&q=" + url.QueryEscape(q) + extra
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token "+seed.DemoTokenAlice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p issueSearchPage
		err = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("search %s: status %d, want %d", q, resp.StatusCode, http.StatusOK)
		}
		if err != nil {
			t.Fatalf("search %s: decode: %v", q, err)
		}
		all.TotalCount = p.TotalCount
		all.Items = append(all.Items, p.Items...)
		if len(p.Items) < 100 || len(all.Items) >= search.ResultCap {
			return all
		}
	}
}

func TestSearchQualifiers(t *testing.T) {
	emu, err := emulator.New(emulator.Options{Now: seed.DemoNow, SearchLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	st := emu.State()

	st.RLock()
	facts := demoFacts(t, st)
	st.RUnlock()
	for _, tc := range searchCases(facts) {
		t.Run(tc.q, func(t *testing.T) {
			st.RLock()
			var want []string
			all := 0
			alice := st.Token(seed.DemoTokenAlice)
			for _, r := range st.Repos() {
				if alice.Permission(r) == state.PermNone {
					continue
				}
				for _, is := range r.Issues {
					if is.Deleted {
						continue
					}
					all++
					if tc.want(is) {
						want = append(want, fmt.Sprintf("%s#%d", r.FullName(), is.Number))
					}
				}
			}
			st.RUnlock()
			if tc.some && len(want) == 0 {
				t.Fatalf("the seed gives this case none of %d issues, want some: it cannot tell the qualifier works", all)
			}
			if tc.some && len(want) == all {
				t.Fatalf("the seed gives this case all %d issues, want fewer: it cannot tell the qualifier works", all)
			}
			got := searchREST(t, srv.URL, tc.q, "")
			var names []string
			for _, it := range got.Items {
				names = append(names, strings.TrimPrefix(it.RepositoryURL, srv.URL+"/repos/")+fmt.Sprintf("#%d", it.Number))
			}
			slices.Sort(names)
			slices.Sort(want)
			if got.TotalCount != len(want) {
				t.Errorf("total_count %d, want %d", got.TotalCount, len(want))
			}
			if diff := cmp.Diff(want, names); diff != "" {
				t.Errorf("hits mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// sort: in the query orders the results when the sort parameter is absent;
// the parameter wins when both are given.
func TestSearchSortQualifier(t *testing.T) {
	emu, err := emulator.New(emulator.Options{Now: seed.DemoNow, SearchLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	ordered := func(p issueSearchPage, less func(a, b int) bool) bool {
		for i := 1; i < len(p.Items); i++ {
			if less(i, i-1) {
				return false
			}
		}
		return len(p.Items) > 1
	}
	p := searchREST(t, srv.URL, "repo:acme/widgets sort:created-asc", "")
	if !ordered(p, func(i, j int) bool { return p.Items[i].CreatedAt < p.Items[j].CreatedAt }) {
		t.Error("sort:created-asc is not oldest first")
	}
	p = searchREST(t, srv.URL, "repo:acme/widgets sort:comments-desc", "")
	if !ordered(p, func(i, j int) bool { return p.Items[i].Comments > p.Items[j].Comments }) {
		t.Error("sort:comments-desc is not most commented first")
	}
	p = searchREST(t, srv.URL, "repo:acme/widgets sort:created-asc", "&sort=comments&order=asc")
	if !ordered(p, func(i, j int) bool { return p.Items[i].Comments < p.Items[j].Comments }) {
		t.Error("the sort parameter does not win over sort:")
	}
}

// A query naming an account or repository the caller cannot see is
// refused with GitHub's validation message; a negated scope only excludes.
func TestSearchUnknownScope(t *testing.T) {
	emu, err := emulator.New(emulator.Options{Now: seed.DemoNow, SearchLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		q, token string
		status   int
		message  string
	}{
		{"user:nobody-here crash", seed.DemoTokenAlice, http.StatusUnprocessableEntity,
			"The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."},
		{"repo:acme/gadgets crash", seed.DemoTokenDave, http.StatusUnprocessableEntity,
			"The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them."},
		{"-repo:acme/nope crash", seed.DemoTokenAlice, http.StatusOK, ""},
		// A user qualifier naming no account is refused as GitHub refuses
		// author:error; one known login among its others is enough, and an
		// organization is an account.
		{"repo:acme/widgets author:nobody-here", seed.DemoTokenAlice, http.StatusUnprocessableEntity,
			"The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."},
		{"repo:acme/widgets assignee:nobody-here", seed.DemoTokenAlice, http.StatusUnprocessableEntity,
			"The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."},
		{"repo:acme/widgets author:app/nobody-here", seed.DemoTokenAlice, http.StatusUnprocessableEntity,
			"The listed users cannot be searched either because the users do not exist or you do not have permission to view the users."},
		{"repo:acme/widgets author:alice author:nobody-here", seed.DemoTokenAlice, http.StatusOK, ""},
		{"repo:acme/widgets author:acme mentions:@me", seed.DemoTokenAlice, http.StatusOK, ""},
	} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/search/issues?q="+url.QueryEscape(tc.q), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token "+tc.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Message string `json:"message"`
			Errors  []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.q, resp.StatusCode, tc.status)
			continue
		}
		if err != nil {
			t.Errorf("%s: decode: %v", tc.q, err)
			continue
		}
		if tc.message == "" {
			continue
		}
		if body.Message != "Validation Failed" {
			t.Errorf("%s: message %q, want %q", tc.q, body.Message, "Validation Failed")
		}
		if len(body.Errors) != 1 {
			t.Errorf("%s: %d errors %+v, want 1", tc.q, len(body.Errors), body.Errors)
		} else if got := body.Errors[0].Message; got != tc.message {
			t.Errorf("%s: error message %q, want %q", tc.q, got, tc.message)
		}
	}
}

// latestVerdict reports whether a reviewer's latest submitted review of the
// pull request has the state.
func latestVerdict(is *state.Issue, state string) bool {
	if is.Pull == nil {
		return false
	}
	latest := map[string]string{}
	for _, rv := range is.Pull.Reviews {
		if rv.State == "APPROVED" || rv.State == "CHANGES_REQUESTED" || rv.State == "DISMISSED" {
			latest[rv.User.Login] = rv.State
		}
	}
	for _, st := range latest {
		if st == state {
			return true
		}
	}
	return false
}

func submittedReviews(is *state.Issue) int {
	n := 0
	for _, rv := range is.Pull.Reviews {
		if rv.State != "PENDING" {
			n++
		}
	}
	return n
}

func reviewedBy(is *state.Issue, login string) bool {
	if is.Pull == nil {
		return false
	}
	for _, rv := range is.Pull.Reviews {
		if rv.State != "PENDING" && rv.User.Login == login {
			return true
		}
	}
	return false
}

// mentionsClosing reports whether a pull request's description says it
// fixes, closes or resolves an issue of its repository that exists.
func mentionsClosing(is *state.Issue) bool {
	if is.Body == nil {
		return false
	}
	for _, w := range []string{"fix", "fixes", "fixed", "close", "closes", "closed", "resolve", "resolves", "resolved"} {
		for _, o := range is.Repo.Issues {
			if !o.IsPull && !o.Deleted && strings.Contains(strings.ToLower(*is.Body), fmt.Sprintf("%s #%d", w, o.Number)) {
				return true
			}
		}
	}
	return false
}
