package tooldef

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
)

// Every prose field of an envelope passes Env.Redact before it is sent.
func TestErrorResultRedactsTheEnvelope(t *testing.T) {
	t.Parallel()
	const secret = "s3cret-value"
	redact := func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") }
	e := contract.Errorf(contract.CodeUpstreamUnavailable, "upstream said %s", secret).
		WithField("title", "quoted "+secret).
		WithRepair(contract.Repair{NextStep: "retry without " + secret, Alternative: "or " + secret})
	e.FollowUp = &contract.Repair{NextStep: "then " + secret, Alternative: "else " + secret}
	res := ErrorResult(&Env{Redact: redact}, Write, "ghg_1", e)
	body, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(body), secret) {
		t.Errorf("the secret reached the envelope: %s", body)
	}
	if got := strings.Count(string(body), "[redacted]"); got != 6 {
		t.Errorf("markers = %d, want 6 (%s)", got, body)
	}
}
