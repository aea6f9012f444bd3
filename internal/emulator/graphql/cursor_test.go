package graphql_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// A cursor is client input: one that decodes to an offset near the integer
// limit must read as "past the end" (an empty page), not wrap around into a
// negative index and fail the query.
func TestGraphQLCursorAtIntegerLimit(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	cursor := base64.StdEncoding.EncodeToString([]byte(wantCursorPrefix + strconv.Itoa(int(^uint(0)>>1))))
	doc := `query($after: String) { repository(owner: "acme", name: "widgets") { issues(first: 2, after: $after) { nodes { number } pageInfo { hasNextPage } } } }`
	body, _ := json.Marshal(map[string]any{"query": doc, "variables": map[string]any{"after": cursor}})
	req, _ := http.NewRequest("POST", srv.URL+"/graphql", strings.NewReader(string(body)))
	req.Header.Set("Authorization", "bearer "+seed.DemoTokenCarol)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Repository struct {
				Issues struct {
					Nodes    []struct{ Number int }
					PageInfo struct{ HasNextPage bool }
				}
			}
		}
		Errors []struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d, want 200", resp.StatusCode)
	}
	if len(out.Errors) > 0 {
		t.Fatalf("errors = %+v, want none", out.Errors)
	}
	if n := len(out.Data.Repository.Issues.Nodes); n != 0 {
		t.Fatalf("a cursor past the end gave %d nodes, want 0", n)
	}
	if out.Data.Repository.Issues.PageInfo.HasNextPage {
		t.Fatalf("a cursor past the end: hasNextPage = true, want false")
	}
}
