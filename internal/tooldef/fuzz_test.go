package tooldef

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzArguments feeds arbitrary bytes to the argument checker and decoder
// of a tool with nested, enum and ranged fields: they must never panic,
// and whatever the checker accepts must decode into the typed input.
func FuzzArguments(f *testing.F) {
	def, _, err := echo.Build(&Env{})
	if err != nil {
		f.Fatal(err)
	}
	in, err := schemaFor(reflect.TypeFor[echoIn]())
	if err != nil {
		f.Fatal(err)
	}
	requireNonEmpty(in)
	echo.Input(in)
	check, err := newValidator(in)
	if err != nil {
		f.Fatal(err)
	}
	_ = def
	for _, seed := range []string{`{}`, `{"owner":"a"}`, `{"owner":"a","state":"open","size":5,"labels":["x"],"nested":{"add":["y"]}}`,
		`{"owner":1}`, `[]`, `null`, ``, `{"owner":"a","nested":null}`, `{"owner":"a","size":1e400}`, `{"owner":"\u0000"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		normalized, fe := check.checkNormalized(raw)
		if fe != nil {
			if fe.Reason == "" {
				t.Fatalf("rejection without a reason for %q", raw)
			}
			return
		}
		var v echoIn
		if len(normalized) > 0 && string(normalized) != "null" {
			if err := json.Unmarshal(normalized, &v); err != nil {
				t.Fatalf("accepted %q but it does not decode: %v", raw, err)
			}
		}
		if v.Owner == "" && json.Valid(raw) {
			t.Fatalf("accepted %q without the required owner", raw)
		}
	})
}
