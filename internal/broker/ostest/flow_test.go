package ostest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The toxic flow as agents run it: an agent OS user reads an issue of
// alice's private notes through the broker and is then told to paste it
// into a public acme/widgets issue. The broker, as its service user,
// refuses the comment with cross_visibility_write naming alice/notes,
// again on a fresh connection of the same uid (the guard remembers reads
// per uid, not per connection), while another agent user, who read
// nothing private, posts the same text. Nothing refused reaches GitHub,
// the audit log attributes each refusal to the agent's uid, and no
// credential is in anything an agent received.
func TestAgentCannotCarryPrivateTextIntoAPublicIssue(t *testing.T) {
	requireRoot(t)
	d := provision(t)
	d.grantPrivateRead(t)
	other := "ggag5" + randomHex(t, 4)
	addUser(t, other)
	run(t, nil, "usermod", "-a", "-G", d.clients, other)
	d.startBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var seen []string // everything the agents received, for the leak check
	comment := func(body string) map[string]any {
		return map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3, "body": body}
	}

	first := d.connectAs(ctx, t, d.agent, &seen)
	const innocent = "Looking into this before anything else."
	initial := d.commentCount(t, "acme", "widgets", 3)
	if res := first.call("github_add_comment", comment(innocent)); res.IsError {
		t.Fatalf("a comment before any private read: %s", resultJSON(res))
	}
	if got := d.commentBodies(t, "acme", "widgets", 3); len(got) != initial+1 {
		t.Fatalf("acme/widgets#3 after the comment before any private read: %d comments (%q), want %d", len(got), got, initial+1)
	} else if got[initial] != innocent {
		t.Fatalf("acme/widgets#3 after the comment before any private read: last comment = %q, want %q", got[initial], innocent)
	}
	private := first.call("github_get_issue", map[string]any{"owner": "alice", "repo": "notes", "issue_number": 4})
	if private.IsError {
		t.Fatalf("reading alice/notes#4 over its route: %s", resultJSON(private))
	}
	leak := privateBody(t, private)
	if !strings.Contains(leak, "reallocated sectors") {
		t.Fatalf("alice/notes#4's body as read: %q, want the seeded note", leak)
	}

	before := d.commentCount(t, "acme", "widgets", 3)
	refusedCrossVisibility(t, "the comment after the private read", first.call("github_add_comment", comment(leak)))
	first.close()
	again := d.connectAs(ctx, t, d.agent, &seen)
	refusedCrossVisibility(t, "the comment from the agent's second connection", again.call("github_add_comment", comment(leak)))
	again.close()
	if after := d.commentCount(t, "acme", "widgets", 3); after != before {
		t.Fatalf("refused comments reached the emulator: acme/widgets#3 has %d comments, want %d", after, before)
	}

	// The taint is the reader's, not the broker's: another agent user
	// posts the very same text.
	theirs := d.connectAs(ctx, t, other, &seen)
	if res := theirs.call("github_add_comment", comment(leak)); res.IsError {
		t.Fatalf("%s, who read nothing private, was refused the comment: %s", other, resultJSON(res))
	}
	theirs.close()
	if got := d.commentBodies(t, "acme", "widgets", 3); len(got) != before+1 {
		t.Fatalf("acme/widgets#3 after %s's comment: %d comments (%q), want %d", other, len(got), got, before+1)
	} else if got[before] != leak {
		t.Fatalf("acme/widgets#3 after %s's comment: last comment = %q, want the private text %q", other, got[before], leak)
	}

	agentUID, otherUID := uidOf(t, d.agent), uidOf(t, other)
	refused, posted := 0, 0
	for _, line := range brokertest.AuditLines(t, d.audit) {
		if line.Client == nil || line.Tool != "github_add_comment" {
			continue
		}
		switch uid := int(*line.Client); {
		case line.Code == "cross_visibility_write" && line.Settlement == "not_started" && uid == agentUID:
			refused++
		case line.Code == "cross_visibility_write":
			t.Errorf("audit: a cross_visibility_write line for uid %d, settlement %q; want the refusals uid %d's, not_started", uid, line.Settlement, agentUID)
		case line.Outcome == "ok" && uid == otherUID:
			posted++
		}
	}
	if refused != 2 {
		t.Errorf("audit: %d refusals of uid %d's comments with cross_visibility_write, not_started; want 2 (one per connection)", refused, agentUID)
	}
	if posted != 1 {
		t.Errorf("audit: %d comments by uid %d posted, want 1", posted, otherUID)
	}
	audit, err := os.ReadFile(d.audit)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"what the agents received": strings.Join(seen, "\n"),
		"the audit log": string(audit), "the broker's output": d.brokerErr.String()} {
		if l := leaks(text, d.tokens...); l != "" {
			t.Errorf("%s holds a token piece %q", name, l)
		}
	}
}

