package tooldef

import (
	"encoding/json"
	"reflect"
	"strings"
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

// FuzzCompact holds the single-pass Compact to compactRef on arbitrary
// JSON, handed over raw (as a MarshalJSON may, in any form) and decoded
// into a tree (as the encoder writes it), with arbitrary keep paths:
// both fail or both give the same bytes.
func FuzzCompact(f *testing.F) {
	for _, seed := range []struct{ raw, keep string }{
		{`{}`, ""}, {`{"b":"","a":[{}],"c":null}`, "a"}, {`{"a":{"b":[]}}`, "a.b"}, {`[{"k":""},[],""]`, "[].k"},
		{`{"a":1,"a":""}`, "a"}, {` { "\u0062" : "\u2028\/<&>" } `, ""}, {`[1e21,-0,12345678901234567890]`, ""},
		{`{"x":{"y":{"z":{}}}}`, "x.y,x.y.z"}, {"\"\xff\"", ""}, {`{"é":1,"\u00e9":""}`, "é"},
	} {
		f.Add([]byte(seed.raw), seed.keep)
	}
	f.Fuzz(func(t *testing.T, raw []byte, keepList string) {
		var keep []string
		if keepList != "" {
			keep = strings.Split(keepList, ",")
		}
		checkCompactSame(t, json.RawMessage(raw), keep)
		var tree any
		if json.Unmarshal(raw, &tree) == nil {
			checkCompactSame(t, tree, keep)
		}
	})
}
