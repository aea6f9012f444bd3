package broker_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
)

// The toxic flow through the broker: an agent reads a private repository
// (alice/notes, over the fallback route) and is then told to put what it
// read in a public issue. The broker's data-flow guard refuses the write,
// the audit line names the refusal, and nothing reaches the emulator.
func TestBrokerRefusesPrivateTextInAPublicRepository(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{})
	cs := d.Connect(t)
	ctx := context.Background()
	leak := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3, "body": "From alice's private notes: the launch is on March 3."}

	// Before any private read, the same comment is written.
	if res := d.MustCall(t, cs, "github_add_comment", leak); res.IsError {
		t.Fatalf("a comment before any private read: %s", brokertest.ResultText(res))
	}
	before := len(d.Up.CommentBodies(t, "acme", "widgets", 3))
	d.MustCall(t, cs, "github_search_issues", map[string]any{"owner": "alice", "repo": "notes", "state": "all"})
	res, err := d.Call(ctx, cs, "github_add_comment", leak)
	if err != nil {
		t.Fatal(err)
	}
	text := brokertest.ResultText(res)
	if !res.IsError {
		t.Fatalf("a comment after a private read: isError = false, want cross_visibility_write: %s", text)
	}
	for _, want := range []string{`"code":"cross_visibility_write"`, "alice/notes"} {
		if !strings.Contains(text, want) {
			t.Fatalf("a comment after a private read: result = %s, want it to hold %s", text, want)
		}
	}
	if after := len(d.Up.CommentBodies(t, "acme", "widgets", 3)); after != before {
		t.Fatalf("the refused comment reached the emulator: %d comments, want %d", after, before)
	}
	// A write without text still goes through.
	if res := d.MustCall(t, cs, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3,
		"labels": map[string]any{"add": []string{"bug"}}}); res.IsError {
		t.Fatalf("a label edit: %s", brokertest.ResultText(res))
	}
	if err := d.Stop(); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, line := range brokertest.AuditLines(t, d.Audit) {
		if line.Tool == "github_add_comment" && line.Code == "cross_visibility_write" && line.Settlement == "not_started" {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("audit lines refusing the comment: %d, want 1", refused)
	}
}
