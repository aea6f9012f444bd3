package rest_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// GitHub's description of PATCH /repos/{owner}/{repo}/issues/{n} says of
// state_reason: "Ignored unless state is changed". Closing a closed issue,
// with or without a reason, leaves its reason; closing an open one applies
// it.
func TestStateReasonOnlyWithAStateChange(t *testing.T) {
	base := serveDemo(t)
	patch := func(n int, body string) (state, reason string) {
		t.Helper()
		url := base + "/repos/acme/widgets/issues/" + strconv.Itoa(n)
		r := send(t, http.MethodPatch, url, emulator.DemoTokenAlice, json.RawMessage(body))
		var is struct {
			State       string `json:"state"`
			StateReason string `json:"state_reason"`
		}
		if r.status != http.StatusOK || json.Unmarshal(r.body, &is) != nil {
			t.Fatalf("PATCH %s %s: %d", url, body, r.status)
		}
		return is.State, is.StateReason
	}
	np := emulator.DemoNotPlannedIssue
	if s, r := patch(np, `{"state":"closed"}`); s != "closed" || r != "not_planned" {
		t.Fatalf("closing closed #%d: %s %s", np, s, r)
	}
	if s, r := patch(np, `{"state":"closed","state_reason":"duplicate"}`); s != "closed" || r != "not_planned" {
		t.Fatalf("re-closing #%d as duplicate: %s %s", np, s, r)
	}
	if s, r := patch(np, `{"state_reason":"completed"}`); s != "closed" || r != "not_planned" {
		t.Fatalf("a reason alone on #%d: %s %s", np, s, r)
	}
	open := emulator.DemoUntriagedFrom
	if s, r := patch(open, `{"state":"closed","state_reason":"not_planned"}`); s != "closed" || r != "not_planned" {
		t.Fatalf("closing open #%d as not planned: %s %s", open, s, r)
	}
}
