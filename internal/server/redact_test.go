package server_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
)

// An error GitHub (or a proxy in front of it) answers can quote the
// credential in any form: the envelope the agent gets carries none of
// them, in its message or in the reason for a field.
func TestErrorEnvelopeRedactsTheCredential(t *testing.T) {
	t.Parallel()
	const token = "ghgate-test-credential-4242"
	b64 := base64.StdEncoding.EncodeToString([]byte("x:" + token))
	hx := hex.EncodeToString([]byte(token))
	forms := []string{token, b64[4:16], hx, "Zx9Qw8Er7Ty6Ui5Op4As3Df2"}
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"message": "Validation Failed: sent " + token + " as " + b64 + " with Authorization: Bearer Zx9Qw8Er7Ty6Ui5Op4As3Df2",
			"errors":  []map[string]string{{"resource": "Issue", "field": "title", "code": "custom", "message": "title is " + hx}},
		})
	}))
	defer gh.Close()
	st, err := server.NewStack(context.Background(), server.StackOptions{BaseURL: gh.URL, Token: token,
		StorePath: filepath.Join(t.TempDir(), "state.db"), HTTPClient: gh.Client(), MaxReadRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cs := servertest.Connect(t, st.Server.MCP)
	args := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_get_issue", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	servertest.Answer(t, cs, "github_get_issue", args, res)
	if !res.IsError {
		t.Fatal("isError = false, want the refusal")
	}
	body, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range forms {
		if strings.Contains(string(body), f) {
			t.Errorf("%q reached the envelope: %s", f, body)
		}
	}
	if !strings.Contains(string(body), "[redacted]") {
		t.Errorf("envelope %s has no [redacted] marker", body)
	}
}
