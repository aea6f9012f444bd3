package broker_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The augments of an allowlisted upstream tool (broker/augment), through
// a broker fronting the fake upstream (main_test.go), whose
// pull_request_read answers by pullNumber (fakePullAnswer). The broker's
// GitHub is unreachable here, so a CI read fails: what the broker adds is
// checked against GitHub's MCP server and the emulator in
// e2e/peers/augment_test.go.

const (
	augmentedAllow = `[
  { tool = "pull_request_read", mode = "read", augment = ["pull_request_ci"] },
  { tool = "issue_write", mode = "write", augment = ["issue_write_labels_note"], note = "Ask before closing an issue." },
]`
	plainAllow = `[
  { tool = "pull_request_read", mode = "read" },
  { tool = "issue_write", mode = "write" },
]`
	labelsNote = "Caution: labels replaces the issue's whole label set; include every label to keep."
)

func callRaw(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: protocol error %v", tool, args, err)
	}
	return res
}

func listed(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

func TestAugmentListsItsArgumentsAndNotes(t *testing.T) {
	t.Parallel()
	aug, plain := listed(t, startRoutedUpstream(t, augmentedAllow).cs), listed(t, startRoutedUpstream(t, plainAllow).cs)
	props := func(tool *mcp.Tool) map[string]any {
		raw, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		_ = json.Unmarshal(raw, &s)
		return s.Properties
	}
	for _, arg := range []string{"ciVerbosity", "logLines"} {
		if _, ok := props(aug["pull_request_read"])[arg]; !ok {
			t.Errorf("augmented pull_request_read's input schema lacks %s", arg)
		}
		if _, ok := props(plain["pull_request_read"])[arg]; ok {
			t.Errorf("plain pull_request_read's input schema has %s", arg)
		}
	}
	if got, want := len(props(aug["pull_request_read"])), len(props(plain["pull_request_read"]))+2; got != want {
		t.Errorf("augmented pull_request_read has %d properties, want %d (the upstream's and two)", got, want)
	}
	desc := aug["issue_write"].Description
	if want := labelsNote + "\nAsk before closing an issue."; !strings.HasSuffix(desc, want) {
		t.Errorf("issue_write's description = %q, want it to end with %q", desc, want)
	}
	if strings.Contains(plain["issue_write"].Description, "Caution") {
		t.Errorf("plain issue_write's description has the note: %q", plain["issue_write"].Description)
	}
	if aug["pull_request_read"].Description != plain["pull_request_read"].Description {
		t.Errorf("pull_request_ci changed the description: %q", aug["pull_request_read"].Description)
	}
}

// Without ciVerbosity the call is a plain forward: the same arguments
// reach the upstream and the same result bytes come back.
func TestAugmentWithoutCIVerbosityIsAPlainForward(t *testing.T) {
	t.Parallel()
	aug, plain := startRoutedUpstream(t, augmentedAllow), startRoutedUpstream(t, plainAllow)
	for _, args := range []string{
		`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4}`,
		`{"method":"get","owner":"acme","repo":"widgets","pullNumber":1}`,
		`{"method":"get_diff","owner":"acme","repo":"widgets","pullNumber":3}`,
	} {
		got, _ := json.Marshal(callRaw(t, aug.cs, "pull_request_read", args))
		want, _ := json.Marshal(callRaw(t, plain.cs, "pull_request_read", args))
		if string(got) != string(want) {
			t.Errorf("%s: augmented result %s, plain %s: want the same bytes", args, got, want)
		}
		a, p := aug.forwarded(t), plain.forwarded(t)
		if string(a[len(a)-1].Args) != string(p[len(p)-1].Args) {
			t.Errorf("%s: forwarded %s augmented, %s plain", args, a[len(a)-1].Args, p[len(p)-1].Args)
		}
	}
}

// ciVerbosity and logLines are the broker's: the upstream never gets
// them, and an answer whose CI cannot be read comes back as the upstream
// gave it, with a note saying why.
func TestAugmentBestEffortLeavesTheAnswerWithANote(t *testing.T) {
	t.Parallel()
	aug, plain := startRoutedUpstream(t, augmentedAllow), startRoutedUpstream(t, plainAllow)
	cases := []struct {
		pull    string
		note    string
		isError bool
	}{
		{"1", "ghgate: no ci: the answer is not a JSON object", false},
		{"2", "ghgate: no ci: the answer names no head sha", false},
		{"3", "ghgate: no ci: the pull request read failed", true},
		// The broker's GitHub is unreachable: the checks cannot be read.
		{"4", "ghgate: no ci: reading the checks failed: ", false},
	}
	for _, c := range cases {
		base := `{"method":"get","owner":"acme","repo":"widgets","pullNumber":` + c.pull
		res := callRaw(t, aug.cs, "pull_request_read", base+`,"ciVerbosity":3,"logLines":5}`)
		want := texts(callRaw(t, plain.cs, "pull_request_read", base+"}"))
		got := texts(res)
		if len(got) != len(want)+1 {
			t.Fatalf("pull %s: %d text contents %q, want the upstream's %d and a note", c.pull, len(got), got, len(want))
		}
		if strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
			t.Errorf("pull %s: answer %q, want the upstream's %q unchanged", c.pull, got[:len(want)], want)
		}
		if note := got[len(got)-1]; !strings.HasPrefix(note, c.note) {
			t.Errorf("pull %s: note %q, want it to start %q", c.pull, note, c.note)
		}
		if res.IsError != c.isError {
			t.Errorf("pull %s: isError = %v, want %v", c.pull, res.IsError, c.isError)
		}
		calls := aug.forwarded(t)
		if fwd := string(calls[len(calls)-1].Args); fwd != base+"}" {
			t.Errorf("pull %s: the upstream got %s, want %s (the broker's arguments stripped)", c.pull, fwd, base+"}")
		}
	}
}

