package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Over HTTP, each client is offered the prompts its own policy can carry
// out, as tools/list shows it its own tools: a prompt whose tools the
// client may not call is neither listed nor given, and a prompt's message
// names only the tools the client may call (a read-only client is told to
// propose, not to write; a client without the reports toolset is not
// sent to the reports), though the server serves them all.
func TestServeAuthPromptsFollowEachClient(t *testing.T) {
	t.Parallel()
	emu, _ := countingEmulator(t)
	const summarizerKey = "ghgate-static-key-for-the-summarizer-0123456789"
	const issuesKey = "ghgate-static-key-for-the-issues-client-0123456"
	clients := fmt.Sprintf(`
[[client]]
name = "reader"
key_sha256 = %q
read = ["acme"]
[client.tools]
read_only = true

[[client]]
name = "summarizer"
key_sha256 = %q
read = ["acme"]
[client.tools]
allow = ["github_get_issue"]

[[client]]
name = "issues"
key_sha256 = %q
read = ["acme"]
write = ["acme"]
[client.tools]
toolsets = ["issues"]
`, httpauth.KeyDigest(staticKey), httpauth.KeyDigest(summarizerKey), httpauth.KeyDigest(issuesKey))
	url, _ := serveWithAuth(t, emu.URL, "toolsets = [\"all\"]\n", clients)
	ctx := context.Background()
	listed := func(cs *mcp.ClientSession) []string {
		t.Helper()
		res, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range res.Prompts {
			names = append(names, p.Name)
		}
		slices.Sort(names)
		return names
	}
	message := func(cs *mcp.ClientSession, name string, args map[string]string) (string, error) {
		t.Helper()
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, m := range res.Messages {
			if tc, ok := m.Content.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), nil
	}
	repo := map[string]string{"owner": "acme", "repo": "widgets"}

	summarizer := connectAs(t, url, summarizerKey)
	if got, want := listed(summarizer), []string{"summarize_issue"}; !slices.Equal(got, want) {
		t.Errorf("summarizer (only github_get_issue) is offered prompts %v, want %v", got, want)
	}
	_, err := message(summarizer, "weekly_report", repo)
	wantErrorSaying(t, "summarizer's weekly_report", err, "not offered to this client")

	reader := connectAs(t, url, staticKey)
	triage, err := message(reader, "triage_issues", repo)
	if err != nil {
		t.Fatalf("reader's triage_issues: %v", err)
	}
	if !strings.Contains(triage, "Write nothing") {
		t.Errorf("read-only reader's triage message lacks %q, want it to keep to proposals:\n%s", "Write nothing", triage)
	}
	if strings.Contains(triage, "github_bulk_update_issues") {
		t.Errorf("read-only reader's triage message names github_bulk_update_issues, want proposals only:\n%s", triage)
	}

	issues := connectAs(t, url, issuesKey)
	weekly, err := message(issues, "weekly_report", repo)
	if err != nil {
		t.Fatalf("issues client's weekly_report: %v", err)
	}
	if strings.Contains(weekly, "github_report_") {
		t.Errorf("the issues-only client's weekly report names the reports toolset (github_report_), want it not to:\n%s", weekly)
	}
	if !strings.Contains(weekly, "github_get_overview") {
		t.Errorf("the issues-only client's weekly report lacks github_get_overview:\n%s", weekly)
	}
}
