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
	if err != nil || first.NotModified || first.ETag == "" || len(first.Issues) != 100 || first.Meta.NextPage != 2 {
		t.Fatalf("first page: %d issues, etag %q, next %d, %v", len(first.Issues), first.ETag, first.Meta.NextPage, err)
	}
	for i := 1; i < len(first.Issues); i++ {
		if first.Issues[i].GetUpdatedAt().After(first.Issues[i-1].GetUpdatedAt().Time) {
			t.Fatal("not newest first")
		}
	}
	bytes := tally.Bytes.Load()
	again, err := c.ListIssueChanges(ctx, owner, repo, time.Time{}, 1, first.ETag)
	if err != nil || !again.NotModified || len(again.Issues) != 0 || again.ETag != first.ETag {
		t.Fatalf("repeat: %+v %v", again, err)
	}
	if tally.Requests.Load() != 2 || tally.NotModified.Load() != 1 || bytes <= 0 || tally.Bytes.Load() != bytes {
		t.Fatalf("tally: %d requests, %d 304, %d bytes (first %d)", tally.Requests.Load(), tally.NotModified.Load(), tally.Bytes.Load(), bytes)
	}
	// A stale ETag gets the page.
	if fresh, err := c.ListIssueChanges(ctx, owner, repo, time.Time{}, 1, `W/"stale"`); err != nil || fresh.NotModified || fresh.ETag != first.ETag {
		t.Fatalf("stale etag: %+v %v", fresh.NotModified, err)
	}
	// since bounds the listing.
	since := first.Issues[0].GetUpdatedAt().Time
	recent, err := c.ListIssueChanges(ctx, owner, repo, since, 1, "")
	if err != nil || len(recent.Issues) == 0 || len(recent.Issues) >= 100 {
		t.Fatalf("since: %d issues, %v", len(recent.Issues), err)
	}
}
