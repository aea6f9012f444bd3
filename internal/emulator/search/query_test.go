package search

import (
	"slices"
	"testing"
)

func TestSearchTokenizer(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{`label:"status: triage" -label:wontfix "null pointer"`, []string{"label:status: triage", "-label:wontfix", "null pointer"}},
		{`(repo:a/b OR repo:c/d) is:open`, []string{"(", "repo:a/b", "OR", "repo:c/d", ")", "is:open"}},
		{`-(label:x) a-b`, []string{"-(", "label:x", ")", "a-b"}},
	} {
		var got []string
		for _, tok := range tokenize(tc.q) {
			s := tok.text
			if tok.paren != 0 {
				s = string(tok.paren)
			}
			if tok.neg {
				s = "-" + s
			}
			got = append(got, s)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.q, got, tc.want)
		}
	}
}
