package rest

import (
	"slices"
	"testing"
)

// TestEveryRouteHasAnAppNeed: each served route says what it asks of an
// installation token, and the table names no route that is not served.
func TestEveryRouteHasAnAppNeed(t *testing.T) {
	var served []string
	for _, r := range (&api{}).routeTable() {
		key := r.method + " " + r.path
		served = append(served, key)
		if _, ok := appNeeds[key]; !ok {
			t.Errorf("%s has no entry in appNeeds", key)
		}
	}
	for key := range appNeeds {
		if !slices.Contains(served, key) {
			t.Errorf("appNeeds names %s, which is not served", key)
		}
	}
}
