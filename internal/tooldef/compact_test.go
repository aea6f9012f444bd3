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
