package main

import "testing"

// A tagged release fails when the checked-in server.json names another
// version; a snapshot (whose version is the commit's) does not.
func TestVersionsAgree(t *testing.T) {
	t.Parallel()
	cases := []struct {
		checkedIn, release string
		ok                 bool
	}{
		{"1.2.0", "1.2.0", true},
		{"1.1.0", "1.2.0", false},
		{"1.2.0", "1.2.0-rc.1", false},
		{"0.1.0", "0.0.0-SNAPSHOT-abc1234", true},
	}
	for _, c := range cases {
		err := versionsAgree(c.checkedIn, c.release)
		if (err == nil) != c.ok {
			t.Errorf("versionsAgree(%q, %q) = %v, want ok=%v", c.checkedIn, c.release, err, c.ok)
		}
	}
}
