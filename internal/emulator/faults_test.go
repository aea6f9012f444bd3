package emulator

import (
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	cases := []struct {
		in   string
		want Fault
	}{
		{"status:502@POST /repos/acme/widgets/issues", Fault{Kind: FaultStatus, Status: 502, Method: "POST", Path: "/repos/acme/widgets/issues"}},
		{"drop_after@post /repos/*x1", Fault{Kind: FaultDropAfter, Method: "POST", Path: "/repos/*", Times: 1}},
		{"latency:200@*", Fault{Kind: FaultLatency, LatencyMS: 200, Latency: 200 * time.Millisecond}},
		{"secondary_rate_limit@/search/issues", Fault{Kind: FaultSecondary, Path: "/search/issues"}},
	}
	for _, c := range cases {
		got, err := ParseFault(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"nonsense", "explode@*", "status@*", "status:99@*", "latency:x@*"} {
		if _, err := ParseFault(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestFaultsMatchInOrderAndCountDown(t *testing.T) {
	var fs Faults
	if err := fs.Add(Fault{Kind: FaultStatus, Status: 500, Method: "GET", Path: "/a", Times: 2}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Add(Fault{Kind: FaultDropBefore, Path: "/a*"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if f := fs.take("GET", "/a"); f == nil || f.Kind != FaultStatus {
			t.Fatalf("take %d: %+v", i, f)
		}
	}
	if f := fs.take("GET", "/a"); f == nil || f.Kind != FaultDropBefore {
		t.Fatalf("after the counted fault is spent the next should match, got %+v", f)
	}
	if f := fs.take("GET", "/b"); f != nil {
		t.Fatalf("unrelated path matched %+v", f)
	}
	fs.Clear()
	if f := fs.take("GET", "/a"); f != nil {
		t.Fatal("clear left a fault")
	}
}
