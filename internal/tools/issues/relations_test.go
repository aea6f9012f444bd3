package issues_test

import (
	"encoding/json"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// blocked_by and blocking say on the wire which count is open and which is
// the total: DemoBlockerIssue, closed, blocks DemoChainIssue, which blocks
// DemoBlockedIssue; closing DemoChainIssue lowers open and leaves total.
func TestDependencyCountsNameTheirParts(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	read := func() (blockedBy, blocking map[string]int) {
		res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockedIssue, Detail: "summary"})
		var out struct {
			Relations struct {
				BlockedBy map[string]int `json:"blocked_by"`
			} `json:"relations"`
		}
		if res.IsError {
			t.Fatalf("get #%d: got an error, want the issue: %s", emulator.DemoBlockedIssue, res.JSON)
		}
		if err := json.Unmarshal(res.JSON, &out); err != nil {
			t.Fatalf("decode #%d: %v: %s", emulator.DemoBlockedIssue, err, res.JSON)
		}
		res = env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockerIssue, Detail: "summary"})
		var blocker struct {
			Relations struct {
				Blocking map[string]int `json:"blocking"`
			} `json:"relations"`
		}
		if res.IsError {
			t.Fatalf("get #%d: got an error, want the issue: %s", emulator.DemoBlockerIssue, res.JSON)
		}
		if err := json.Unmarshal(res.JSON, &blocker); err != nil {
			t.Fatalf("decode #%d: %v: %s", emulator.DemoBlockerIssue, err, res.JSON)
		}
		return out.Relations.BlockedBy, blocker.Relations.Blocking
	}
	before, blocking := read()
	if len(before) != 2 {
		t.Fatalf("before: blocked_by = %v, want two keys, open and total", before)
	}
	if before["total"] < 1 {
		t.Fatalf("before: blocked_by total = %d, want 1 or more", before["total"])
	}
	if before["open"] != before["total"] {
		t.Fatalf("before: blocked_by open = %d, want the total %d", before["open"], before["total"])
	}
	if blocking["open"] < 1 {
		t.Fatalf("before: blocking open = %d, want 1 or more (%v)", blocking["open"], blocking)
	}
	if blocking["total"] < blocking["open"] {
		t.Fatalf("before: blocking total = %d, want at least open %d", blocking["total"], blocking["open"])
	}
	withState(env, func(s *emulator.State) {
		s.Close(widgets(env).Issue(emulator.DemoChainIssue), nil, "completed")
	})
	after, _ := read()
	if after["open"] != before["open"]-1 {
		t.Errorf("after closing a blocker: blocked_by open = %d, want %d", after["open"], before["open"]-1)
	}
	if after["total"] != before["total"] {
		t.Errorf("after closing a blocker: blocked_by total = %d, want %d unchanged", after["total"], before["total"])
	}
}
