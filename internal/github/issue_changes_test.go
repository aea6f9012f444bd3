package github

import (
	"context"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A listing of changes made conditional on its ETag is answered 304 while
// nothing changed: an answer, not an error, with no issues and no bytes;
// the tally counts each request and the bodies received.
func TestListIssueChangesConditional(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	tally := &Tally{}
	ctx := WithTally(context.Background(), tally)
	first, err := c.ListIssueChanges(ctx, owner, repo, time.Time{}, 1, "")
	if err != nil {
		t.Fatalf("first page: %v", err)
	}
	if first.NotModified {
		t.Errorf("first page: NotModified = true, want false")
	}
	if first.ETag == "" {
		t.Errorf("first page: ETag empty, want one")
	}
	if len(first.Issues) != 100 {
		t.Errorf("first page holds %d issues, want 100", len(first.Issues))
	}
	if first.Meta.NextPage != 2 {
		t.Errorf("first page: NextPage = %d, want 2", first.Meta.NextPage)
	}
	if t.Failed() {
		t.FailNow()
	}
	for i := 1; i < len(first.Issues); i++ {
		if prev, cur := first.Issues[i-1].GetUpdatedAt().Time, first.Issues[i].GetUpdatedAt().Time; cur.After(prev) {
			t.Fatalf("issue %d updated %v after issue %d's %v, want newest first", i, cur, i-1, prev)
		}
	}
	bytes := tally.Bytes.Load()
	again, err := c.ListIssueChanges(ctx, owner, repo, time.Time{}, 1, first.ETag)
	if err != nil {
		t.Fatalf("repeat: %v", err)
	}
	if !again.NotModified {
		t.Errorf("repeat: NotModified = false, want true")
	}
	if len(again.Issues) != 0 {
		t.Errorf("repeat holds %d issues, want none", len(again.Issues))
	}
	if again.ETag != first.ETag {
		t.Errorf("repeat: ETag = %q, want the first page's %q", again.ETag, first.ETag)
	}
	if n := tally.Requests.Load(); n != 2 {
		t.Errorf("tally: %d requests, want 2", n)
	}
	if n := tally.NotModified.Load(); n != 1 {
		t.Errorf("tally: %d answered 304, want 1", n)
	}
	if bytes <= 0 {
		t.Errorf("tally after the first page: %d bytes, want > 0", bytes)
	}
	if n := tally.Bytes.Load(); n != bytes {
		t.Errorf("tally after the 304: %d bytes, want %d as after the first page", n, bytes)
	}
	if t.Failed() {
		t.FailNow()
	}
	// A stale ETag gets the page.
	fresh, err := c.ListIssueChanges(ctx, owner, repo, time.Time{}, 1, `W/"stale"`)
	if err != nil {
		t.Fatalf("stale etag: %v", err)
	}
	if fresh.NotModified {
		t.Fatalf("stale etag: NotModified = true, want false")
	}
	if fresh.ETag != first.ETag {
		t.Fatalf("stale etag: ETag = %q, want %q", fresh.ETag, first.ETag)
	}
	// since bounds the listing.
	since := first.Issues[0].GetUpdatedAt().Time
	recent, err := c.ListIssueChanges(ctx, owner, repo, since, 1, "")
	if err != nil {
		t.Fatalf("since: %v", err)
	}
	if n := len(recent.Issues); n == 0 || n >= 100 {
		t.Fatalf("since %v: %d issues, want 1..99", since, n)
	}
}
