package issues_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ownerRecorder is a toolkit.Clients that notes the owner each call was
// routed by, then serves it as the one it wraps would.
type ownerRecorder struct {
	next toolkit.Clients

	mu     sync.Mutex
	owners []string
}

func (r *ownerRecorder) For(ctx context.Context, owner string, mode tooldef.Mode) (*github.Client, error) {
	r.mu.Lock()
	r.owners = append(r.owners, owner)
	r.mu.Unlock()
	return r.next.For(ctx, owner, mode)
}

// took returns the owners asked for since the last call and resets them.
func (r *ownerRecorder) took() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.owners
	r.owners = nil
	return out
}

// startRecorded starts the demo environment with the service's clients
// wrapped in an ownerRecorder.
func startRecorded(t *testing.T) (*servertest.Env, *ownerRecorder) {
	t.Helper()
	env := servertest.Start(t, servertest.Options{})
	rec := &ownerRecorder{next: env.Stack.Service.Clients}
	env.Stack.Service.Clients = rec
	return env, rec
}

// wantRowsIn fails unless the page has rows and every one is in a
// repository whose full name starts with prefix (case-insensitive).
func wantRowsIn(t *testing.T, out issues.SearchIssuesOut, prefix string) {
	t.Helper()
	if len(out.Items) == 0 {
		t.Fatalf("0 rows, want rows in %s", prefix)
	}
	for _, it := range out.Items {
		if !strings.HasPrefix(strings.ToLower(it.Repo), strings.ToLower(prefix)) {
			t.Fatalf("row #%d repo = %q, want only %s", it.Number, it.Repo, prefix)
		}
	}
}

// refusedScope checks a refusal on query and returns its repair's
// arguments as the literal input the agent would send back.
func refusedScope(t *testing.T, env *servertest.Env, in issues.SearchIssuesIn) (contract.Error, json.RawMessage) {
	t.Helper()
	res := env.Call(t, toolkit.NameSearchIssues, in)
	e := wireEnvelope(t, res, false)
	if e.Code != contract.CodeInvalidField {
		t.Fatalf("query %q: code = %q, want %q: %s", in.Query, e.Code, contract.CodeInvalidField, res.JSON)
	}
	if e.Details == nil || e.Details.Field != "query" {
		t.Fatalf("query %q: details = %+v, want field query", in.Query, e.Details)
	}
	if e.Repair == nil {
		t.Fatalf("query %q: repair = nil, want a callable search: %s", in.Query, res.JSON)
	}
	if e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("query %q: repair.tool = %q, want %q", in.Query, e.Repair.Tool, toolkit.NameSearchIssues)
	}
	if e.Repair.Arguments == nil {
		t.Fatalf("query %q: repair.arguments = nil, want a callable search: %s", in.Query, res.JSON)
	}
	if e.Repair.NextStep == "" {
		t.Fatalf("query %q: repair.next_step is empty, want one: %s", in.Query, res.JSON)
	}
	args, err := json.Marshal(e.Repair.Arguments)
	if err != nil {
		t.Fatalf("marshal repair arguments: %v", err)
	}
	return e, args
}

// The reported case: with owner acme, user:alice in the query would have
// read alice's private notes on acme's credential. It is refused before
// any request, and the repair is the same search without the qualifier.
func TestSearchOwnerRefusesAnotherOwnersQualifier(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	in := issues.SearchIssuesIn{Owner: "acme", Query: "user:alice", State: "all", PageSize: 50}
	_, args := refusedScope(t, env, in)
	wantUpstream(t, env)
	if got := rec.took(); len(got) != 0 {
		t.Errorf("credentials asked for by a refused search = %q, want none", got)
	}
	var fixed issues.SearchIssuesIn
	if err := json.Unmarshal(args, &fixed); err != nil {
		t.Fatalf("repair arguments %s: %v", args, err)
	}
	if want := (issues.SearchIssuesIn{Owner: "acme", State: "all", PageSize: 50}); !jsonEqual(fixed, want) {
		t.Errorf("repair arguments = %s, want %+v", args, want)
	}
	out := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, args)
	wantRowsIn(t, out, "acme/")
	if got := rec.took(); !slices.Equal(got, []string{"acme"}) {
		t.Errorf("repaired search routed by %q, want [\"acme\"]", got)
	}
}

