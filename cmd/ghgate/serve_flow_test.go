package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/testutil/redisserver"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// flowResource is the public URL both replicas serve behind (a balancer's,
// in a deployment): one token is good on either.
const flowResource = "https://ghgate.example.com/mcp"

// flowClients is the --auth file of the flow test: three IdP clients that
// may read alice/notes (private) and write acme/widgets (public). "bot"
// and "other" keep the server's policy, where the data-flow guard is on;
// "paired" has a policy of its own allowing that one flow.
func flowClients(issuer string) string {
	grant := "read = [\"alice/notes\"]\nwrite = [\"acme/widgets\"]\n"
	return fmt.Sprintf(`resource = %q

[[issuer]]
url = %q

[[client]]
name = "bot"
%s
[[client]]
name = "other"
%s
[[client]]
name = "paired"
%s[client.policy.flow]
allow = ["alice/notes -> acme/widgets"]
`, flowResource, issuer, grant, grant, grant)
}

// commentsOn is the bodies of the comments GitHub holds on owner/repo#n.
func commentsOn(emu *emulator.Emulator, owner, repo string, n int) []string {
	st := emu.State()
	st.Lock()
	defer st.Unlock()
	var out []string
	for _, c := range st.Repo(owner, repo).Issue(n).Comments {
		out = append(out, c.Body)
	}
	return out
}

// flowAudit is what the test reads of one JSON log line of serve: the
// call's audit line (msg "call") or the write path's (msg "write policy").
type flowAudit struct {
	Msg     string `json:"msg"`
	Client  string `json:"client"`
	Tool    string `json:"tool"`
	Code    string `json:"code"`
	Event   string `json:"event"`
	Subject string `json:"subject"`
	From    string `json:"from"`
	To      string `json:"to"`
}

// flowRefusalsAudited lists, per audit line of log that tells of a write
// the data-flow guard stopped, "client:tool:code" for a call line and
// "subject:from->to" for the guard's own.
func flowRefusalsAudited(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		var l flowAudit
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		switch {
		case l.Msg == "call" && l.Code == string(contract.CodeCrossVisibilityWrite):
			out = append(out, l.Client+":"+l.Tool+":"+l.Code)
		case l.Msg == "write policy" && l.Event == "flow_guard":
			out = append(out, l.Subject+":"+l.From+"->"+l.To)
		}
	}
	slices.Sort(out)
	return out
}

