package emulator

import (
	"reflect"
	"strings"
	"testing"
)

// A field registered twice is remembered, not served twice and not a
// panic; the registry as built has none.
func TestGraphQLResolverRegisteredTwiceIsReported(t *testing.T) {
	r := &resolvers{fields: map[string]fieldResolver{}, types: map[reflect.Type]func(any) string{}}
	one := func(*gqlContext, root) (any, error) { return "one", nil }
	resolve(r, "Query.answer", one)
	resolve(r, "Query.answer", one)
	resolve(r, "Query.other", one)
	if got := strings.Join(r.twice, ","); got != "Query.answer" {
		t.Fatalf("twice = %q, want Query.answer", got)
	}
	if len(r.fields) != 2 {
		t.Fatalf("%d fields registered, want 2", len(r.fields))
	}
	if _, err := newResolvers(); err != nil {
		t.Fatalf("the emulator's own registry: %v", err)
	}
}
