package augment

import "testing"

func TestWithFieldAddsTheLastMemberAndKeepsTheRest(t *testing.T) {
	cases := []struct {
		text, want string
		ok         bool
	}{
		{`{"number":1,"head":{"sha":"a"}}`, `{"number":1,"head":{"sha":"a"},"ci":{"status":"passed"}}`, true},
		{"{\"number\":1}\n", `{"number":1,"ci":{"status":"passed"}}`, true},
		{`{}`, `{"ci":{"status":"passed"}}`, true},
		// An answer that already has ci is not overwritten, nor is one that
		// is not an object.
		{`{"ci":1}`, "", false},
		{`[1]`, "", false},
		{`{"number":1`, "", false},
	}
	for _, c := range cases {
		got, ok := withField(c.text, "ci", []byte(`{"status":"passed"}`))
		if got != c.want {
			t.Errorf("withField(%q) = %q, want %q", c.text, got, c.want)
		}
		if ok != c.ok {
			t.Errorf("withField(%q) ok = %v, want %v", c.text, ok, c.ok)
		}
	}
}

func TestCheckAcceptsTheRegistrysAugmentsOnTheirTools(t *testing.T) {
	for name, s := range registry {
		if err := Check(s.tool, []string{name}, "Operator's warning."); err != nil {
			t.Errorf("Check(%s, %s) = %v, want nil", s.tool, name, err)
		}
	}
}
