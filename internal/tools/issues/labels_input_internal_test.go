package issues

import (
	"encoding/json"
	"testing"
)

// A labels edit marshalled again (repair and follow-up arguments) says
// what it said: create_missing keeps its colour, an absent one stays
// absent, and swap.to round-trips as a list.
func TestLabelsEditRoundTrips(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"add":["x"],"create_missing":"#d73a4a"}`, `{"add":["x"],"create_missing":"#d73a4a"}`},
		{`{"add":["x"],"create_missing":true}`, `{"add":["x"],"create_missing":true}`},
		{`{"add":["x"],"create_missing":false}`, `{"add":["x"]}`},
		{`{"add":["x"]}`, `{"add":["x"]}`},
		{`{"swap":{"prefix":"s: ","to":"s: a"}}`, `{"swap":{"prefix":"s: ","to":["s: a"]}}`},
		{`{"swap":{"prefix":"s: ","to":["s: a","s: b"]}}`, `{"swap":{"prefix":"s: ","to":["s: a","s: b"]}}`},
	} {
		var e LabelsEdit
		if err := json.Unmarshal([]byte(tc.in), &e); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if string(b) != tc.want {
			t.Errorf("%s marshals as %s, want %s", tc.in, b, tc.want)
		}
	}
}

// The colour sent to GitHub: six hex digits without "#", in the case
// given; true is GitHub's grey.
func TestCreateMissingColorAsSent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c    CreateMissing
		want string
	}{
		{CreateMissing{On: true}, "ededed"},
		{CreateMissing{On: true, Color: "#d73a4a"}, "d73a4a"},
		{CreateMissing{On: true, Color: "0E8A16"}, "0E8A16"},
	} {
		if got := tc.c.color(); got != tc.want {
			t.Errorf("%+v: color = %q, want %q", tc.c, got, tc.want)
		}
	}
}
