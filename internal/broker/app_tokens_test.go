package broker

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/permissions"
	"github.com/ghgate/ghgate/internal/testutil"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// appCall is a context for one call of tool in mode, as the broker's wrap
// makes it (its record and an admission of writes to initech/tps), and
// the client the router gives it for initech.
func (e *rtEnv) appCall(t *testing.T, tool string, mode tooldef.Mode) (context.Context, *github.Client) {
	t.Helper()
	ctx := WithRecord(rtAdmitted(), &CallRecord{Tool: tool, Mode: string(mode)})
	c, err := e.router.For(ctx, "initech", mode)
	if err != nil {
		t.Fatalf("%s (%s): %v", tool, mode, err)
	}
	return ctx, c
}

// requests is what the App asked of each token minted so far.
func (e *rtEnv) requests() []emulator.TokenRequest {
	st := e.emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	return slices.Clone(e.inst.Requests)
}

// The installation of these tests was granted no organization_projects,
// so a tool that could place an issue on a board does not ask for it.
var appGrant = emulator.AppPermissions{"metadata": "read", "issues": "write", "pull_requests": "write", "contents": "read"}

// TestAppTokensNarrowedPerCall: each call's token is minted for the
// route's repositories and the permissions its tool needs in its mode,
// as the installation grants them; a tool without a row (an upstream
// server's) gets the mode's whole set.
func TestAppTokensNarrowedPerCall(t *testing.T) {
	env := startRouterEnv(t, rtOptions{repositories: []string{"tps"}, permissions: appGrant})
	tps := []string{"tps"}

	ctx, c := env.appCall(t, "github_get_issue", tooldef.Read)
	if _, _, err := c.GetIssue(ctx, "initech", "tps", 1); err != nil {
		t.Fatal(err)
	}
	ctx, c = env.appCall(t, "github_add_comment", tooldef.Write)
	if _, _, err := c.CreateComment(ctx, "initech", "tps", 1, "Did you get the memo?"); err != nil {
		t.Fatal(err)
	}
	ctx, c = env.appCall(t, "github_create_issue", tooldef.Write)
	if _, _, err := c.CreateIssue(ctx, "initech", "tps", github.NewIssue{Title: "New cover sheets"}); err != nil {
		t.Fatal(err)
	}
	up := WithRecord(context.Background(), &CallRecord{Tool: "get_me", Mode: string(tooldef.Read)})
	tok, _, err := env.router.Token(up, "initech", tooldef.Read)
	if err != nil {
		t.Fatal(err)
	}
	env.sawCredential(tok)

	want := []emulator.TokenRequest{
		{Repositories: tps, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "read"}},
		{Repositories: tps, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "write"}},
		// organization_projects is create_issue's too, but not granted.
		{Repositories: tps, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "write"}},
		// Every read ghgate makes, as far as the installation grants.
		{Repositories: tps, Permissions: emulator.AppPermissions(permissions.Mode(false).Within(permissions.Set(appGrant)))},
	}
	got := env.requests()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("token requests:\n got %+v\nwant %+v", got, want)
	}
	if n := env.minted(t); n != len(want) {
		t.Errorf("%d tokens minted, want %d", n, len(want))
	}
	if want := (emulator.AppPermissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "read"}); !reflect.DeepEqual(got[3].Permissions, want) {
		t.Errorf("an upstream read asked %v, want %v", got[3].Permissions, want)
	}
}

// TestAppReadTokenCannotWrite: a write attempted with a read call's token
// is refused by GitHub (the emulator), not by the broker, and nothing is
// written.
func TestAppReadTokenCannotWrite(t *testing.T) {
	env := startRouterEnv(t, rtOptions{repositories: []string{"tps"}, permissions: appGrant})
	ctx, c := env.appCall(t, "github_get_issue", tooldef.Read)
	_, _, err := c.CreateComment(ctx, "initech", "tps", 1, "Yeah, I'm going to need you to come in on Saturday")
	var ge *github.Error
	if !errors.As(err, &ge) {
		t.Fatalf("a write with a read token: %v, want GitHub's refusal", err)
	}
	if ge.Status != 403 {
		t.Errorf("refusal status = %d, want 403", ge.Status)
	}
	if ge.Code != github.InsufficientScope {
		t.Errorf("refusal code = %s, want %s", ge.Code, github.InsufficientScope)
	}
	if want := "Resource not accessible by integration"; ge.Message != want {
		t.Errorf("refusal message = %q, want %q", ge.Message, want)
	}
	if !slices.Equal(ge.RequiredScopes, []string{"issues=write", "pull_requests=write"}) {
		t.Errorf("required %v, want GitHub's accepted permissions", ge.RequiredScopes)
	}
	st := env.emu.Emu.State()
	st.Lock()
	n := len(st.Repo("initech", "tps").Issue(1).Comments)
	st.Unlock()
	if n != 0 {
		t.Errorf("issue #1 has %d comments after a refused write", n)
	}
}