// Every spelling GitHub reads as a scope naming another owner is refused;
// the repair drops exactly those qualifiers and keeps the rest.
func TestSearchOwnerRefusesWideningSpellings(t *testing.T) {
	t.Parallel()
	env, _ := startRecorded(t)
	for _, c := range []struct {
		owner, repo, query string
		fixed              string // the repair's query
	}{
		{"acme", "", "repo:alice/notes", ""},
		{"acme", "", `USER:"alice"`, ""},
		{"acme", "", "Repo:Alice/Notes", ""},
		{"acme", "", "org:alice", ""},
		{"acme", "", "owner:alice", ""},
		{"acme", "", "project:alice/1", ""},
		{"acme", "", `crash label:bug user:alice in:title`, `crash label:bug in:title`},
		{"acme", "", "(user:alice OR user:acme) crash", "(user:acme) crash"},
		{"acme", "", "crash OR user:alice", "crash"},
		{"acme", "", "user:acme,alice", "user:acme"},
		{"acme", "", "user:@me", ""},
		{"acme", "", `"foo user:alice`, `"foo`},
		// GitHub applies NOT to words only: a qualifier after it still
		// widens the scope.
		{"acme", "", "crash NOT user:alice", "crash"},
		{"acme", "widgets", "repo:acme/gadgets", ""},
		{"acme", "widgets", "user:acme", ""},
		{"acme", "widgets", "ORG:ACME crash", "crash"},
	} {
		t.Run(c.query, func(t *testing.T) {
			in := issues.SearchIssuesIn{Owner: c.owner, Repo: c.repo, Query: c.query}
			_, args := refusedScope(t, env, in)
			var fixed issues.SearchIssuesIn
			if err := json.Unmarshal(args, &fixed); err != nil {
				t.Fatalf("repair arguments %s: %v", args, err)
			}
			if fixed.Owner != c.owner {
				t.Errorf("%s/%s %q: repair owner = %q, want %q", c.owner, c.repo, c.query, fixed.Owner, c.owner)
			}
			if fixed.Repo != c.repo {
				t.Errorf("%s/%s %q: repair repo = %q, want %q", c.owner, c.repo, c.query, fixed.Repo, c.repo)
			}
			if fixed.Query != c.fixed {
				t.Errorf("%s/%s %q: repair query = %q, want %q", c.owner, c.repo, c.query, fixed.Query, c.fixed)
			}
			wantUpstream(t, env)
		})
	}
}

// Exclusions narrow, and naming the routed owner again is redundant: both
// are searched as sent, within the owner.
func TestSearchOwnerAllowsNarrowingQualifiers(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	// within is "" where the rows are not checked: the emulator does not
	// model excluding a scope (it reads -user:x as user:x).
	for _, c := range []struct{ owner, repo, query, within string }{
		{"acme", "", "-user:alice", ""},
		{"acme", "", "-repo:alice/notes -org:alice", ""},
		{"acme", "", "user:acme", "acme/"},
		{"acme", "", `USER:"ACME"`, "acme/"},
		{"acme", "", "repo:acme/widgets", "acme/"},
		{"acme", "", "Owner:Acme org:acme", "acme/"},
		{"acme", "", `label:"user:alice" OR -label:x`, "acme/"},
		{"acme", "widgets", "repo:ACME/Widgets", ""},
		{"acme", "widgets", "-user:alice", ""},
	} {
		t.Run(c.owner+"/"+c.repo+" "+c.query, func(t *testing.T) {
			in := issues.SearchIssuesIn{Owner: c.owner, Repo: c.repo, Query: c.query, State: "all"}
			res := env.Call(t, toolkit.NameSearchIssues, in)
			if res.IsError {
				t.Errorf("%s/%s %q: got an error, want it searched: %s", c.owner, c.repo, c.query, res.JSON)
				return
			}
			var out issues.SearchIssuesOut
			res.Decode(t, &out)
			if c.within != "" && len(out.Items) > 0 {
				wantRowsIn(t, out, c.within)
			}
			if got := rec.took(); !slices.Equal(got, []string{c.owner}) {
				t.Errorf("%q routed by %q, want %s", c.query, got, c.owner)
			}
		})
	}
}

