package broker_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// appBrokerConfig is a broker whose one route is a GitHub App.
const appBrokerConfig = `
[listen]
socket = %q
[github]
url = %q
[secrets]
file = %q
[[route]]
owner = %q
app_id = 12345
installation_id = 678
app_key = "app-key"
%s
[tools]
toolsets = ["all"]
[audit]
file = %q
`

// appBroker is a broker serving an App route for one owner over a
// validating emulator, its session, and what it was given.
type appBroker struct {
	emu    *emulatortest.Server
	cs     *mcp.ClientSession
	canary *brokertest.Canary
	audit  string
	// seen collects the tool results, scanned for the minted tokens.
	seen strings.Builder
}

// startAppBroker starts an emulator, lets setup install App 12345 as
// installation 678 (with the state locked), and serves a broker whose
// [[route]] for owner is that App, with route's extra keys.
// It clears CredentialsDirEnv with t.Setenv, so the tests that call it run
// serially.
func startAppBroker(t *testing.T, owner, route string, setup func(st *emulator.State, key *rsa.PublicKey)) *appBroker {
	t.Helper()
	a := &appBroker{emu: emulatortest.Start(t, emulator.Options{}), canary: brokertest.NewCanary(t)}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	st := a.emu.Emu.State()
	st.Lock()
	setup(st, &key.PublicKey)
	st.Unlock()

	dir := t.TempDir()
	secrets := filepath.Join(dir, "secrets.toml")
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(secrets, []byte("app-key = '''\n"+string(keyPEM)+"'''\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a.audit = filepath.Join(dir, "audit.jsonl")
	conf := filepath.Join(dir, "broker.toml")
	text := fmt.Sprintf(appBrokerConfig, filepath.Join(dir, "b.sock"), a.emu.URL, secrets, owner, route, a.audit)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(broker.CredentialsDirEnv, "")
	cfg, err := broker.LoadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	logBuf := &brokertest.SyncBuffer{}
	hc := a.emu.Client()
	spy := &mintSpy{next: hc.Transport}
	hc.Transport = spy
	b, err := broker.New(cfg, broker.Options{Log: slog.New(slog.NewTextHandler(logBuf, nil)), HTTPClient: hc})
	if err != nil {
		t.Fatalf("broker.New: %v", err)
	}
	sock, err := broker.OpenSocket(cfg.Listen)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- b.Serve(ctx, sock) }()
	// The session's frames are scanned for a canary no one holds; the
	// installation tokens GitHub handed the broker are scanned for in
	// everything the test saw once the broker has stopped.
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		tokens := spy.minted()
		if len(tokens) == 0 {
			t.Error("no installation token was seen minted")
		}
		for _, c := range append([]*brokertest.Canary{a.canary}, tokens...) {
			c.Scan("broker log", []byte(logBuf.String()))
			c.Scan("tool results", []byte(a.seen.String()))
			brokertest.ScanAuditFiles(t, c, dir)
			c.Check(t)
		}
	})
	a.cs = brokertest.Connect(t, a.canary, sock.Path())
	return a
}

// call calls a tool through the broker and keeps its result's text.
func (a *appBroker) call(t *testing.T, tool string, args map[string]any) (text string, isError bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := brokertest.Call(ctx, a.canary, a.cs, tool, args)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text = brokertest.ResultText(res)
	a.seen.WriteString(text)
	return text, res.IsError
}