// TestServeFlowAcrossReplicas scripts the toxic flow against two real
// `ghgate serve --http --auth` processes sharing one Redis and one
// emulator: an HTTP client reads a private issue on one replica, then
// comments its text on a public issue through the other. The stateless
// client has no session to carry its reads, so the guard on the second
// replica knows of them only through the shared state store.
func TestServeFlowAcrossReplicas(t *testing.T) {
	redis := redisserver.Start(t)
	idp := newTestIdP(t)
	key := newKey(t, "k1")
	idp.publish(key)
	emu, err := emulator.New(emulator.Options{Seed: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	gh := httptest.NewServer(emu)
	t.Cleanup(gh.Close)
	clients := flowClients(idp.srv.URL)
	state := redis.URL("flow")
	urlA, _ := serveWithAuth(t, gh.URL, "", clients, "--state", state, "--log-json")
	urlB, logB := serveWithAuth(t, gh.URL, "", clients, "--state", state, "--log-json")
	// Every step connects anew: nothing but the client's identity links
	// one call to the next.
	as := func(url, client string) *mcp.ClientSession {
		t.Helper()
		return connectAs(t, url, idp.token(t, key, client, flowResource, time.Now().Add(time.Hour)))
	}
	const public = 2 // acme/widgets#2
	comments := func() []string { return commentsOn(emu, emulator.DemoOrg, emulator.DemoWidgetsRepo, public) }
	comment := func(body string) map[string]any {
		return map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "issue_number": public, "body": body}
	}
	// wrote checks that one comment was added, holding text.
	wrote := func(step string, before []string, text string) {
		t.Helper()
		after := comments()
		if len(after) != len(before)+1 {
			t.Fatalf("%s: acme/widgets#%d comments = %d (%v), want %d", step, public, len(after), after, len(before)+1)
		}
		if last := after[len(after)-1]; !strings.Contains(last, text) {
			t.Fatalf("%s: acme/widgets#%d last comment = %q, want one holding %q", step, public, last, text)
		}
	}
	readPrivate := func(client string) string {
		t.Helper()
		var got struct {
			Issue struct {
				Body string `json:"body"`
			} `json:"issue"`
		}
		text := callText(t, as(urlA, client), toolkit.NameGetIssue,
			map[string]any{"owner": emulator.DemoNotesOwner, "repo": emulator.DemoNotesRepo, "issue_number": 4})
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("%s reads alice/notes#4 on replica A: decoding %s: %v", client, text, err)
		}
		if got.Issue.Body == "" {
			t.Fatalf("%s reads alice/notes#4 on replica A: issue body empty, want the note: %s", client, text)
		}
		return got.Issue.Body
	}

	// 1. Before any private read, bot's comment on the public issue is written.
	before := comments()
	hello := "Thanks for the report, we are looking into it."
	if isErr, env := callEnvelope(t, as(urlB, "bot"), toolkit.NameAddComment, comment(hello)); isErr {
		t.Fatalf("bot's comment before any private read: %+v", env)
	}
	wrote("before any private read", before, hello)

	// 2. Replica A: bot reads an issue of the private repository.
	secret := readPrivate("bot")
	leak := "From the private notes: " + secret

	// 3. Replica B: bot comments the private text on the public issue.
	before = comments()
	isErr, env := callEnvelope(t, as(urlB, "bot"), toolkit.NameAddComment, comment(leak))
	const stepB = "replica B, after bot read alice/notes on replica A"
	if !isErr {
		t.Fatalf("%s: isError = false, want a refusal: %+v", stepB, env)
	}
	if env.Code != string(contract.CodeCrossVisibilityWrite) {
		t.Fatalf("%s: code = %q, want %q", stepB, env.Code, contract.CodeCrossVisibilityWrite)
	}
	if env.Details.Rule != "flow" {
		t.Fatalf("%s: details.rule = %q, want flow", stepB, env.Details.Rule)
	}
	if env.Settlement != string(contract.NotStarted) {
		t.Fatalf("%s: settlement = %q, want %q", stepB, env.Settlement, contract.NotStarted)
	}
	for _, want := range []string{"alice/notes", "acme/widgets"} {
		if !strings.Contains(env.Message, want) {
			t.Fatalf("%s: message = %q, want it to name %s", stepB, env.Message, want)
		}
	}
	if after := comments(); len(after) != len(before) {
		t.Fatalf("the refused comment reached GitHub: comments = %d, want %d", len(after), len(before))
	}
	t.Logf("refused on replica B: %s", env.Message)

	// 4. The taint is the client's: other, which read nothing private,
	// writes the same text through replica B.
	before = comments()
	if isErr, env := callEnvelope(t, as(urlB, "other"), toolkit.NameAddComment, comment(leak)); isErr {
		t.Fatalf("other (no private read) writes the same comment on replica B: %+v", env)
	}
	wrote("another client", before, secret)

	// 5. Replica B's audit carries bot's refusal: the call
	// line and the guard's line naming both repositories. Lines are
	// written as the answer goes out: wait for them.
	want := []string{"bot:" + toolkit.NameAddComment + ":cross_visibility_write", "client:bot:alice/notes->acme/widgets"}
	var audited []string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		audited = flowRefusalsAudited(logB.String())
		if slices.Equal(audited, want) || time.Now().After(deadline) {
			break
		}
	}
	if !slices.Equal(audited, want) {
		t.Errorf("replica B's audit of the refusal: %v, want %v\n%s", audited, want, logB.String())
	}

	// 6. A policy allowing the pair lets the flow through.
	readPrivate("paired")
	before = comments()
	if isErr, env := callEnvelope(t, as(urlB, "paired"), toolkit.NameAddComment, comment(leak)); isErr {
		t.Fatalf("paired (alice/notes -> acme/widgets allowed) after reading alice/notes on replica A: %+v", env)
	}
	wrote("an allowed pair", before, secret)
}
