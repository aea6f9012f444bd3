package jsondepth_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/jsondepth"
)

func TestWithin(t *testing.T) {
	t.Parallel()
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		text string
		want bool
	}{
		{`{"title":"x"}`, true},
		{nest(jsondepth.Max), true},
		{nest(jsondepth.Max + 1), false},
		{`{"a":` + strings.Repeat(`{"b":`, jsondepth.Max) + `1` + strings.Repeat("}", jsondepth.Max+1), false},
		// Brackets in strings are text, escaped quotes do not end them.
		{`{"title":"` + strings.Repeat("[", 5000) + `"}`, true},
		{`["\"` + strings.Repeat("[", 5000) + `"]`, true},
		{`["\\"` + strings.Repeat(",[", jsondepth.Max) + `]`, false},
		{strings.Repeat("[", 3<<20), false},
	} {
		if got := jsondepth.Within([]byte(c.text)); got != c.want {
			t.Errorf("Within(%.40q…, %d bytes) = %v, want %v", c.text, len(c.text), got, c.want)
		}
	}
}
