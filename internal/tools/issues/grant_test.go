package issues_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// crossRepoSearch answers every request with one page of search results:
// an issue of acme/widgets and one of acme/gadgets.
type crossRepoSearch struct{}

func (crossRepoSearch) RoundTrip(req *http.Request) (*http.Response, error) {
	body := `{"total_count":2,"incomplete_results":false,"items":[` +
		`{"id":1,"number":1,"title":"widgets row","state":"open","user":{"login":"alice"},"repository_url":"https://ghe.test/api/v3/repos/acme/widgets"},` +
		`{"id":2,"number":2,"title":"gadgets private plan","state":"open","user":{"login":"alice"},"repository_url":"https://ghe.test/api/v3/repos/acme/gadgets"}]}`
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// The caller's read grant holds on the rows a search returns, whatever
// the query reached: a row of a repository the caller may not read is
// left out and counted, its title never shown.
func TestSearchLeavesOutRowsOutsideTheReadGrant(t *testing.T) {
	t.Parallel()
	widgetsOnly := caller.Identity{ID: "http:widgets-only", Readable: func(owner, repo string) bool { return owner == "acme" && repo == "widgets" }}
	st, err := server.NewStack(context.Background(), server.StackOptions{BaseURL: "https://ghe.test", Token: "t0k",
		HTTPClient: &http.Client{Transport: crossRepoSearch{}}, Wrap: servertest.AsCaller(widgetsOnly)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	env := &servertest.Env{Stack: st, Session: servertest.Connect(t, st.Server.MCP)}
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Query: "plan"})
	if res.IsError {
		t.Fatalf("search: %s", res.JSON)
	}
	var out issues.SearchIssuesOut
	res.Decode(t, &out)
	if len(out.Items) != 1 {
		t.Fatalf("%d rows, want 1: %s", len(out.Items), res.JSON)
	}
	if got := out.Items[0].Number; got != 1 {
		t.Errorf("row #%d, want #1", got)
	}
	if strings.Contains(string(res.JSON), "gadgets private plan") {
		t.Errorf("the gadgets title was shown, want it withheld: %s", res.JSON)
	}
	if out.Withheld != 1 {
		t.Errorf("withheld = %d, want 1", out.Withheld)
	}
	if !out.Truncated {
		t.Errorf("truncated = false, want true with the rows left out said: %s", res.JSON)
	}
}