// grantPrivateRead routes alice to a read-only credential of its own that
// reaches alice/notes, a private repository in the emulator's seed (the
// deployment's own tokens reach acme/widgets only).
func (d *deployment) grantPrivateRead(t *testing.T) {
	t.Helper()
	tok := "ghp_osn" + randomHex(t, 16)
	d.tokens = append(d.tokens, tok)
	st := d.emu.State()
	st.Lock()
	notes := st.Repo("alice", "notes")
	st.AddToken(&emulator.Token{Value: tok, Login: "alice", Perms: map[string]emulator.Permission{"alice/notes": emulator.PermRead}})
	st.Unlock()
	if notes == nil {
		t.Fatal("the emulator's seed has no alice/notes")
	}
	if !notes.Private {
		t.Fatal("the emulator's seed has alice/notes public, want it private")
	}
	// Root appends: the secrets file stays the service user's, 0600.
	appendConfig(t, d.secrets, fmt.Sprintf("osnotes = %q\n", tok))
	appendConfig(t, d.config, "\n[[route]]\nowner = \"alice\"\nread = \"osnotes\"\n")
}

// commentBodies are an issue's comments as the emulator holds them.
func (d *deployment) commentBodies(t *testing.T, owner, repo string, number int) []string {
	t.Helper()
	st := d.emu.State()
	st.Lock()
	defer st.Unlock()
	r := st.Repo(owner, repo)
	if r == nil {
		t.Fatalf("the emulator has no %s/%s", owner, repo)
	}
	if number < 1 || number > len(r.Issues) {
		t.Fatalf("the emulator has no %s/%s#%d: issue number %d, want 1..%d", owner, repo, number, number, len(r.Issues))
	}
	var out []string
	for _, c := range r.Issues[number-1].Comments {
		out = append(out, c.Body)
	}
	return out
}

func (d *deployment) commentCount(t *testing.T, owner, repo string, number int) int {
	t.Helper()
	return len(d.commentBodies(t, owner, repo, number))
}

// privateBody is the body of the issue a github_get_issue answer holds.
func privateBody(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var out struct {
		Issue struct {
			Body string `json:"body"`
		} `json:"issue"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("github_get_issue's answer: %v: %s", err, raw)
	}
	return out.Issue.Body
}

// refusedCrossVisibility checks a refusal by the data-flow guard that
// names the private source and the public target, nothing started.
func refusedCrossVisibility(t *testing.T, what string, res *mcp.CallToolResult) {
	t.Helper()
	var env struct {
		Code       string `json:"code"`
		Message    string `json:"message"`
		Settlement string `json:"settlement"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("%s: %v: %s", what, err, resultJSON(res))
	}
	if !res.IsError {
		t.Fatalf("%s: isError = false, want a refusal\n%s", what, resultJSON(res))
	}
	if env.Code != "cross_visibility_write" {
		t.Fatalf("%s: code = %q, want cross_visibility_write\n%s", what, env.Code, resultJSON(res))
	}
	if env.Settlement != "not_started" {
		t.Fatalf("%s: settlement = %q, want not_started\n%s", what, env.Settlement, resultJSON(res))
	}
	for _, repo := range []string{"alice/notes", "acme/widgets"} {
		if !strings.Contains(env.Message, repo) {
			t.Errorf("%s: the refusal %q does not name %s", what, env.Message, repo)
		}
	}
}
