package searchquery

import (
	"slices"
	"testing"
)

// Every qualifier that could widen a search is seen, however it is glued
// to what surrounds it.
func TestRefsSeeEveryScopeThatCouldWiden(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string // owners named, in order
	}{
		{`is:open repo:acme/widgets`, []string{"acme"}},
		{`-repo:fleet/y is:open`, nil},
		{`NOT repo:fleet/y`, []string{"fleet"}},
		{`label:"a b"repo:fleet/y`, []string{"fleet"}},
		{`"x"repo:fleet/y`, []string{"fleet"}},
		{`\"x repo:fleet/y \"`, []string{"fleet"}},
		{`-(repo:fleet/y)`, []string{"fleet"}},
		{"is:open\u200brepo:fleet/y", []string{"fleet"}},
		{"is:open\u2060org:fleet", []string{"fleet"}},
		{`(repo:acme/widgets OR repo:acme/gadgets)`, []string{"acme", "acme"}},
		{`"fix the parser" label:bug`, nil},
		{`USER:"Alice"`, []string{"Alice"}},
		{`repo:"acme/widgets"`, []string{"acme"}},
		{`label:"user:alice" OR -label:x`, nil},
		{`label:"x"org:fleet`, []string{"fleet"}},
	} {
		var got []string
		for _, r := range Refs(Tokens(c.query)) {
			got = append(got, r.Owner)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Refs(%q) owners = %q, want %q", c.query, got, c.want)
		}
	}
}
