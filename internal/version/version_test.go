package version

import "testing"

func TestBuildString(t *testing.T) {
	cases := []struct {
		b    Build
		want string
	}{
		{Build{Version: "dev"}, "dev"},
		{Build{Version: "v0.1.0", Commit: "0123456789abcdef0123", Date: "2026-11-30T12:00:00Z"}, "v0.1.0 (commit 0123456789ab, 2026-11-30T12:00:00Z)"},
		{Build{Version: "v0.1.0", Commit: "abc"}, "v0.1.0 (commit abc)"},
		{Build{Version: "v0.1.0", Date: "2026-11-30T12:00:00Z"}, "v0.1.0 (2026-11-30T12:00:00Z)"},
	}
	for _, c := range cases {
		if got := c.b.String(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.b, got, c.want)
		}
	}
}

// The linker's values win over whatever the toolchain recorded.
func TestInfoPrefersLinkerValues(t *testing.T) {
	oldV, oldC, oldD := Version, Commit, Date
	t.Cleanup(func() { Version, Commit, Date = oldV, oldC, oldD })
	Version, Commit, Date = "v9.9.9", "feedface", "2026-01-02T03:04:05Z"
	if got := Info(); got != (Build{Version: "v9.9.9", Commit: "feedface", Date: "2026-01-02T03:04:05Z"}) {
		t.Fatalf("Info() = %+v", got)
	}
}
