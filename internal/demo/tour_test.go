package demo

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestTourRunsAndShowsEachPoint(t *testing.T) {
	var out bytes.Buffer
	if err := Tour(context.Background(), &out); err != nil {
		t.Fatalf("tour failed: %v\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{"github_get_overview", "github_search_issues", `"code":"conflict"`, `"replayed":true`, `"code":"rate_limited"`, `"retry_after_ms":`, "demo complete"} {
		if !strings.Contains(text, want) {
			t.Errorf("the tour output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(text)
	}
}
