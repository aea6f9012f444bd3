package issues_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// cannedSearch answers every request with one page of search results: one
// issue opened by alice and one by bob, as GitHub would for a query whose
// own text widened the author (author:bob OR ...).
type cannedSearch struct{}

func (cannedSearch) RoundTrip(req *http.Request) (*http.Response, error) {
	body := `{"total_count":2,"incomplete_results":false,"items":[` +
		`{"id":1,"number":1,"title":"mine","state":"open","user":{"login":"alice"},"repository_url":"https://ghe.test/api/v3/repos/acme/widgets"},` +
		`{"id":2,"number":2,"title":"bob's secret plan","state":"open","user":{"login":"bob"},"repository_url":"https://ghe.test/api/v3/repos/acme/widgets"}]}`
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// The creator scope holds on the rows returned, whatever the query text
// said: an issue opened by another user is never shown.
func TestSearchCreatorScopeFiltersRows(t *testing.T) {
	t.Parallel()
	st, err := server.NewStack(context.Background(), server.StackOptions{BaseURL: "https://ghe.test", Token: "t0k",
		AllowedIssueCreator: "alice", HTTPClient: &http.Client{Transport: cannedSearch{}}})
	if err != nil {
		t.Fatalf("new stack: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	env := &servertest.Env{Stack: st, Session: servertest.Connect(t, st.Server.MCP)}
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "author:bob OR"})
	if res.IsError {
		t.Fatalf("search: got an error, want a page: %s", res.JSON)
	}
	var out issues.SearchIssuesOut
	res.Decode(t, &out)
	if len(out.Items) != 1 {
		t.Fatalf("rows = %d, want 1 (alice's alone) under the creator scope: %s", len(out.Items), res.JSON)
	}
	if out.Items[0].Number != 1 {
		t.Fatalf("row = #%d, want alice's #1: %s", out.Items[0].Number, res.JSON)
	}
	if strings.Contains(string(res.JSON), "secret plan") {
		t.Fatalf("answer = %s, want no trace of bob's issue under the creator scope", res.JSON)
	}
	if !out.Truncated {
		t.Fatalf("truncated = false, want true with rows withheld: %s", res.JSON)
	}
	if out.TruncationHint == "" {
		t.Fatalf("truncation_hint is empty, want one saying rows were withheld: %s", res.JSON)
	}
}
