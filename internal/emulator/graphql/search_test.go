package graphql_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// postGraphQL sends a document GitHub's schema accepts to srv as token.
func postGraphQL(t *testing.T, srv *httptest.Server, token, doc string, vars map[string]any, into any) []respError {
	t.Helper()
	requireGitHubValid(t, &fidelityCount{}, doc)
	b, err := json.Marshal(map[string]any{"query": doc, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data   json.RawMessage `json:"data"`
		Errors []respError     `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out.Errors) == 0 {
		if err := json.Unmarshal(out.Data, into); err != nil {
			t.Fatalf("%v: %s", err, out.Data)
		}
	}
	return out.Errors
}

// GraphQL's search answers what GET /search/issues answers, page by page,
// and carol sees only what she can read.
func TestGraphQLSearch(t *testing.T) {
	schemasOrFail(t)
	emu, err := emulator.New(emulator.Options{Now: seed.DemoNow, SearchLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	const doc = `query($q: String!, $after: String) {
  search(query: $q, type: ISSUE_ADVANCED, first: 50, after: $after) {
    issueCount
    nodes { __typename ...on Issue { number repository { nameWithOwner } } ...on PullRequest { number repository { nameWithOwner } } }
    pageInfo { hasNextPage endCursor }
  }
}`
	type page struct {
		Search struct {
			IssueCount int
			Nodes      []struct {
				Typename   string `json:"__typename"`
				Number     int
				Repository struct{ NameWithOwner string }
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
	for _, tc := range []struct{ token, q string }{
		{seed.DemoTokenAlice, "label:bug -is:closed"},
		{seed.DemoTokenAlice, "(repo:acme/widgets OR repo:acme/gadgets) is:pr"},
		{seed.DemoTokenCarol, "no:assignee"},
	} {
		var got []string
		count := -1
		vars := map[string]any{"q": tc.q}
		for {
			var p page
			if errs := postGraphQL(t, srv, tc.token, doc, vars, &p); len(errs) > 0 {
				t.Fatalf("%s as %s: errors %+v, want none", tc.q, tc.token, errs)
			}
			count = p.Search.IssueCount
			for _, n := range p.Search.Nodes {
				got = append(got, fmt.Sprintf("%s#%d %s", n.Repository.NameWithOwner, n.Number, n.Typename))
			}
			if !p.Search.PageInfo.HasNextPage {
				break
			}
			vars["after"] = p.Search.PageInfo.EndCursor
		}
		st := emu.State()
		st.RLock()
		q := search.Parse(tc.q, st.Token(tc.token).Login)
		var want []string
		for _, r := range st.Repos() {
			if st.Token(tc.token).Permission(r) == state.PermNone {
				continue
			}
			for _, is := range r.Issues {
				if q.Match(is) {
					kind := "Issue"
					if is.IsPull {
						kind = "PullRequest"
					}
					want = append(want, fmt.Sprintf("%s#%d %s", r.FullName(), is.Number, kind))
				}
			}
		}
		st.RUnlock()
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 {
			t.Errorf("%s as %s: the state matches nothing, want a query that finds something", tc.q, tc.token)
		}
		if count != len(want) {
			t.Errorf("%s as %s: issueCount = %d, want %d", tc.q, tc.token, count, len(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s as %s: nodes mismatch (-want +got):\n%s", tc.q, tc.token, cmp.Diff(want, got))
		}
		rest := restSearch(t, srv.URL, tc.q, "")
		if tc.token == seed.DemoTokenAlice && rest.TotalCount != count {
			t.Errorf("%s: REST total_count = %d, want %d, GraphQL's issueCount", tc.q, rest.TotalCount, count)
		}
	}

	var none struct{}
	errs := postGraphQL(t, srv, seed.DemoTokenAlice, `{ search(query: "widgets", type: REPOSITORY, first: 1) { issueCount } }`, nil, &none)
	checkOneError(t, "type REPOSITORY", errs,
		wantErr{Message: "The emulator serves search only for issues and pull requests (type: ISSUE or ISSUE_ADVANCED), not REPOSITORY."})

	// gh looks for ISSUE_ADVANCED before it searches.
	var st struct {
		SearchType struct{ EnumValues []struct{ Name string } }
	}
	if errs := postGraphQL(t, srv, seed.DemoTokenAlice, `query SearchType_enumValues { SearchType: __type(name: "SearchType") { enumValues(includeDeprecated: true) { name } } }`, nil, &st); len(errs) > 0 {
		t.Fatal(errs)
	}
	if !slices.ContainsFunc(st.SearchType.EnumValues, func(v struct{ Name string }) bool { return v.Name == "ISSUE_ADVANCED" }) {
		t.Errorf("SearchType values = %+v, want ISSUE_ADVANCED among them", st.SearchType.EnumValues)
	}
}

// restSearchPage is the part of a REST issue search the comparison reads.
type restSearchPage struct {
	TotalCount int `json:"total_count"`
	Items      []struct {
		Number        int    `json:"number"`
		RepositoryURL string `json:"repository_url"`
		CreatedAt     string `json:"created_at"`
		Comments      int    `json:"comments"`
	} `json:"items"`
}

func restSearch(t *testing.T, base, q, extra string) restSearchPage {
	t.Helper()
	var all restSearchPage
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
		var p restSearchPage
		err = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("REST search %s: status %d, want 200", q, resp.StatusCode)
		}
		if err != nil {
			t.Fatalf("REST search %s does not decode: %v", q, err)
		}
		all.TotalCount = p.TotalCount
		all.Items = append(all.Items, p.Items...)
		if len(p.Items) < 100 || len(all.Items) >= search.ResultCap {
			return all
		}
	}
}
