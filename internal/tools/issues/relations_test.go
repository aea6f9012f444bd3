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
		if err := json.Unmarshal(res.JSON, &out); err != nil || res.IsError {
			t.Fatalf("%v: %s", err, res.JSON)
		}
		res = env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockerIssue, Detail: "summary"})
		var blocker struct {
			Relations struct {
				Blocking map[string]int `json:"blocking"`
			} `json:"relations"`
		}
		if err := json.Unmarshal(res.JSON, &blocker); err != nil || res.IsError {
			t.Fatalf("%v: %s", err, res.JSON)
		}
		return out.Relations.BlockedBy, blocker.Relations.Blocking
	}
	before, blocking := read()
	if before["total"] < 1 || before["open"] != before["total"] || len(before) != 2 || blocking["open"] < 1 || blocking["total"] < blocking["open"] {
		t.Fatalf("before: blocked_by %v, blocking %v", before, blocking)
	}
	withState(env, func(s *emulator.State) {
		s.Close(widgets(env).Issue(emulator.DemoChainIssue), nil, "completed")
	})
	after, _ := read()
	if after["open"] != before["open"]-1 || after["total"] != before["total"] {
		t.Fatalf("after closing a blocker: %v, before %v", after, before)
	}
}
