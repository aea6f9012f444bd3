package github

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecode holds decodeJSON and validJSON to encoding/json's answers:
// the same bodies valid, the same bodies refused, the same values, for
// untyped JSON and for the records the hot paths decode into.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"number":7,"title":"Legend overlaps","user":{"login":"alice"},"labels":[{"name":"bug"}],"created_at":"2024-01-02T03:04:05Z"}`,
		`[{"id":1,"body":"line\nnext \u00e9 \ud83d\ude00","user":{"login":"bob"}}]`,
		"{\"title\":\"a\xffb\"}", `{"title":"\ud800 lone"}`, `{"number":1e3}`, `{"number":1.5}`,
		`{"number":99999999999999999999}`, `{"title":null,"labels":null}`, `{"TITLE":"case"}`,
		`{"title":"a","title":"b"}`, `{"title":"x"} trailing`, `{"title":"x",}`, `[1,]`, `01`, `-0`, ` true `,
		`{"created_at":"not a time"}`, `{"number":"7"}`, `{"labels":[1]}`, `"\u00"`, `{"a":[{"b":null}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", b, got, want)
		}
		sameDecode[any](t, b)
		sameDecode[IssueRowRecord](t, b)
		sameDecode[[]*CommentRow](t, b)
	})
}

// sameDecode fails t unless decodeJSON and encoding/json.Unmarshal both
// refuse b, or both decode it to the same T.
func sameDecode[T any](t *testing.T, b []byte) {
	t.Helper()
	var got, want T
	gerr, werr := decodeJSON(b, &got), json.Unmarshal(b, &want)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("decoding %q into %T: decodeJSON error %v, encoding/json error %v", b, want, gerr, werr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("decoding %q into %T:\n decodeJSON    %#v\n encoding/json %#v", b, want, got, want)
	}
}
