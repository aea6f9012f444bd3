package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The static keys of the clients withheldServe configures.
const (
	widgetsOnlyKey   = "ghgate-static-key-for-the-widgets-only-client-0123"
	acmeReaderKey    = "ghgate-static-key-for-the-acme-reader-client-01234"
	widgetsWriterKey = "ghgate-static-key-for-the-widgets-writer-client-01"
)

// The titles the arranged acme/gadgets issues carry: none may reach a
// client limited to acme/widgets.
const (
	blockerTitle = "gadgets-private-blocker-title"
	relatedTitle = "gadgets-private-related-title"
	parentTitle  = "gadgets-private-parent-title"
	childTitle   = "gadgets-private-child-title"
	blockedTitle = "gadgets-private-blocked-title"
	pullTitle    = "gadgets-private-pull-title"
)

// withheldWorld is a widgets issue tied to private acme/gadgets issues
// and a pull request: blocked by one, related to one, a sub-issue of one,
// parent of one, blocking one, and closed by the pull request, which
// also cross-references it.
type withheldWorld struct {
	widgets                                         int
	blocker, related, parent, child, blocked, fixer int
}

// arrangeWithheld ties an open widgets issue without relations to five
// open gadgets issues and an open gadgets pull request, each retitled so
// that its title is seen if it leaks.
func arrangeWithheld(t *testing.T, emu *emulator.Emulator) withheldWorld {
	t.Helper()
	s := emu.State()
	s.Lock()
	defer s.Unlock()
	alice := s.Account("alice")
	w := s.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issue(emulator.DemoUntriagedFrom)
	var gadgets []*emulator.Issue
	var pull *emulator.Issue
	for _, is := range s.Repo(emulator.DemoOrg, emulator.DemoGadgetsRepo).Issues {
		switch {
		case is.Deleted || is.State != "open":
		case is.IsPull && pull == nil:
			pull = is
		case !is.IsPull && is.Parent == nil && len(is.SubIssues) == 0 && len(gadgets) < 5:
			gadgets = append(gadgets, is)
		}
	}
	if w == nil {
		t.Fatalf("demo world: no widgets#%d", emulator.DemoUntriagedFrom)
	}
	if len(gadgets) < 5 {
		t.Fatalf("demo world: %d open plain gadgets issues, want at least 5", len(gadgets))
	}
	if pull == nil {
		t.Fatalf("demo world: no open gadgets pull request, want one")
	}
	for i, title := range []string{blockerTitle, relatedTitle, parentTitle, childTitle, blockedTitle} {
		gadgets[i].Title = title
	}
	pull.Title = pullTitle
	body := fmt.Sprintf("Closes %s/%s#%d", emulator.DemoOrg, emulator.DemoWidgetsRepo, w.Number)
	pull.Body = &body
	s.CrossReference(pull, alice, body, latest(w.CreatedAt, pull.CreatedAt).Add(time.Minute))
	if err := s.AddBlockedBy(w, gadgets[0], alice); err != nil {
		t.Fatal(err)
	}
	if err := s.AddRelated(w, gadgets[1]); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSubIssue(gadgets[2], w, alice, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSubIssue(w, gadgets[3], alice, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddBlockedBy(gadgets[4], w, alice); err != nil {
		t.Fatal(err)
	}
	return withheldWorld{widgets: w.Number, blocker: gadgets[0].Number, related: gadgets[1].Number, parent: gadgets[2].Number,
		child: gadgets[3].Number, blocked: gadgets[4].Number, fixer: pull.Number}
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// withheldServe starts the built binary with --auth, logging JSON, and
// three static-key clients: "widgets-only", which may read acme/widgets
// alone, "widgets-writer", which may write it alone, and "acme-reader",
// which may read all of acme.
func withheldServe(t *testing.T) (url string, emu *emulator.Emulator, stderr interface{ String() string }) {
	t.Helper()
	return staticKeysServe(t, "toolsets = [\"all\"]\n", fmt.Sprintf(`
[[client]]
name = "widgets-only"
key_sha256 = %q
read = ["acme/widgets"]
[client.tools]
read_only = true

[[client]]
name = "widgets-writer"
key_sha256 = %q
write = ["acme/widgets"]

[[client]]
name = "acme-reader"
key_sha256 = %q
read = ["acme"]
[client.tools]
read_only = true
`, httpauth.KeyDigest(widgetsOnlyKey), httpauth.KeyDigest(widgetsWriterKey), httpauth.KeyDigest(acmeReaderKey)))
}

// staticKeysServe starts the built binary against a demo emulator as
// alice, with the config lines given, --auth clients (the auth file's
// body) and JSON logs.
func staticKeysServe(t *testing.T, config, clients string) (url string, emu *emulator.Emulator, stderr interface{ String() string }) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Seed: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	u, buf := serveWithAuth(t, srv.URL, config, clients, "--log-json")
	return u, emu, buf
}

// itemRow is what the test reads of one github_list_issue_items row.
type itemRow struct {
	Number int    `json:"number"`
	Repo   string `json:"repo"`
	Title  string `json:"title"`
	Event  string `json:"event"`
}

// itemsOut is what the test reads of github_list_issue_items.
type itemsOut struct {
	Items    []itemRow `json:"items"`
	Withheld int       `json:"withheld"`
}

// callText calls a tool that must succeed and returns its text block.
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		t.Fatalf("%s %v: %s", tool, args, text)
	}
	return text
}