// The broker's arguments are refused, naming the argument, where they
// cannot apply or hold no valid value; a refused call is not forwarded.
func TestAugmentRefusesItsArgumentsOutOfPlace(t *testing.T) {
	t.Parallel()
	aug := startRoutedUpstream(t, augmentedAllow)
	cases := []struct{ args, field string }{
		{`{"method":"get_diff","owner":"acme","repo":"widgets","pullNumber":4,"ciVerbosity":1}`, "ciVerbosity"},
		{`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4,"ciVerbosity":4}`, "ciVerbosity"},
		{`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4,"ciVerbosity":"2"}`, "ciVerbosity"},
		{`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4,"ciVerbosity":1.5}`, "ciVerbosity"},
		{`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4,"logLines":5}`, "logLines"},
		{`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4,"ciVerbosity":3,"logLines":0}`, "logLines"},
		{`{"method":"get","owner":"acme","repo":"widgets","pullNumber":4,"ciVerbosity":3,"logLines":2001}`, "logLines"},
	}
	for _, c := range cases {
		before := len(aug.forwarded(t))
		res := callRaw(t, aug.cs, "pull_request_read", c.args)
		var env struct {
			Code    string `json:"code"`
			Details struct {
				Field string `json:"field"`
			} `json:"details"`
		}
		raw, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(raw, &env)
		if !res.IsError {
			t.Errorf("%s: isError = false, want invalid_field", c.args)
		}
		if env.Code != "invalid_field" {
			t.Errorf("%s: code = %q, want invalid_field", c.args, env.Code)
		}
		if env.Details.Field != c.field {
			t.Errorf("%s: details.field = %q, want %q", c.args, env.Details.Field, c.field)
		}
		if n := len(aug.forwarded(t)) - before; n != 0 {
			t.Errorf("%s: forwarded %d times, want a refusal before the upstream", c.args, n)
		}
	}
}

// An augment the broker does not have, or on another tool, is refused
// when the configuration is loaded, naming the upstream and the tool.
func TestAugmentConfigRefusesUnknownAndMisplacedAugments(t *testing.T) {
	t.Parallel()
	cases := []struct{ entry, want string }{
		{`{ tool = "pull_request_read", mode = "read", augment = ["ci"] }`, `upstream "gh": tool "pull_request_read": augment "ci" does not exist (known: issue_write_labels_note, pull_request_ci)`},
		{`{ tool = "get_me", mode = "read", augment = ["pull_request_ci"] }`, `augment "pull_request_ci" is for the tool pull_request_read, not get_me`},
		{`{ tool = "pull_request_read", mode = "read", augment = ["pull_request_ci", "pull_request_ci"] }`, `augment "pull_request_ci" is named twice`},
		{`{ tool = "issue_write", note = "  " }`, `note is blank`},
		{`{ tool = "issue_write", note = "` + strings.Repeat("x", 501) + `" }`, `note is 501 bytes, over 500`},
		{`{ tool = "issue_write", note = "bell\u0007" }`, `note holds control characters`},
	}
	for _, c := range cases {
		dir := t.TempDir()
		path := filepath.Join(dir, "broker.toml")
		cfg := `
[listen]
socket = "/run/ghgate/b.sock"
[[route]]
owner = "*"
read = "r"
[[upstream]]
name = "gh"
command = ["/bin/true"]
token_env = "T"
allow = [` + c.entry + `]
`
		if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := broker.LoadConfig(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: LoadConfig error %v, want one containing %q", c.entry, err, c.want)
		}
	}
}