// TestBrokerAppRouteMintsPerCall drives tools through the broker's socket
// over an App route naming repositories = ["tps"]: each call's token was
// asked for exactly tps and its tool's permissions in its mode, and the
// private repository the route does not name is out of reach.
func TestBrokerAppRouteMintsPerCall(t *testing.T) {
	var inst *emulator.Installation
	a := startAppBroker(t, "initech", `repositories = ["tps"]`, func(st *emulator.State, key *rsa.PublicKey) {
		initech := st.AddAccount("initech", "Initech", true, st.Now())
		tps := st.AddRepo(initech, "tps", "TPS reports", false, st.Now())
		secret := st.AddRepo(initech, "secret", "Layoffs", true, st.Now())
		st.AddIssue(tps, initech, "Cover sheets", nil, false, st.Now())
		st.AddIssue(secret, initech, "Relocate to the basement", nil, false, st.Now())
		inst = st.AddApp(12345, key).AddInstallation(678, "initech",
			map[string]emulator.Permission{"initech/tps": emulator.PermWrite, "initech/secret": emulator.PermWrite})
		inst.Permissions = emulator.AppPermissions{"metadata": "read", "issues": "write", "contents": "read"}
	})
	// The instructions tell the agent how its token is narrowed (a read
	// of the capability summary would be audited without a credential,
	// which the audit check below refuses).
	if got, want := a.cs.InitializeResult().Instructions, "- GitHub App routes initech (tps): each call's installation token covers those repositories "+
		"and only its tool's permissions"; !strings.Contains(got, want) {
		t.Errorf("the instructions lack %q:\n%s", want, got)
	}
	if text, isErr := a.call(t, "github_get_issue", map[string]any{"owner": "initech", "repo": "tps", "issue_number": 1}); isErr {
		t.Fatalf("get_issue: %s", text)
	}
	if text, isErr := a.call(t, "github_add_comment", map[string]any{"owner": "initech", "repo": "tps", "issue_number": 1,
		"body": "Did you get the memo about the new cover sheets?"}); isErr {
		t.Fatalf("add_comment: %s", text)
	}
	text, isErr := a.call(t, "github_get_issue", map[string]any{"owner": "initech", "repo": "secret", "issue_number": 1})
	if !isErr {
		t.Errorf("initech/secret through a route naming tps: isError = false, want repo_not_found: %s", text)
	}
	if !strings.Contains(text, `"code":"repo_not_found"`) {
		t.Errorf("initech/secret through a route naming tps: result = %s, want code repo_not_found", text)
	}

	st := a.emu.Emu.State()
	st.Lock()
	got := slices.Clone(inst.Requests)
	author := st.Repo("initech", "tps").Issue(1).Comments[0].User.Login
	st.Unlock()
	tpsOnly := []string{"tps"}
	want := []emulator.TokenRequest{
		{Repositories: tpsOnly, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "read"}},
		{Repositories: tpsOnly, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "write"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("token requests:\n got %+v\nwant %+v", got, want)
	}
	if author != "app-12345[bot]" {
		t.Errorf("the comment was made as %s, want the App's bot", author)
	}
	for _, line := range brokertest.AuditLines(t, a.audit) {
		if line.Credential != "app:12345/678" {
			t.Errorf("audit line for %s names credential %q, want app:12345/678", line.Tool, line.Credential)
		}
	}
}

// TestBrokerAppRouteRowsSuffice calls the tools, each through a token
// holding only its row of the permissions table, on the demo world's
// acme, whose installation was granted everything: a row that misses a
// permission the tool's requests need is refused by the emulator, which
// holds each route and mutation to GitHub's documented permissions.
func TestBrokerAppRouteRowsSuffice(t *testing.T) {
	a := startAppBroker(t, "acme", "", func(st *emulator.State, key *rsa.PublicKey) {
		st.AddApp(12345, key).AddInstallation(678, "acme",
			map[string]emulator.Permission{"acme/widgets": emulator.PermAdmin, "acme/gadgets": emulator.PermAdmin})
	})
	repo := func(kv ...any) map[string]any {
		m := map[string]any{"owner": "acme", "repo": "widgets"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"github_get_issue", repo("issue_number", 1)},
		{"github_search_issues", repo("state", "all", "include_prs", true)},
		{"github_list_issue_items", repo("issue_number", 1, "collection", "comments")},
		{"github_list_issue_items", repo("issue_number", 1, "collection", "timeline")},
		{"github_list_issue_items", repo("issue_number", 1, "collection", "development")},
		{"github_list_repo_metadata", repo("kind", "labels")},
		{"github_list_repo_metadata", repo("kind", "milestones")},
		{"github_list_repo_metadata", repo("kind", "assignees")},
		{"github_list_repo_metadata", repo("kind", "templates")},
		{"github_get_overview", repo()},
		{"github_create_issue", repo("title", "Sparkline tooltips clip at the edge")},
		{"github_update_issue", repo("issue_number", 2, "title", "Retitled by the App")},
		{"github_add_comment", repo("issue_number", 1, "body", "Seen on the App's dashboard too.")},
		{"github_link_issues", repo("issue_number", 3, "relation", "blocked_by", "action", "add", "target_issue_number", 4)},
		{"github_manage_labels", repo("action", "create", "name", "app-made", "color", "00ff00")},
		{"github_manage_milestones", repo("action", "create", "title", "App milestone")},
		{"github_bulk_update_issues", repo("issue_numbers", []int{5, 6}, "changes", map[string]any{"state": "closed"})},
		{"github_delete_issue", repo("issue_number", 9, "confirm_issue_number", 9)},
	}
	// These read acme's private gadgets too; after them the session may
	// write no text to the public widgets (the data-flow guard), so they
	// come after the writes.
	readsPrivate := []struct {
		tool string
		args map[string]any
	}{
		{"github_list_projects", map[string]any{"owner": "acme"}},
		{"github_list_project_items", map[string]any{"owner": "acme", "project_number": 1}},
		{"github_get_project_item", map[string]any{"owner": "acme", "project_number": 1, "repo": "widgets", "issue_number": 1}},
		{"github_report_unlabeled", map[string]any{"owner": "acme"}},
		{"github_report_security_alerts", map[string]any{"owner": "acme"}},
		{"github_report_release_prs", map[string]any{"owner": "acme"}},
		{"github_report_ci_status", repo()},
	}
	results := map[string]string{}
	for _, c := range calls {
		text, isErr := a.call(t, c.tool, c.args)
		// A read that leaves out what the token may not read
		// (get_overview's partial_success) shows a row that lacks it.
		if isErr {
			t.Errorf("%s %v through its row's token: isError = true, want a result: %s", c.tool, c.args, text)
		}
		if strings.Contains(text, `"partial_success"`) {
			t.Errorf("%s %v through its row's token: result holds partial_success, want the whole: %s", c.tool, c.args, text)
		}
		results[c.tool] = text
	}
	// Writes that act on what the calls above made: the comment just
	// posted, and the new issue placed on the board.
	var posted struct {
		Comment struct {
			ID int64 `json:"id"`
		} `json:"comment"`
	}
	var created struct {
		Issue struct {
			Number int `json:"number"`
		} `json:"issue"`
	}
	if err := json.Unmarshal([]byte(results["github_add_comment"]), &posted); err != nil {
		t.Fatalf("add_comment's result %s: %v", results["github_add_comment"], err)
	}
	if posted.Comment.ID == 0 {
		t.Fatalf("add_comment's result: comment.id = 0, want one: %s", results["github_add_comment"])
	}
	if err := json.Unmarshal([]byte(results["github_create_issue"]), &created); err != nil {
		t.Fatalf("create_issue's result %s: %v", results["github_create_issue"], err)
	}
	if created.Issue.Number == 0 {
		t.Fatalf("create_issue's result: issue.number = 0, want one: %s", results["github_create_issue"])
	}
	// An unresolved review thread of an open pull request.
	pull, thread := 0, ""
	st := a.emu.Emu.State()
	st.Lock()
	for _, is := range st.Repo("acme", "widgets").Issues {
		if is.Pull == nil || is.State != "open" || thread != "" {
			continue
		}
		for _, th := range is.Pull.Threads {
			if !th.Resolved {
				pull, thread = is.Number, th.NodeID
				break
			}
		}
	}
	st.Unlock()
	if thread == "" {
		t.Fatal("the demo world has no unresolved review thread")
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"github_list_issue_items", repo("issue_number", pull, "collection", "review_threads")},
		{"github_update_review_thread", repo("pull", pull, "thread_id", thread, "action", "resolve")},
		{"github_edit_comment", repo("comment_id", posted.Comment.ID, "body", "Seen on the App's dashboard too (edited).")},
		{"github_update_project_item", map[string]any{"owner": "acme", "project_number": 1, "action": "add",
			"item": map[string]any{"repo": "widgets", "issue_number": created.Issue.Number}}},
	} {
		if text, isErr := a.call(t, c.tool, c.args); isErr {
			t.Errorf("%s %v through its row's token: %s", c.tool, c.args, text)
		}
	}
	for _, c := range readsPrivate {
		if text, isErr := a.call(t, c.tool, c.args); isErr {
			t.Errorf("%s %v through its row's token: %s", c.tool, c.args, text)
		}
	}
}