// TestServeAuthWithholdsRelationRowsOutsideTheReadGrant: a client that may
// read acme/widgets alone lists a widgets issue's blocked_by, related and
// timeline, and reads the issue, while the issue is tied to private
// acme/gadgets issues: every row naming one is left out and counted in
// withheld, and no gadgets title reaches it. A client that may read all
// of acme sees those rows, so they are there to withhold.
func TestServeAuthWithholdsRelationRowsOutsideTheReadGrant(t *testing.T) {
	t.Parallel()
	url, emu, stderr := withheldServe(t)
	w := arrangeWithheld(t, emu)
	limited := connectAs(t, url, widgetsOnlyKey)
	reader := connectAs(t, url, acmeReaderKey)
	gadgets := emulator.DemoOrg + "/" + emulator.DemoGadgetsRepo
	titles := []string{blockerTitle, relatedTitle, parentTitle, childTitle, blockedTitle, pullTitle}
	items := func(cs *mcp.ClientSession, collection string) (itemsOut, string) {
		t.Helper()
		text := callText(t, cs, "github_list_issue_items", map[string]any{"owner": "acme", "repo": "widgets",
			"issue_number": w.widgets, "collection": collection})
		var out itemsOut
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			t.Fatalf("%s: %v", collection, err)
		}
		return out, text
	}
	noGadgets := func(what, text string) {
		t.Helper()
		for _, title := range titles {
			if strings.Contains(text, title) {
				t.Errorf("%s: the answer holds the gadgets title %q:\n%s", what, title, text)
			}
		}
	}

	for _, c := range []struct {
		collection string
		number     int
	}{{"blocked_by", w.blocker}, {"related", w.related}, {"sub_issues", w.child}, {"blocking", w.blocked},
		{"linked_prs", w.fixer}, {"development", w.fixer}} {
		full, _ := items(reader, c.collection)
		if !slices.ContainsFunc(full.Items, func(r itemRow) bool { return r.Repo == gadgets && r.Number == c.number }) {
			t.Fatalf("acme-reader's %s has no row for %s#%d: %+v", c.collection, gadgets, c.number, full.Items)
		}
		out, text := items(limited, c.collection)
		if got := out.Withheld; got != 1 {
			t.Errorf("widgets-only %s: withheld = %d, want 1", c.collection, got)
		}
		for _, r := range out.Items {
			if r.Repo == gadgets {
				t.Errorf("widgets-only %s: a row of %s: %+v", c.collection, gadgets, r)
			}
		}
		noGadgets("widgets-only "+c.collection, text)
	}

	fullTimeline, _ := items(reader, "timeline")
	named := 0 // blocked_by_added, parent_issue_added, sub_issue_added, blocking_added, cross-referenced
	for _, r := range fullTimeline.Items {
		if r.Repo == gadgets {
			named++
		}
	}
	if named < 5 {
		t.Fatalf("acme-reader's timeline has %d rows of %s, want at least 5: %+v", named, gadgets, fullTimeline.Items)
	}
	timeline, text := items(limited, "timeline")
	for _, r := range timeline.Items {
		if r.Repo == gadgets {
			t.Errorf("widgets-only timeline: a row of %s: %+v", gadgets, r)
		}
	}
	if got := timeline.Withheld; got != named {
		t.Errorf("widgets-only timeline: withheld = %d, want %d", got, named)
	}
	noGadgets("widgets-only timeline", text)

	issue := callText(t, limited, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": w.widgets})
	var got struct {
		Relations *struct {
			Parent *struct {
				Repo string `json:"repo"`
			} `json:"parent"`
		} `json:"relations"`
		Withheld int `json:"withheld"`
	}
	if err := json.Unmarshal([]byte(issue), &got); err != nil {
		t.Fatal(err)
	}
	if got.Relations != nil && got.Relations.Parent != nil {
		t.Errorf("widgets-only get_issue: relations.parent = %+v, want none", *got.Relations.Parent)
	}
	if got.Withheld != 1 {
		t.Errorf("widgets-only get_issue: withheld = %d, want 1", got.Withheld)
	}

	// Linking the issue under another parent is refused: it has one, in
	// a repository the client may not name.
	writer := connectAs(t, url, widgetsWriterKey)
	res, err := writer.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_link_issues", Arguments: map[string]any{
		"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoParentIssue, "relation": "sub_issue", "action": "add",
		"target_issue_number": w.widgets}})
	if err != nil {
		t.Fatal(err)
	}
	text = res.Content[0].(*mcp.TextContent).Text
	if !res.IsError {
		t.Errorf("widgets-writer links a sub-issue with a parent already: %s", text)
	}
	if strings.Contains(text, gadgets) {
		t.Errorf("widgets-writer's refusal names %s: %s", gadgets, text)
	}
	if t.Failed() {
		t.Logf("server log:\n%s", stderr.String())
	}
}

