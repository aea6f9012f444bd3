package broker

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lastIssueAuthor is who opened the newest issue of owner/repo, read in
// the emulator.
func (e *rtEnv) lastIssueAuthor(t *testing.T, owner, repo string) string {
	t.Helper()
	st := e.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	r := st.Repo(owner, repo)
	if r == nil {
		t.Fatalf("no repository %s/%s", owner, repo)
	}
	if len(r.Issues) == 0 {
		t.Fatalf("%s/%s has no issues, want some", owner, repo)
	}
	return r.Issues[len(r.Issues)-1].User.Login
}

func (e *rtEnv) minted(t *testing.T) int {
	t.Helper()
	st := e.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	return e.inst.Minted
}

// viewer is the login the client's credential acts as.
func viewer(t *testing.T, ctx context.Context, c *github.Client) string {
	t.Helper()
	u, _, err := c.Viewer(ctx)
	if err != nil {
		t.Fatalf("GET /user: %v", err)
	}
	return u.GetLogin()
}

func TestRouterReadAndWriteCredentialsPerOwner(t *testing.T) {
	env := startRouterEnv(t, rtOptions{})

	ctx, rec := rtCall()
	w, err := env.router.For(ctx, "acme", tooldef.Write)
	if err != nil {
		t.Fatal(err)
	}
	wantRoute(t, "acme write", rec, "acme", "acme-write")
	if _, _, err := w.CreateIssue(ctx, "acme", "widgets", github.NewIssue{Title: "Routed write"}); err != nil {
		t.Fatal(err)
	}
	if got := env.lastIssueAuthor(t, "acme", "widgets"); got != "bob" {
		t.Errorf("the write was made as %s, want bob (acme-write)", got)
	}
	if n := rec.Upstream.Load(); n != 1 {
		t.Errorf("upstream requests counted: %d, want 1", n)
	}

	ctx, rec = rtCall()
	r, err := env.router.For(ctx, "ACME", tooldef.Read) // owners match case-insensitively
	if err != nil {
		t.Fatal(err)
	}
	wantRoute(t, "ACME read", rec, "acme", "acme-read")
	if got := viewer(t, ctx, r); got != "carol" {
		t.Errorf("the read was made as %s, want carol (acme-read)", got)
	}
	if r == w {
		t.Error("the read and the write share one client")
	}

	// One client per credential, reused.
	again, err := env.router.For(context.Background(), "acme", tooldef.Write)
	if err != nil {
		t.Errorf("the write client again: %v", err)
	} else if again != w {
		t.Errorf("the write client again = %p, want the first one %p (reused)", again, w)
	}
	// The idempotency scope is the write credential's digest.
	got, want := env.router.Credential(context.Background(), "acme"), string(w.CredentialKey())
	if got == "" {
		t.Errorf("Credential(acme) is empty, want the write client's key %q", want)
	} else if got != want {
		t.Errorf("Credential(acme) = %q, want the write client's key %q", got, want)
	}

	tok, name, err := env.router.Token(context.Background(), "acme", tooldef.Write)
	if err != nil {
		t.Errorf("Token(acme, write): %v", err)
	}
	if name != "acme-write" {
		t.Errorf("Token(acme, write): name = %q, want acme-write", name)
	}
	if tok != env.secret["acme-write"] {
		t.Errorf("Token(acme, write): the token is not acme-write's secret")
	}
}

func TestRouterFallbackRoute(t *testing.T) {
	env := startRouterEnv(t, rtOptions{})
	for _, owner := range []string{"alice", ""} {
		ctx, rec := rtCall()
		c, err := env.router.For(ctx, owner, tooldef.Read)
		if err != nil {
			t.Fatalf("owner %q: %v", owner, err)
		}
		wantRoute(t, "owner "+strconv.Quote(owner), rec, "*", "fallback-read")
		if got := viewer(t, ctx, c); got != "alice" {
			t.Errorf("owner %q: read as %s, want alice (fallback-read)", owner, got)
		}
	}
	// alice/notes is private to alice: only the fallback credential sees it.
	c, _ := env.router.For(context.Background(), "alice", tooldef.Read)
	if _, _, err := c.GetIssue(context.Background(), "alice", "notes", 1); err != nil {
		t.Errorf("reading alice/notes through the fallback: %v", err)
	}
}

