package tooldef

import "testing"

func TestCompact(t *testing.T) {
	type inner struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}
	type outer struct {
		Body   string         `json:"body"`
		Null   *string        `json:"null"`
		Empty  string         `json:"empty"`
		Inner  inner          `json:"inner"`
		Rows   []inner        `json:"rows"`
		Count  int64          `json:"count"`
		Retry  *int64         `json:"retry_after_ms"`
		Extras map[string]any `json:"extras"`
	}
	got, err := Compact(outer{Body: "a<b && c", Rows: []inner{{}, {A: "x"}}, Count: 9007199254740993}, "retry_after_ms")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"body":"a<b && c","count":9007199254740993,"retry_after_ms":null,"rows":[{},{"a":"x"}]}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// Kept paths reach into objects and array elements: an empty list stays
// [], an empty object or string becomes null, and other empties still go.
func TestCompactKeepsNestedPaths(t *testing.T) {
	type row struct {
		Labels    []string `json:"labels"`
		Milestone *struct {
			N int `json:"n"`
		} `json:"milestone"`
		Body string `json:"body"`
	}
	type out struct {
		Issue row   `json:"issue"`
		Items []row `json:"items"`
	}
	got, err := Compact(out{Issue: row{Labels: []string{}}, Items: []row{{}, {Labels: []string{"bug"}}}},
		"issue.labels", "issue.milestone", "items[].labels", "items[].milestone")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"issue":{"labels":[],"milestone":null},"items":[{"labels":null,"milestone":null},{"labels":["bug"],"milestone":null}]}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
