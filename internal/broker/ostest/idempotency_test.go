package ostest

import (
	"encoding/json"
	"testing"
)

// Two agent users on one broker, whose calls go out on one route's
// credential, use the same idempotency key: each key is its uid's own, so
// both creates happen, neither is handed the other's issue, and neither
// learns the other used the key.
func TestBrokerIdempotencyKeysAreEachAgentsOwn(t *testing.T) {
	requireRoot(t)
	d := provision(t)
	other := "ggag4" + randomHex(t, 4)
	addUser(t, other)
	run(t, nil, "usermod", "-a", "-G", d.clients, other)
	d.startBroker(t)

	create := func(user, title, key string) (int, bool, string) {
		t.Helper()
		isErr, raw := d.agentCall(t, user, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": title, "idempotency_key": key})
		var res struct {
			StructuredContent struct {
				Code  string `json:"code"`
				Issue struct {
					Number int `json:"number"`
				} `json:"issue"`
				Replayed bool `json:"replayed"`
			} `json:"structuredContent"`
		}
		if err := json.Unmarshal([]byte(raw), &res); err != nil {
			t.Fatalf("%s: %v: %s", user, err, raw)
		}
		if isErr {
			return 0, false, res.StructuredContent.Code
		}
		return res.StructuredContent.Issue.Number, res.StructuredContent.Replayed, ""
	}
	first, _, code := create(d.agent, "Disk full", "k-agents")
	if code != "" {
		t.Fatalf("%s's create refused: %s", d.agent, code)
	}
	second, replayed, code := create(other, "Disk full", "k-agents")
	if code != "" {
		t.Fatalf("%s's create refused: %s", other, code)
	}
	if second == first {
		t.Errorf("%s's create returned %s's issue #%d, want one of its own", other, d.agent, first)
	}
	if replayed {
		t.Errorf("%s's create was replayed from %s's key", other, d.agent)
	}
	if _, _, code := create(other, "Not the same request", "k-agents-2"); code != "" {
		t.Fatalf("%s's create refused: %s", other, code)
	}
	if _, _, code := create(d.agent, "Another request", "k-agents-2"); code != "" {
		t.Errorf("%s's create under a key only %s used: %s, want created", d.agent, other, code)
	}
	again, replayed, _ := create(d.agent, "Disk full", "k-agents")
	if again != first {
		t.Errorf("%s's repeat = #%d, want #%d", d.agent, again, first)
	}
	if !replayed {
		t.Errorf("%s's repeat was not replayed", d.agent)
	}
}