func TestRouterWriteWithOnlyReadCredential(t *testing.T) {
	env := startRouterEnv(t, rtOptions{})
	ctx, rec := rtCall()
	_, err := env.router.For(ctx, "alice", tooldef.Write)
	e := env.envelope(t, err, contract.CodeInsufficientScope)
	if e.Settlement != contract.NotStarted {
		t.Errorf("settlement %q, want not_started", e.Settlement)
	}
	if e.Details == nil {
		t.Errorf("details = nil, want required_scopes [write]")
	} else if !slices.Equal(e.Details.RequiredScopes, []string{"write"}) {
		t.Errorf("required_scopes = %q, want [write]", e.Details.RequiredScopes)
	}
	for _, want := range []string{`"*"`, `"fallback-read"`} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q does not name %s", e.Message, want)
		}
	}
	if n := rec.Upstream.Load(); n != 0 {
		t.Errorf("%d requests sent before the refusal, want none", n)
	}
	if _, _, err := env.router.Token(context.Background(), "alice", tooldef.Write); err == nil {
		t.Error("Token gave a write credential for a read-only route")
	} else {
		env.scan(t, "Token error", err.Error())
	}
}

func TestRouterMissingCredential(t *testing.T) {
	env := startRouterEnv(t, rtOptions{noFallback: true})
	ctx, rec := rtCall()
	_, err := env.router.For(ctx, "nobody", tooldef.Read)
	e := env.envelope(t, err, contract.CodeMissingCredential)
	if !strings.Contains(e.Message, `"nobody"`) {
		t.Errorf("message = %q, want the owner \"nobody\" named", e.Message)
	}
	if e.Settlement != contract.NotStarted {
		t.Errorf("settlement = %q, want %q", e.Settlement, contract.NotStarted)
	}
	if n := rec.Upstream.Load(); n != 0 {
		t.Errorf("record upstream requests = %d, want 0", n)
	}
	if rec.Route != "" {
		t.Errorf("record route = %q, want none", rec.Route)
	}
	_, err = env.router.For(context.Background(), "", tooldef.Read)
	env.envelope(t, err, contract.CodeMissingCredential)
	if env.router.Credential(context.Background(), "nobody") != "" {
		t.Error("Credential names a credential for an unrouted owner")
	}
}

func TestRouterAppInstallationTokens(t *testing.T) {
	env := startRouterEnv(t, rtOptions{})
	for i := range 2 {
		ctx, rec := rtCall()
		c, err := env.router.For(ctx, "initech", tooldef.Write)
		if err != nil {
			t.Fatal(err)
		}
		wantRoute(t, "initech write", rec, "initech", "app:12345/678")
		if _, _, err := c.CreateIssue(ctx, "initech", "tps", github.NewIssue{Title: "Cover sheet missing"}); err != nil {
			t.Fatal(err)
		}
		want := int64(1) // the write
		if i == 0 {
			want = 3 // and the token mint: the installation's permissions, then the token
		}
		if n := rec.Upstream.Load(); n != want {
			t.Errorf("call %d: %d upstream requests counted, want %d", i, n, want)
		}
	}
	if got := env.lastIssueAuthor(t, "initech", "tps"); got != "app-12345[bot]" {
		t.Errorf("the write was made as %s, want the App's bot", got)
	}
	if n := env.minted(t); n != 1 {
		t.Errorf("%d installation tokens minted, want 1 (the hour-long token is reused)", n)
	}
	// An App serves reads too, with the same client.
	r, err := env.router.For(context.Background(), "initech", tooldef.Read)
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := env.router.For(context.Background(), "initech", tooldef.Write); r != w {
		t.Error("the App's read and write clients differ")
	}
	tok, name, err := env.router.Token(context.Background(), "initech", tooldef.Write)
	if err != nil {
		t.Fatalf("Token(initech): %v", err)
	}
	if name != "app:12345/678" {
		t.Fatalf("Token(initech): name = %q, want app:12345/678", name)
	}
	if !strings.HasPrefix(tok, "ghs_") {
		t.Fatalf("Token(initech): the token does not start with ghs_, want an installation token")
	}
	env.sawCredential(tok)
}

