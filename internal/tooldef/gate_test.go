package tooldef

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// A gated field is listed and accepted only where its tool is served;
// elsewhere a call naming it is refused as an unknown field, with the
// repair that drops it, and the tool never runs.
func TestGatedFieldsFollowTheServedToolsets(t *testing.T) {
	gated := echo
	gated.Gated = map[string]string{"labels": "label_tool"}
	for _, served := range []bool{true, false} {
		env := &Env{Fingerprint: func() string { return "fp" }, Serves: func(ts string) bool { return served && ts == "label_tool" }}
		cs := connect(t, env, gated)
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		schema, _ := json.Marshal(list.Tools[0].InputSchema)
		if listed := strings.Contains(string(schema), `"labels"`); listed != served {
			t.Errorf("served=%v: labels listed=%v in %s", served, listed, schema)
		}
		res, out := call(t, cs, `{"owner":"acme","labels":["x"]}`)
		if served {
			if res.IsError || out["labels"] == nil {
				t.Errorf("served: labels refused or lost: %v", out)
			}
			continue
		}
		if !res.IsError || out["code"] != "invalid_field" {
			t.Fatalf("unserved: labels accepted: %v", out)
		}
		repair, _ := out["repair"].(map[string]any)
		args, _ := json.Marshal(repair["arguments"])
		if string(args) != `{"owner":"acme"}` {
			t.Errorf("unserved: repair arguments %s, want the call without labels", args)
		}
	}
}

func TestGateRefusesMistakes(t *testing.T) {
	in := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"a": {Type: "string"}, "b": {Type: "string"}}, Required: []string{"a"}}
	for _, g := range []map[string]string{{"nope": "x"}, {"a": "x"}, {"b": ""}} {
		if _, err := gate(in, g, nil); err == nil {
			t.Errorf("gate %v: no error", g)
		}
	}
	out, err := gate(in, map[string]string{"b": "x"}, func(string) bool { return false })
	if err != nil || len(out.Properties) != 1 || len(in.Properties) != 2 {
		t.Errorf("gate dropped %v, left the original with %d fields (err %v)", out.Properties, len(in.Properties), err)
	}
}

// A nested gated field is dropped from its object only, the objects on
// its path are copies, and a path through no object fails the build.
func TestGateNestedFields(t *testing.T) {
	changes := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"project": {Type: "object"}, "state": {Type: "string"}}}
	in := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"changes": changes}, Required: []string{"changes"}}
	out, err := gate(in, map[string]string{"changes.project": "board_tool"}, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Properties["changes"].Properties; len(got) != 1 || got["state"] == nil {
		t.Errorf("unserved: changes has %v, want state only", got)
	}
	if len(changes.Properties) != 2 {
		t.Errorf("the full schema lost a field: %v", changes.Properties)
	}
	if out, err = gate(in, map[string]string{"changes.project": "board_tool"}, func(string) bool { return true }); err != nil || len(out.Properties["changes"].Properties) != 2 {
		t.Errorf("served: changes %v (err %v)", out.Properties["changes"].Properties, err)
	}
	for _, g := range []string{"changes.nope", "changes.state.x", "nope.project"} {
		if _, err := gate(in, map[string]string{g: "board_tool"}, nil); err == nil {
			t.Errorf("gate %s: no error", g)
		}
	}
}
