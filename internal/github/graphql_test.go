package github

import (
	"context"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

func TestIsMutation(t *testing.T) {
	cases := map[string]bool{
		`query { viewer { login } }`: false,
		`{ viewer { login } }`:       false,
		`mutation { deleteIssue(input: {issueId: "x"}) { clientMutationId } }`: true,
		`  # a comment mentioning mutation
		   query Q { viewer { login } }`: false,
		`query { search(query: "mutation") { issueCount } }`:                                                            false,
		`query { a: viewer { mutation: login } }`:                                                                       false,
		`query A { viewer { login } } mutation B($id: ID!) { deleteIssue(input: {issueId: $id}) { clientMutationId } }`: true,
		`query { x(arg: """ block " mutation """) { y } }`:                                                              false,
		`MUTATION { x }`: false, // GraphQL keywords are case-sensitive
	}
	for doc, want := range cases {
		if got := isMutation(doc); got != want {
			t.Errorf("isMutation(%q) = %v, want %v", doc, got, want)
		}
	}
}

type viewerResult struct {
	Viewer struct {
		Login string `json:"login"`
	} `json:"viewer"`
}

const viewerQuery = `query { viewer { login } }`

func TestGraphQLQuery(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenBob)
	var out viewerResult
	if err := c.Query(context.Background(), viewerQuery, nil, &out); err != nil {
		t.Fatal(err)
	}
	if out.Viewer.Login != "bob" {
		t.Fatalf("viewer = %q, want bob", out.Viewer.Login)
	}
	if em.count("POST /api/graphql") != 1 {
		t.Fatal("the query did not go to /api/graphql")
	}
	b := c.RateBudget("graphql")
	if !b.Known {
		t.Fatalf("graphql budget Known = false, want true")
	}
	if b.Used < 1 {
		t.Fatalf("graphql budget Used = %d, want at least 1", b.Used)
	}
}

func TestGraphQLQueryRetried(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, sl := newClient(t, em.URL, emulator.DemoTokenBob)
	em.fault(t, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/api/graphql", Times: 2})
	var out viewerResult
	if err := c.Query(context.Background(), viewerQuery, nil, &out); err != nil {
		t.Fatal(err)
	}
	if n := em.count("POST /api/graphql"); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if w := sl.recorded(); len(w) != 2 {
		t.Errorf("waits %v, want 2", w)
	}
	if out.Viewer.Login != "bob" {
		t.Errorf("viewer login = %q, want bob", out.Viewer.Login)
	}
}

func TestGraphQLErrors(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenBob)
	ctx := context.Background()

	var out struct {
		Repository *struct {
			Name string `json:"name"`
		} `json:"repository"`
	}
	err := c.Query(ctx, `query($o: String!, $n: String!) { repository(owner: $o, name: $n) { name } }`,
		struct {
			Owner string `json:"o"`
			Name  string `json:"n"`
		}{"acme", "no-such-repo"}, &out)
	if e := asError(t, err); e.Code != NotFound {
		t.Fatalf("missing repository: error code = %q, want %q (%+v)", e.Code, NotFound, e)
	}

	// A mutation sent through Query is refused before it is sent.
	before := em.total()
	if err := c.Query(ctx, `mutation { deleteIssue(input: {issueId: "x"}) { clientMutationId } }`, nil, nil); asError(t, err).Code != InvalidArgument {
		t.Fatalf("mutation through Query: %v", err)
	}
	if em.total() != before {
		t.Fatal("the refused mutation was sent")
	}

	// GitHub reports a spent GraphQL budget inside a 200.
	em.ExhaustRateLimit(emulator.DemoTokenBob, "graphql")
	err = c.Query(ctx, viewerQuery, nil, &viewerResult{})
	e := asError(t, err)
	if e.Code != RateLimited {
		t.Fatalf("spent budget: error code = %q, want %q (%v)", e.Code, RateLimited, e)
	}
	if e.RetryAfter <= 0 {
		t.Fatalf("spent budget: RetryAfter = %v, want > 0", e.RetryAfter)
	}
}

const deleteIssue = `mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { repository { nameWithOwner } } }`

type deleteResult struct {
	DeleteIssue struct {
		Repository struct {
			NameWithOwner string `json:"nameWithOwner"`
		} `json:"repository"`
	} `json:"deleteIssue"`
}

type idVars struct {
	ID string `json:"id"`
}

func TestGraphQLMutationSettlement(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name       string
		fault      *emulator.Fault
		settlement Settlement
		code       Code
		deleted    bool
	}{
		{"success", nil, RemoteSuccessKnown, "", true},
		{"502", &emulator.Fault{Kind: emulator.FaultStatus, Status: 502}, NoRemoteSuccessKnown, UpstreamUnavailable, false},
		{"secondary", &emulator.Fault{Kind: emulator.FaultSecondary, RetryAfter: 1}, NoRemoteSuccessKnown, RateLimited, false},
		{"drop before", &emulator.Fault{Kind: emulator.FaultDropBefore}, Indeterminate, UpstreamUnavailable, false},
		{"drop after", &emulator.Fault{Kind: emulator.FaultDropAfter}, Indeterminate, UpstreamUnavailable, true},
		// A 200 GraphQL answer proves nothing until its errors are read.
		{"malformed after", &emulator.Fault{Kind: emulator.FaultMalformedAfter}, Indeterminate, MalformedResponse, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			em := startEmu(t, emulator.Options{})
			c, sl := newClient(t, em.URL, emulator.DemoTokenAlice)
			is, _, err := c.GetIssue(ctx, owner, repo, 7)
			if err != nil {
				t.Fatal(err)
			}
			if tc.fault != nil {
				f := *tc.fault
				f.Method, f.Path, f.Times = "POST", "/api/graphql", 1
				em.fault(t, f)
			}
			var out deleteResult
			s, err := c.Mutate(ctx, deleteIssue, idVars{ID: is.GetNodeID()}, &out)
			if s != tc.settlement {
				t.Errorf("settlement %q, want %q (%v)", s, tc.settlement, err)
			}
			if tc.code == "" {
				if err != nil {
					t.Fatalf("Mutate: %v", err)
				}
				if got := out.DeleteIssue.Repository.NameWithOwner; got != "acme/widgets" {
					t.Fatalf("deleteIssue repository = %q, want acme/widgets", got)
				}
			} else {
				e := asError(t, err)
				if e.Code != tc.code {
					t.Errorf("error code = %q, want %q (%v)", e.Code, tc.code, e)
				}
				if e.Settlement != tc.settlement {
					t.Errorf("error settlement = %q, want %q", e.Settlement, tc.settlement)
				}
			}
			// A mutation is never retried.
			if n := em.count("POST /api/graphql"); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if w := sl.recorded(); len(w) != 0 {
				t.Errorf("waits %v, want none", w)
			}
			st := em.State()
			st.Lock()
			deleted := st.Repo(owner, repo).Issue(7).Deleted
			st.Unlock()
			if deleted != tc.deleted {
				t.Errorf("deleted = %v, want %v", deleted, tc.deleted)
			}
		})
	}
}

// A deleted issue then reads as gone over REST: a real 410.
func TestDeletedIssueIsGone(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	is, _, err := c.GetIssue(ctx, owner, repo, 8)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Mutate(ctx, deleteIssue, idVars{ID: is.GetNodeID()}, nil); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.GetIssue(ctx, owner, repo, 8)
	e := asError(t, err)
	if e.Code != Gone {
		t.Fatalf("error code = %q, want %q (%v)", e.Code, Gone, e)
	}
	if e.Status != 410 {
		t.Fatalf("Status = %d, want 410", e.Status)
	}
}
