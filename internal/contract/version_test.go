package contract

import "testing"

func TestIsVersion(t *testing.T) {
	if v := Version(struct{ A int }{1}); !IsVersion(v) {
		t.Fatalf("%s is not a version", v)
	}
	for _, bad := range []string{"", "v1.", "v1.garbage", "v2.AAAAAAAAAAAAAAAA", "v1.AAAAAAAAAAAAAAA!", "v1.AAAAAAAAAAAAAAAAAA"} {
		if IsVersion(bad) {
			t.Errorf("%q taken for a version", bad)
		}
	}
}