// Without owner, the owner the query's scope names picks the credential;
// with no scope named, the call routes by "" as before.
func TestSearchWithoutOwnerRoutesByTheQueryScope(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	for _, c := range []struct{ query, route, within string }{
		{"repo:alice/notes", "alice", "alice/notes"},
		{`USER:"Alice"`, "Alice", "alice/"},
		{"repo:alice/notes user:alice", "alice", "alice/"},
		{"-user:alice", "", ""},
		{"", "", ""},
	} {
		t.Run(c.query, func(t *testing.T) {
			res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Query: c.query, State: "all"})
			if res.IsError {
				t.Errorf("%q: got an error, want it searched: %s", c.query, res.JSON)
				return
			}
			var out issues.SearchIssuesOut
			res.Decode(t, &out)
			if c.within != "" {
				wantRowsIn(t, out, c.within)
			}
			if got := rec.took(); !slices.Equal(got, []string{c.route}) {
				t.Errorf("%q routed by %q, want %q", c.query, got, c.route)
			}
		})
	}
}

// Two owners in one query would be read on one owner's credential: it is
// refused, and the repair is the first owner's own search.
func TestSearchWithoutOwnerRefusesTwoOwners(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	for _, c := range []struct{ query, fixed, route string }{
		{"crash repo:alice/notes user:acme", "crash repo:alice/notes", "alice"},
		{"org:acme USER:alice -label:x", "org:acme -label:x", "acme"},
		{"user:acme,alice", "user:acme", "acme"},
		{"user:@me repo:alice/notes", "user:@me", ""},
	} {
		t.Run(c.query, func(t *testing.T) {
			env.Upstream()
			_, args := refusedScope(t, env, issues.SearchIssuesIn{Query: c.query})
			wantUpstream(t, env)
			if got := rec.took(); len(got) != 0 {
				t.Errorf("%q: credentials asked for by a refused search = %q, want none", c.query, got)
			}
			var fixed issues.SearchIssuesIn
			if err := json.Unmarshal(args, &fixed); err != nil {
				t.Fatalf("repair arguments %s: %v", args, err)
			}
			if fixed.Owner != "" {
				t.Errorf("%q: repair owner = %q, want none", c.query, fixed.Owner)
			}
			if fixed.Query != c.fixed {
				t.Errorf("%q: repair query = %q, want %q", c.query, fixed.Query, c.fixed)
			}
			servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, args)
			if got := rec.took(); !slices.Equal(got, []string{c.route}) {
				t.Errorf("%q: repaired search routed by %q, want %q", c.query, got, c.route)
			}
		})
	}
}

// NOT before a scope qualifier is ambiguous (GitHub applies NOT to words
// only), so without an owner to bound it the call is refused and the
// repair writes the documented exclusion instead.
func TestSearchWithoutOwnerRewritesNOTScope(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	_, args := refusedScope(t, env, issues.SearchIssuesIn{Query: "crash NOT user:alice"})
	var fixed issues.SearchIssuesIn
	if err := json.Unmarshal(args, &fixed); err != nil {
		t.Fatalf("repair arguments %s: %v", args, err)
	}
	if fixed.Query != "crash -user:alice" {
		t.Errorf("repair query = %q, want %q", fixed.Query, "crash -user:alice")
	}
	servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, args)
	if got := rec.took(); !slices.Equal(got, []string{""}) {
		t.Errorf("repaired search routed by %q, want \"\"", got)
	}
}

