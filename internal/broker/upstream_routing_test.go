package broker_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// routedUpstream is a broker with route acme (read and write) and route
// alice (read only), no "*" route, fronting the fake upstream as a real
// child process (the test binary itself, see runFakeUpstream) whose
// configured owner is acme.
type routedUpstream struct {
	cs    *mcp.ClientSession
	audit string
	calls string // the fake upstream's call log
	// secret maps each secret's value to its name.
	secret map[string]string
}

// fakeAllow is the allow list of the fake upstream's tools; extra
// replaces get_account's entry.
func fakeAllow(getAccount string) string {
	if getAccount == "" {
		getAccount = `{ tool = "get_account", mode = "read" }`
	}
	return `[
  { tool = "list_org_dependabot_alerts", mode = "read" },
  { tool = "search_issues_in", mode = "read" },
  { tool = "list_issues_filtered", mode = "read" },
  { tool = "fork_repository", mode = "write" },
  { tool = "create_repository", mode = "write" },
  ` + getAccount + `,
]`
}

func startRoutedUpstream(t *testing.T, allow string) *routedUpstream {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	secrets := map[string]string{"acme-read": "tokacmeread1111", "acme-write": "tokacmewrite2222", "alice-read": "tokaliceread3333"}
	ru := &routedUpstream{audit: filepath.Join(dir, "audit.jsonl"), calls: filepath.Join(dir, "calls.jsonl"), secret: map[string]string{}}
	var body strings.Builder
	for name, v := range secrets {
		fmt.Fprintf(&body, "%s = %q\n", name, v)
		ru.secret[v] = name
	}
	secretsPath := filepath.Join(dir, "secrets.toml")
	if err := os.WriteFile(secretsPath, []byte(body.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`
[listen]
socket = %q

[github]
url = "http://127.0.0.1:9"

[secrets]
file = %q

[[route]]
owner = "acme"
read = "acme-read"
write = "acme-write"

[[route]]
owner = "alice"
read = "alice-read"

[tools]
toolsets = ["issues"]

[audit]
file = %q

[[upstream]]
name = "fake"
command = [%q, %q, %q]
token_env = %q
owner = "acme"
allow = %s
`, filepath.Join(dir, "b.sock"), secretsPath, ru.audit, self, fakeUpstreamArg, ru.calls, fakeTokenEnv, allow)
	cfgPath := filepath.Join(dir, "broker.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := broker.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	b, err := broker.New(c, broker.Options{})
	if err != nil {
		t.Fatalf("broker.New: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	ct, st := mcp.NewInMemoryTransports()
	ss, err := b.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	ru.cs, err = mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ru.cs.Close(); _ = ss.Close() })
	return ru
}

// routedOutcome is what one call came to: the envelope of a refusal, the
// credential the upstream child held for a forwarded call, and the call's
// audit line.
type routedOutcome struct {
	refused    bool
	code       string
	settlement string
	repair     string
	// forwarded counts the calls the child received; secret names the
	// credential it held for the last.
	forwarded int
	secret    string
	line      routedLine
}

// routedLine is the part of an audit line these tests read.
type routedLine struct {
	Owner      string   `json:"owner"`
	Owners     []string `json:"owners"`
	Repos      []string `json:"repos"`
	Credential string   `json:"credential"`
	Outcome    string   `json:"outcome"`
	Code       string   `json:"code"`
}

// call sends a tools/call with the exact argument bytes given and reads
// back what it came to.
func (ru *routedUpstream) call(t *testing.T, tool, args string) routedOutcome {
	t.Helper()
	before := len(ru.forwarded(t))
	linesBefore := len(ru.lines(t))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := ru.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: protocol error %v", tool, args, err)
	}
	var out routedOutcome
	out.refused = res.IsError
	var env struct {
		Code       string `json:"code"`
		Settlement string `json:"settlement"`
		Repair     struct {
			NextStep string `json:"next_step"`
		} `json:"repair"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &env)
	out.code, out.settlement, out.repair = env.Code, env.Settlement, env.Repair.NextStep
	calls := ru.forwarded(t)
	out.forwarded = len(calls) - before
	if out.forwarded > 0 {
		out.secret = ru.secret[calls[len(calls)-1].Token]
	}
	lines := ru.lines(t)
	if got := len(lines) - linesBefore; got != 1 {
		t.Fatalf("%s %s: %d audit lines, want 1", tool, args, got)
	}
	out.line = lines[len(lines)-1]
	return out
}

// forwarded reads the fake upstream's call log.
func (ru *routedUpstream) forwarded(t *testing.T) []fakeCall {
	t.Helper()
	f, err := os.Open(ru.calls)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fakeCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c fakeCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("the fake upstream's log: %v", err)
		}
		out = append(out, c)
	}
	return out
}

func (ru *routedUpstream) lines(t *testing.T) []routedLine {
	t.Helper()
	data, err := os.ReadFile(ru.audit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []routedLine
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var line routedLine
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		out = append(out, line)
	}
	return out
}

// wantRefused checks that a call was refused with code before anything
// reached the upstream, and audited as such.
func (o routedOutcome) wantRefused(t *testing.T, what, code string) {
	t.Helper()
	if !o.refused {
		t.Errorf("%s: forwarded with %q, want refused with %s", what, o.secret, code)
		return
	}
	if o.code != code {
		t.Errorf("%s: code = %q, want %q", what, o.code, code)
	}
	if o.forwarded != 0 {
		t.Errorf("%s: reached the upstream %d times, want 0", what, o.forwarded)
	}
	if o.line.Outcome != "error" {
		t.Errorf("%s: audited outcome %q, want error", what, o.line.Outcome)
	}
}

// wantSent checks that a call reached the upstream once, holding secret.
func (o routedOutcome) wantSent(t *testing.T, what, secret string) {
	t.Helper()
	if o.refused {
		t.Errorf("%s: refused with %s, want forwarded with %q", what, o.code, secret)
		return
	}
	if o.forwarded != 1 {
		t.Errorf("%s: reached the upstream %d times, want 1", what, o.forwarded)
	}
	if o.secret != secret {
		t.Errorf("%s: the upstream held %q, want %q", what, o.secret, secret)
	}
	if o.line.Credential != secret {
		t.Errorf("%s: audited credential %q, want %q", what, o.line.Credential, secret)
	}
}

// wantNamed checks the audit line's owners and repositories.
func (o routedOutcome) wantNamed(t *testing.T, what string, owners, repos []string) {
	t.Helper()
	if !slices.Equal(o.line.Owners, owners) {
		t.Errorf("%s: audited owners %q, want %q", what, o.line.Owners, owners)
	}
	if !slices.Equal(o.line.Repos, repos) {
		t.Errorf("%s: audited repos %q, want %q", what, o.line.Repos, repos)
	}
}

// wantTwoOwners checks the refusal of a call naming two owners: nothing
// started (a write says so; a read's envelope carries no settlement), and
// a repair to follow.
func (o routedOutcome) wantTwoOwners(t *testing.T, what string, write bool) {
	t.Helper()
	o.wantRefused(t, what, "invalid_field")
	want := ""
	if write {
		want = "not_started"
	}
	if o.settlement != want {
		t.Errorf("%s: settlement %q, want %q", what, o.settlement, want)
	}
	if o.repair == "" {
		t.Errorf("%s: no repair", what)
	}
}

// An upstream tool naming its owner by `org` is routed by it: an owner
// without a route is refused (it was served with acme's credential), and
// a routed one gets its own credential.
func TestUpstreamOrgArgumentChoosesTheRoute(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	o := ru.call(t, "list_org_dependabot_alerts", `{"org":"fleet","state":"open"}`)
	o.wantRefused(t, "org fleet", "missing_credential")
	o.wantNamed(t, "org fleet", []string{"fleet"}, nil)
	if o.line.Owner != "fleet" {
		t.Errorf("org fleet: audited owner %q, want fleet", o.line.Owner)
	}

	o = ru.call(t, "list_org_dependabot_alerts", `{"org":"alice"}`)
	o.wantSent(t, "org alice", "alice-read")
	o.wantNamed(t, "org alice", []string{"alice"}, nil)
}

// Repositories named in an array are routed by their owner, and an array
// naming two owners is refused.
func TestUpstreamRepositoriesArrayChoosesTheRoute(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	o := ru.call(t, "search_issues_in", `{"repositories":["fleet/x"],"query":"is:open"}`)
	o.wantRefused(t, "fleet/x", "missing_credential")
	o.wantNamed(t, "fleet/x", []string{"fleet"}, []string{"fleet/x"})

	o = ru.call(t, "search_issues_in", `{"repositories":["alice/notes"]}`)
	o.wantSent(t, "alice/notes", "alice-read")
	o.wantNamed(t, "alice/notes", []string{"alice"}, []string{"alice/notes"})

	o = ru.call(t, "search_issues_in", `{"repositories":["acme/widgets","alice/notes"]}`)
	o.wantTwoOwners(t, "acme/widgets and alice/notes", false)
	o.wantNamed(t, "acme/widgets and alice/notes", []string{"acme", "alice"}, []string{"acme/widgets", "alice/notes"})
}

// A repository named inside an object argument, under any letter case of
// its key, is routed by its owner.
func TestUpstreamNestedRepoChoosesTheRoute(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	o := ru.call(t, "list_issues_filtered", `{"filter":{"repo":"fleet/x","state":"open"}}`)
	o.wantRefused(t, "filter.repo fleet/x", "missing_credential")
	o.wantNamed(t, "filter.repo fleet/x", []string{"fleet"}, []string{"fleet/x"})

	o = ru.call(t, "list_issues_filtered", `{"filter":{"Repo":"alice/notes","state":"open"}}`)
	o.wantSent(t, "filter.Repo alice/notes", "alice-read")

	o = ru.call(t, "list_issues_filtered", `{"filter":{"items":[{"repository":{"owner":"alice","name":"notes"}}]}}`)
	o.wantSent(t, "a repository object in an array", "alice-read")
	o.wantNamed(t, "a repository object in an array", []string{"alice"}, []string{"alice/notes"})
}

// A fork into another owner names two owners: refused before any
// credential is chosen (it was sent with acme's write credential).
func TestUpstreamForkIntoAnotherOwnerIsRefused(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	o := ru.call(t, "fork_repository", `{"owner":"acme","repo":"widgets","organization":"alice"}`)
	o.wantTwoOwners(t, "fork acme/widgets into alice", true)
	o.wantNamed(t, "fork acme/widgets into alice", []string{"acme", "alice"}, []string{"acme/widgets"})

	o = ru.call(t, "fork_repository", `{"owner":"acme","repo":"widgets","organization":"ACME"}`)
	o.wantSent(t, "fork acme/widgets into ACME", "acme-write")
}

// A repository created in an organization is routed by that
// organization, in the call's mode: alice's route has no write
// credential. A call naming no owner goes to the configured owner.
func TestUpstreamCreateRepositoryIsRoutedByItsOrganization(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	o := ru.call(t, "create_repository", `{"name":"x","organization":"alice"}`)
	o.wantRefused(t, "create in alice", "insufficient_scope")
	o.wantNamed(t, "create in alice", []string{"alice"}, nil)

	o = ru.call(t, "create_repository", `{"name":"x","organization":"acme","private":true}`)
	o.wantSent(t, "create in acme", "acme-write")

	o = ru.call(t, "create_repository", `{"name":"x"}`)
	o.wantSent(t, "create naming no owner", "acme-write")
	if o.line.Owner != "acme" {
		t.Errorf("create naming no owner: audited owner %q, want acme (the upstream's owner)", o.line.Owner)
	}
}

// An argument that can name an owner or repository but that the broker
// cannot read as one is refused, not forwarded.
func TestUpstreamUnreadableTargetIsRefused(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	for _, c := range []struct{ tool, args string }{
		{"list_org_dependabot_alerts", `{"org":7}`},
		{"list_org_dependabot_alerts", `{"org":"acme/widgets"}`},
		{"list_org_dependabot_alerts", `{"org":"../fleet"}`},
		{"list_issues_filtered", `{"filter":{"repo":{"id":3}}}`},
		{"list_issues_filtered", `{"filter":{"owner":true}}`},
		{"list_issues_filtered", `{"filter":{"repo":"acme/widgets","REPO":"acme/gadgets"}}`},
		{"search_issues_in", `{"repositories":["acme/x/../../fleet/y"]}`},
		{"search_issues_in", `{"repositories":[["fleet/x", 1]]}`},
		{"search_issues_in", `{"repositories":"https://github.com/fleet/x"}`},
	} {
		o := ru.call(t, c.tool, c.args)
		o.wantRefused(t, c.args, "invalid_field")
	}
}

// Argument names the operator adds for a tool (owner_args) route as the
// built-in ones do: a name alone at any depth, a dotted one as a path.
func TestUpstreamOperatorNamedArgumentsChooseTheRoute(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(`{ tool = "get_account", mode = "read", owner_args = ["account", "target.who"] }`))
	o := ru.call(t, "get_account", `{"account":"fleet"}`)
	o.wantRefused(t, "account fleet", "missing_credential")
	o.wantNamed(t, "account fleet", []string{"fleet"}, nil)

	o = ru.call(t, "get_account", `{"target":{"who":"alice"}}`)
	o.wantSent(t, "target.who alice", "alice-read")

	o = ru.call(t, "get_account", `{"target":{"WHO":"acme"},"account":"alice"}`)
	o.wantTwoOwners(t, "target.who acme and account alice", false)

	// "who" is an owner's name only where the operator said so.
	o = ru.call(t, "get_account", `{"target":{"kind":{"who":"fleet"}}}`)
	o.wantSent(t, "who elsewhere", "acme-read")
}

// An argument the operator declares text (text_args) names nothing: a
// package name there is not an owner to route by. Elsewhere the same
// value still names one.
func TestUpstreamTextArgumentsNameNothing(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(`{ tool = "get_account", mode = "read", text_args = ["affects", "target.note"] }`))
	o := ru.call(t, "get_account", `{"target":{"affects":"fleet/checkout"}}`)
	o.wantSent(t, "affects fleet/checkout", "acme-read")
	o = ru.call(t, "get_account", `{"target":{"note":"fleet/x","login":"alice"}}`)
	o.wantSent(t, "target.note beside an owner", "alice-read")
	// An object below a text argument is read afresh, and the same value
	// under another key still names its owner.
	o = ru.call(t, "get_account", `{"target":{"affects":{"repo":"fleet/x"}}}`)
	o.wantRefused(t, "an object below affects", "missing_credential")
	o = ru.call(t, "get_account", `{"target":{"other":"fleet/x"}}`)
	o.wantRefused(t, "fleet/x elsewhere", "missing_credential")
}

// A name under a key no list names is read by what the key's name says
// (nameWithOwner, repoOwner, login, q) or by what the value is (a GitHub
// URL, a git remote, OWNER/REPO): none is forwarded with another owner's
// credential.
func TestUpstreamNamesUnderUnlistedKeysChooseTheRoute(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	for _, args := range []string{
		`{"filter":{"url":"https://github.com/fleet/x"}}`,
		`{"filter":{"html_url":"https://github.com/fleet/x/issues/1"}}`,
		`{"filter":{"q":"repo:fleet/x is:private"}}`,
		`{"filter":{"nameWithOwner":"fleet/x"}}`,
		`{"filter":{"repoOwner":"fleet"}}`,
		`{"filter":{"login":"fleet"}}`,
		`{"filter":{"remote":"git@github.com:fleet/x.git"}}`,
		`{"filter":{"slug":"fleet/x"}}`,
	} {
		o := ru.call(t, "list_issues_filtered", args)
		o.wantRefused(t, args, "missing_credential")
		if !slices.Equal(o.line.Owners, []string{"fleet"}) {
			t.Errorf("%s: audited owners %q, want [fleet]", args, o.line.Owners)
		}
	}
	o := ru.call(t, "list_issues_filtered", `{"filter":{"url":"https://github.com/alice/notes"}}`)
	o.wantSent(t, "a URL naming alice", "alice-read")
	o = ru.call(t, "list_issues_filtered", `{"filter":{"path":"docs/readme.md","title":"acme/gadgets"}}`)
	o.wantSent(t, "a path and a title", "acme-read")
}

// owner_args and repo_args are read from an upstream's allow entries, and
// a name no argument could match is refused before the broker starts.
func TestUpstreamArgNamesAreChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(allow string) string {
		t.Helper()
		path := filepath.Join(dir, "broker.toml")
		cfg := `
[listen]
socket = "/run/ghgate/b.sock"
[[route]]
owner = "acme"
read = "acme-read"
[[upstream]]
name = "u"
url = "https://example.com/mcp"
allow = [` + allow + `]
`
		if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	c, err := broker.LoadConfig(write(`{ tool = "t", mode = "read", owner_args = ["account", "target.login"], repo_args = ["slug"] }`))
	if err != nil {
		t.Fatal(err)
	}
	got := c.Upstreams[0].Allow[0]
	if !slices.Equal(got.OwnerArgs, []string{"account", "target.login"}) {
		t.Errorf("owner_args = %q, want [account target.login]", got.OwnerArgs)
	}
	if !slices.Equal(got.RepoArgs, []string{"slug"}) {
		t.Errorf("repo_args = %q, want [slug]", got.RepoArgs)
	}
	c, err = broker.LoadConfig(write(`{ tool = "t", mode = "read", text_args = ["affects", "field.value"] }`))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Upstreams[0].Allow[0].TextArgs; !slices.Equal(got, []string{"affects", "field.value"}) {
		t.Errorf("text_args = %q, want [affects field.value]", got)
	}
	for _, bad := range []string{`owner_args = ["target."]`, `repo_args = ["a b"]`, `owner_args = ["x"], repo_args = ["X"]`,
		`text_args = ["repository"]`, `owner_args = ["who"], text_args = ["WHO"]`} {
		_, err := broker.LoadConfig(write(`{ tool = "t", mode = "read", ` + bad + ` }`))
		if err == nil {
			t.Errorf("%s: loaded, want refused", bad)
		}
	}
}

// A URL on the configured GitHub server names its owner, though the
// server's name does not say "github": the broker reads it as it reads a
// github.com URL.
func TestUpstreamURLOnTheConfiguredServerChoosesTheRoute(t *testing.T) {
	t.Parallel()
	ru := startRoutedUpstream(t, fakeAllow(""))
	o := ru.call(t, "list_issues_filtered", `{"filter":{"link":"http://127.0.0.1:9/alice/notes/issues/3"}}`)
	o.wantSent(t, "a URL of alice/notes", "alice-read")
	o.wantNamed(t, "a URL of alice/notes", []string{"alice"}, []string{"alice/notes"})

	o = ru.call(t, "list_issues_filtered", `{"filter":{"link":"http://127.0.0.1:9/fleet/x"}}`)
	o.wantRefused(t, "a URL of fleet/x", "missing_credential")
}