func TestRouterAppTokenRefresh(t *testing.T) {
	// Tokens living 30 s are inside ghinstallation's one-minute refresh
	// margin, so every use mints a fresh one.
	env := startRouterEnv(t, rtOptions{tokenTTL: 30 * time.Second})
	seen := map[string]bool{}
	for range 3 {
		ctx, _ := rtCall()
		c, err := env.router.For(ctx, "initech", tooldef.Write)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.CreateIssue(ctx, "initech", "tps", github.NewIssue{Title: "Refreshed"}); err != nil {
			t.Fatal(err)
		}
		tok, _, err := env.router.Token(ctx, "initech", tooldef.Read)
		if err != nil {
			t.Fatal(err)
		}
		env.sawCredential(tok)
		seen[tok] = true
	}
	if n := env.minted(t); n < 3 {
		t.Errorf("%d installation tokens minted for 3 calls with short-lived tokens, want at least 3", n)
	}
	if len(seen) < 2 {
		t.Errorf("the installation token was never refreshed")
	}
}

func TestRouterAppRefusedInstallation(t *testing.T) {
	env := startRouterEnv(t, rtOptions{installationID: 999})
	ctx, rec := rtCall()
	_, err := env.router.For(ctx, "initech", tooldef.Write)
	e := env.envelope(t, err, contract.CodeInvalidCredential)
	for _, want := range []string{`"initech"`, "app:12345/999", `"app-key"`} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q does not name %s", e.Message, want)
		}
	}
	if e.Settlement != contract.NotStarted {
		t.Errorf("settlement = %q, want %q", e.Settlement, contract.NotStarted)
	}
	if rec.Credential != "app:12345/999" {
		t.Errorf("record credential = %q, want app:12345/999", rec.Credential)
	}
}

// TestRouterEnvelopesOverMCP calls tools through an MCP session over a
// service whose clients are the router: what the agent sees names routes
// and secrets, never a credential.
func TestRouterEnvelopesOverMCP(t *testing.T) {
	env := startRouterEnv(t, rtOptions{noFallback: true})
	ctx := context.Background()
	st, err := store.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cursors, err := contract.NewCursors(make([]byte, 32), nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := &toolkit.Service{Clients: env.router, Store: st, Cursors: cursors, Credential: env.router.Credential}
	srv, err := server.New(svc, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := servertest.Connect(t, srv.MCP)
	call := func(args map[string]any) (bool, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "github_create_issue", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		env.scan(t, "tool result", string(b))
		return res.IsError, string(b)
	}
	if isErr, out := call(map[string]any{"owner": "acme", "repo": "widgets", "title": "Through the broker", "idempotency_key": "k1"}); isErr {
		t.Fatalf("create on acme failed: %s", out)
	}
	if got := env.lastIssueAuthor(t, "acme", "widgets"); got != "bob" {
		t.Errorf("created as %s, want bob", got)
	}
	isErr, out := call(map[string]any{"owner": "nobody", "repo": "x", "title": "Nowhere"})
	if !isErr {
		t.Errorf("unrouted owner: isError = false, want missing_credential: %s", out)
	}
	for _, want := range []string{"missing_credential", "nobody"} {
		if !strings.Contains(out, want) {
			t.Errorf("unrouted owner: result lacks %q: %s", want, out)
		}
	}
}