// auditCall is the guard's audit line of one call, as --log-json writes it.
type auditCall struct {
	Msg          string   `json:"msg"`
	Client       string   `json:"client"`
	Tool         string   `json:"tool"`
	Owner        string   `json:"owner"`
	Repos        []string `json:"repos"`
	NamesOmitted int      `json:"names_omitted"`
	ReposRead    *int     `json:"repos_read"`
}

// auditCalls reads the audit lines of tool from a JSON log.
func auditCalls(t *testing.T, log, tool string) []auditCall {
	t.Helper()
	var out []auditCall
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var l auditCall
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "call" && l.Tool == tool {
			out = append(out, l)
		}
	}
	return out
}

// TestServeAuthReportAuditLineNamesTheRepositoriesRead: an owner-wide
// report names no repository in its arguments; its audit line lists the
// repositories it went over and how many it read.
func TestServeAuthReportAuditLineNamesTheRepositoriesRead(t *testing.T) {
	t.Parallel()
	url, _, stderr := withheldServe(t)
	reader := connectAs(t, url, acmeReaderKey)
	callText(t, reader, "github_report_unlabeled", map[string]any{"owner": "acme"})
	// The audit line is written as the answer goes out, so it may land
	// just after the client has read the answer: wait for it (bounded).
	var lines []auditCall
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if lines = auditCalls(t, stderr.String(), "github_report_unlabeled"); len(lines) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%d audit lines of the report, want 1:\n%s", len(lines), stderr.String())
	}
	l := lines[0]
	if want := []string{"acme/gadgets", "acme/widgets"}; !slices.Equal(l.Repos, want) {
		t.Errorf("repos = %v, want %v", l.Repos, want)
	}
	if l.ReposRead == nil {
		t.Fatalf("repos_read absent from %+v", l)
	}
	if got := *l.ReposRead; got != 2 {
		t.Errorf("repos_read = %d, want 2", got)
	}
	if l.NamesOmitted != 0 {
		t.Errorf("names_omitted = %d, want 0", l.NamesOmitted)
	}
}
