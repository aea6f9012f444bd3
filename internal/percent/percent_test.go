package percent

import "testing"

func TestDecode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"%67ithub.com", "github.com"},
		{"repo%3Aa%2Fb", "repo:a/b"},
		{"%2e%2E", ".."},
		{"100%", "100%"},
		{"%zz%4", "%zz%4"},
		{"%%41", "%A"},
		{"%C2%AD", "\u00ad"},
	} {
		if got := Decode(c.in); got != c.want {
			t.Errorf("Decode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
