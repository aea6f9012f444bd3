package graphql

import (
	"strings"
	"testing"
)

// TestEveryMutationHasAnAppNeed: each served mutation says what it asks of
// an installation token, and the table names no mutation that is not
// served.
func TestEveryMutationHasAnAppNeed(t *testing.T) {
	r, err := newResolvers()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for key := range r.fields {
		name, ok := strings.CutPrefix(key, "Mutation.")
		if !ok {
			continue
		}
		served[name] = true
		if _, ok := mutationNeeds[name]; !ok {
			t.Errorf("mutation %s has no entry in mutationNeeds", name)
		}
	}
	for name := range mutationNeeds {
		if !served[name] {
			t.Errorf("mutationNeeds names %s, which is not served", name)
		}
	}
}
