package broker_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// daveSays is from the body dave, an outside contributor, wrote on the
// public acme/widgets#DemoManyCommentsIssue; carolSays is what carol, a
// stranger there, writes on an issue of dave's public fork.
const (
	daveSays  = "every chart seems to fetch its query three times"
	carolSays = "carol-on-daves-fork: a stranger's comment"
)

// The broker's [tools] lockdown holds for every route but one that sets
// its own; include_untrusted, allowed in [tools], shows the text and
// puts the repository on the call's audit line.
func TestBrokerLockdownByRoute(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{
		Tools: "toolsets = [\"issues\"]\nlockdown = true\nallow_include_untrusted = true",
		// dave's repositories are read with the fallback secret, and
		// their route turns lockdown off.
		Config: "[[route]]\nowner = \"dave\"\nread = \"" + brokertest.SecretFallback + "\"\nlockdown = false",
	})
	st := d.Up.Emu.State()
	st.Lock()
	fork := st.Repo("dave", emulator.DemoWidgetsRepo)
	body := "dave's own issue on his fork"
	is := st.AddIssue(fork, st.Account("dave"), "Fork issue", &body, false, emulator.DemoNow().Add(time.Hour))
	st.AddComment(is, st.Account("carol"), carolSays, emulator.DemoNow().Add(2*time.Hour))
	st.Unlock()

	cs := d.Connect(t)
	text := func(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }
	widgets := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoManyCommentsIssue}
	got := text(d.MustCall(t, cs, "github_get_issue", widgets))
	if strings.Contains(got, daveSays) {
		t.Errorf("acme, under [tools] lockdown: the result holds dave's text, want it withheld: %s", got)
	}
	if !strings.Contains(got, "withheld_untrusted") {
		t.Errorf("acme, under [tools] lockdown: the result lacks withheld_untrusted: %s", got)
	}
	if got := text(d.MustCall(t, cs, "github_get_issue", map[string]any{"owner": "dave", "repo": emulator.DemoWidgetsRepo, "issue_number": is.Number})); !strings.Contains(got, carolSays) {
		t.Errorf("dave, whose route turns lockdown off: %s", got)
	}
	widgets["include_untrusted"] = true
	if got := text(d.MustCall(t, cs, "github_get_issue", widgets)); !strings.Contains(got, daveSays) {
		t.Errorf("acme with include_untrusted: %s", got)
	}
	audited := auditIncludes(t, d.Audit)
	if len(audited) != 3 {
		t.Errorf("audit lines = %d (include_untrusted %v), want 3", len(audited), audited)
	} else {
		for i, a := range audited[:2] {
			if len(a) != 0 {
				t.Errorf("audit line %d include_untrusted = %v, want none", i, a)
			}
		}
		if !slices.Equal(audited[2], []string{"acme/widgets"}) {
			t.Errorf("audit line 2 include_untrusted = %v, want [acme/widgets]", audited[2])
		}
	}
}

// auditIncludes reads each github_get_issue audit line's include_untrusted.
func auditIncludes(t *testing.T, path string) [][]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, l := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var line struct {
			Tool             string   `json:"tool"`
			IncludeUntrusted []string `json:"include_untrusted"`
		}
		if err := json.Unmarshal(l, &line); err != nil {
			t.Fatal(err)
		}
		if line.Tool == "github_get_issue" {
			out = append(out, line.IncludeUntrusted)
		}
	}
	return out
}