// mintSpy passes requests on and keeps the installation tokens GitHub
// answers token requests with, as canaries.
type mintSpy struct {
	next   http.RoundTripper
	mu     sync.Mutex
	tokens []*brokertest.Canary
}

func (s *mintSpy) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := s.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/access_tokens") || res.StatusCode != http.StatusCreated {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	var tok struct {
		Token string `json:"token"`
	}
	if json.Unmarshal(body, &tok) == nil && tok.Token != "" {
		s.mu.Lock()
		s.tokens = append(s.tokens, brokertest.CanaryOf(tok.Token))
		s.mu.Unlock()
	}
	return res, nil
}

func (s *mintSpy) minted() []*brokertest.Canary {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tokens)
}

// An App route's repositories are names of the installation's
// repositories; a token route cannot narrow its secret, so it may not
// name any.
func TestBrokerConfigAppRepositories(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := filepath.Join(dir, "broker.toml")
	for _, c := range []struct {
		name, route, want string
	}{
		{"owner-qualified", `app_id = 1` + "\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"initech/tps\"]", "without its owner"},
		{"twice", `app_id = 1` + "\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"tps\", \"TPS\"]", "twice"},
		{"empty", `app_id = 1` + "\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"\"]", "without its owner"},
		{"a token route", `read = "r"` + "\nrepositories = [\"tps\"]", "cannot narrow"},
	} {
		text := fmt.Sprintf("[listen]\nsocket = %q\n[[route]]\nowner = \"initech\"\n%s\n", filepath.Join(dir, "s"), c.route)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := broker.LoadConfig(conf); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want one saying %q", c.name, err, c.want)
		}
	}
	text := fmt.Sprintf("[listen]\nsocket = %q\n[[route]]\nowner = \"initech\"\napp_id = 1\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"tps\", \"secret\"]\n", filepath.Join(dir, "s"))
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := broker.LoadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Routes[0].Repositories; !slices.Equal(got, []string{"tps", "secret"}) {
		t.Errorf("route repositories = %q, want [tps secret]", got)
	}
}
