package rest_test

import (
	"encoding/json"
	"fmt"
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
		if r.status != http.StatusOK {
			t.Fatalf("PATCH %s %s: status %d, want %d: %s", url, body, r.status, http.StatusOK, r.body)
		}
		if err := json.Unmarshal(r.body, &is); err != nil {
			t.Fatalf("PATCH %s %s: decode %s: %v", url, body, r.body, err)
		}
		return is.State, is.StateReason
	}
	np := emulator.DemoNotPlannedIssue
	wantClosed := func(what string, state, reason string) {
		t.Helper()
		if state != "closed" {
			t.Fatalf("%s: state %q, want %q", what, state, "closed")
		}
		if reason != "not_planned" {
			t.Fatalf("%s: state_reason %q, want %q", what, reason, "not_planned")
		}
	}
	s, r := patch(np, `{"state":"closed"}`)
	wantClosed(fmt.Sprintf("closing closed #%d", np), s, r)
	s, r = patch(np, `{"state":"closed","state_reason":"duplicate"}`)
	wantClosed(fmt.Sprintf("re-closing #%d as duplicate", np), s, r)
	s, r = patch(np, `{"state_reason":"completed"}`)
	wantClosed(fmt.Sprintf("a reason alone on #%d", np), s, r)
	open := emulator.DemoUntriagedFrom
	s, r = patch(open, `{"state":"closed","state_reason":"not_planned"}`)
	wantClosed(fmt.Sprintf("closing open #%d as not planned", open), s, r)
}
