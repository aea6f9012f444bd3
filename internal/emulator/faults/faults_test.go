package faults

import (
	"slices"
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	cases := []struct {
		in   string
		want Fault
	}{
		{"status:502@POST /repos/acme/widgets/issues", Fault{Kind: Status, Status: 502, Method: "POST", Path: "/repos/acme/widgets/issues"}},
		{"drop_after@post /repos/*x1", Fault{Kind: DropAfter, Method: "POST", Path: "/repos/*", Times: 1}},
		{"latency:200@*", Fault{Kind: Latency, LatencyMS: 200, Latency: 200 * time.Millisecond}},
		{"secondary_rate_limit@/search/issues", Fault{Kind: Secondary, Path: "/search/issues"}},
	}
	for _, c := range cases {
		got, err := Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"nonsense", "explode@*", "status@*", "status:99@*", "latency:x@*"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestFaultsMatchInOrderAndCountDown(t *testing.T) {
	var fs Table
	if err := fs.Add(Fault{Kind: Status, Status: 500, Method: "GET", Path: "/a", Times: 2}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Add(Fault{Kind: DropBefore, Path: "/a*"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		f := fs.Take("GET", "/a")
		if f == nil {
			t.Fatalf("take %d: no fault, want the counted Status one", i)
		}
		if f.Kind != Status {
			t.Fatalf("take %d: kind %v, want %v", i, f.Kind, Status)
		}
	}
	f := fs.Take("GET", "/a")
	if f == nil {
		t.Fatalf("after the counted fault is spent: no fault, want the next (DropBefore)")
	}
	if f.Kind != DropBefore {
		t.Fatalf("after the counted fault is spent: kind %v, want %v", f.Kind, DropBefore)
	}
	if f := fs.Take("GET", "/b"); f != nil {
		t.Fatalf("Take(GET /b) = %+v, want nil (no fault for that path)", f)
	}
	fs.Clear()
	if f := fs.Take("GET", "/a"); f != nil {
		t.Fatal("clear left a fault")
	}
}

// A fault with After lets that many matching requests through, then hits
// Times of them: a tool's read and its mutation share /graphql.
func TestFaultAfterLetsRequestsThroughFirst(t *testing.T) {
	var fs Table
	if err := fs.Add(Fault{Kind: DropAfter, Method: "POST", Path: "/graphql", After: 2, Times: 1}); err != nil {
		t.Fatal(err)
	}
	var got []bool
	for range 4 {
		got = append(got, fs.Take("POST", "/graphql") != nil)
	}
	if want := []bool{false, false, true, false}; !slices.Equal(got, want) {
		t.Fatalf("hits %v, want %v", got, want)
	}
	if err := fs.Add(Fault{Kind: DropAfter, After: -1}); err == nil {
		t.Fatal("a negative after was accepted")
	}
}