// TestAppRepoOutsideRouteHidden: a repository of the installation that
// the route does not name is hidden from the route's tokens, as GitHub
// hides it (404); without repositories the route reaches it.
func TestAppRepoOutsideRouteHidden(t *testing.T) {
	narrow := startRouterEnv(t, rtOptions{repositories: []string{"tps"}, permissions: appGrant})
	ctx, c := narrow.appCall(t, "github_get_issue", tooldef.Read)
	_, _, err := c.GetIssue(ctx, "initech", "secret", 1)
	var ge *github.Error
	if !errors.As(err, &ge) {
		t.Errorf("initech/secret through a route naming tps: error = %v, want GitHub's 404", err)
	} else if ge.Status != 404 {
		t.Errorf("initech/secret through a route naming tps: status = %d, want 404", ge.Status)
	}

	wide := startRouterEnv(t, rtOptions{permissions: appGrant})
	ctx, c = wide.appCall(t, "github_get_issue", tooldef.Read)
	if _, _, err := c.GetIssue(ctx, "initech", "secret", 1); err != nil {
		t.Errorf("initech/secret through a route naming no repositories: %v", err)
	}
	if got := wide.requests(); len(got) != 1 {
		t.Errorf("a route naming no repositories: %d token requests (%+v), want 1", len(got), got)
	} else if got[0].Repositories != nil {
		t.Errorf("a route naming no repositories asked repositories %q, want none (all the installation's)", got[0].Repositories)
	}
}

// TestAppTokenCache: one token per scope (mode and permission set) is
// reused until five minutes before it expires, then minted anew.
func TestAppTokenCache(t *testing.T) {
	clock := testutil.NewClock(time.Now())
	env := startRouterEnv(t, rtOptions{repositories: []string{"tps"}, permissions: appGrant, now: clock.Now})
	use := func(tool string, mode tooldef.Mode) string {
		t.Helper()
		ctx := WithRecord(context.Background(), &CallRecord{Tool: tool, Mode: string(mode)})
		c, err := env.router.For(ctx, "initech", mode)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.GetIssue(ctx, "initech", "tps", 1); err != nil {
			t.Fatal(err)
		}
		tok, _, err := env.router.Token(ctx, "initech", mode)
		if err != nil {
			t.Fatal(err)
		}
		env.sawCredential(tok)
		return tok
	}
	steps := []struct {
		name    string
		advance time.Duration
		tool    string
		mode    tooldef.Mode
		minted  int
	}{
		{"first read", 0, "github_get_issue", tooldef.Read, 1},
		{"the same call again", 0, "github_get_issue", tooldef.Read, 1},
		{"another tool, the same set", 0, "github_sync_issues", tooldef.Read, 1},
		{"a write", 0, "github_add_comment", tooldef.Write, 2},
		{"another write, the same set", 0, "github_edit_comment", tooldef.Write, 2},
		{"another set", 0, "github_list_repo_metadata", tooldef.Read, 3},
		{"54 minutes on: still fresh", 54 * time.Minute, "github_get_issue", tooldef.Read, 3},
		{"56 minutes on: within 5 of expiry", 2 * time.Minute, "github_get_issue", tooldef.Read, 4},
		{"the write's token too", 0, "github_add_comment", tooldef.Write, 5},
		{"the fresh one is reused", 0, "github_sync_issues", tooldef.Read, 5},
	}
	seen := map[string]bool{}
	for _, s := range steps {
		clock.Advance(s.advance)
		tok := use(s.tool, s.mode)
		if n := env.minted(t); n != s.minted {
			t.Errorf("%s: %d tokens minted, want %d", s.name, n, s.minted)
		}
		seen[tok] = true
	}
	if len(seen) != 5 {
		t.Errorf("%d distinct tokens used, want 5", len(seen))
	}
}

// TestAppRouteRepositoryOutsideInstallation: a route naming a repository
// the installation lacks fails each call before any request of the tool,
// with an envelope naming the route's repositories.
func TestAppRouteRepositoryOutsideInstallation(t *testing.T) {
	env := startRouterEnv(t, rtOptions{repositories: []string{"tps", "flair"}})
	ctx := WithRecord(context.Background(), &CallRecord{Tool: "github_get_issue", Mode: string(tooldef.Read)})
	_, err := env.router.For(ctx, "initech", tooldef.Read)
	e := env.envelope(t, err, contract.CodeInvalidCredential)
	for _, want := range []string{`"initech"`, "app:12345/678", `"flair"`, "HTTP 422"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q does not name %s", e.Message, want)
		}
	}
	if e.Settlement != contract.NotStarted {
		t.Errorf("settlement %q, want not_started", e.Settlement)
	}
}