// A cursor minted under a derived owner reads the next page on the same
// credential, and is bound to that scope and query.
func TestSearchDerivedOwnerCursor(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	in := issues.SearchIssuesIn{Query: "user:acme", State: "all", PageSize: 5}
	first := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
	if !first.HasMore {
		t.Fatalf("first page: has_more = false, want true: %+v", first.Page)
	}
	if first.NextCursor == "" {
		t.Fatalf("first page: next_cursor is empty, want one")
	}
	in.Cursor = first.NextCursor
	second := servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, in)
	wantRowsIn(t, second, "acme/")
	if second.Items[0].Number == first.Items[0].Number && second.Items[0].Repo == first.Items[0].Repo {
		t.Errorf("second page starts at %s#%d, want another row than the first page's", second.Items[0].Repo, second.Items[0].Number)
	}
	if got := rec.took(); !slices.Equal(got, []string{"acme", "acme"}) {
		t.Errorf("pages routed by %q, want [\"acme\" \"acme\"]", got)
	}
	// The same cursor under another owner's scope is not this listing.
	other := issues.SearchIssuesIn{Query: "user:alice", State: "all", PageSize: 5, Cursor: first.NextCursor}
	e := env.Call(t, toolkit.NameSearchIssues, other).Envelope(t)
	if e.Code != contract.CodeCursorInvalid {
		t.Errorf("cursor replayed under user:alice: code = %q, want %q: %+v", e.Code, contract.CodeCursorInvalid, e)
	}
}

func jsonEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// author and assignee are put in the query as qualifiers: anything but a
// login (or the words they take) is refused before any request, so they
// cannot carry a scope of their own past the routed owner.
func TestSearchLoginFiltersCarryNoScope(t *testing.T) {
	t.Parallel()
	env, rec := startRecorded(t)
	for _, in := range []issues.SearchIssuesIn{
		{Owner: "acme", Author: "x repo:alice/notes"},
		{Owner: "acme", Assignee: "x org:alice"},
		{Author: "bob user:alice"},
		{Owner: "acme", Author: "app/x repo:alice/notes"},
		{Owner: "acme", Assignee: "bob\tuser:alice"},
	} {
		t.Run(fmt.Sprintf("author %q assignee %q", in.Author, in.Assignee), func(t *testing.T) {
			res := env.Call(t, toolkit.NameSearchIssues, in)
			e := wireEnvelope(t, res, false)
			field := "author"
			if in.Assignee != "" {
				field = "assignee"
			}
			contracttest.Code(t, "", e, contract.CodeInvalidField)
			contracttest.Field(t, "", e, field)
		})
	}
	if got := rec.took(); len(got) != 0 {
		t.Fatalf("credentials asked for by refused searches = %q, want none", got)
	}
	wantUpstream(t, env)
	// GitHub's search refuses an app it does not know, as it does a user;
	// dependabot is one it knows.
	withState(env, func(s *emulator.State) { s.AddBotAccount("dependabot", time.Date(2019, 5, 23, 0, 0, 0, 0, time.UTC)) })
	for _, in := range []issues.SearchIssuesIn{
		{Owner: "acme", Author: "alice"},
		{Owner: "acme", Author: "app/dependabot"},
		{Owner: "acme", Author: "@me"},
		{Owner: "acme", Assignee: "none"},
		{Owner: "acme", Assignee: "@me"},
		{Owner: "acme", Assignee: "bob"},
	} {
		t.Run(fmt.Sprintf("author %q assignee %q", in.Author, in.Assignee), func(t *testing.T) {
			args, _ := json.Marshal(in)
			servertest.CallOK[issues.SearchIssuesOut](t, env, toolkit.NameSearchIssues, json.RawMessage(args))
		})
	}
}
