package emulatortest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// CommentBodies reads, as alice, the comments of issue number in repo
// ("owner/name") from the emulator at base: the text GitHub would hold,
// for a test that checks what a write sent.
func CommentBodies(t testing.TB, c *http.Client, base, repo string, number int) []string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/repos/%s/issues/%d/comments?per_page=100", base, repo, number), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var comments []struct {
		Body string `json:"body"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&comments); err != nil {
		t.Fatalf("comments of %s#%d: %v", repo, number, err)
	}
	out := make([]string, len(comments))
	for i, cm := range comments {
		out[i] = cm.Body
	}
	return out
}
