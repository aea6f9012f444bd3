package tooldef

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

type echoPreview struct {
	Owner string   `json:"owner"`
	Notes []string `json:"notes,omitempty"`
}

// Each kind of answer a tool gives validates against the schema it
// publishes for that kind: a result against output, a failure's
// envelope against error (settlement on a write's, none on a read's), a
// dry run against dry_run, preview included. The schemas are not
// vacuous: an envelope with the other mode's settlement fails them.
func TestEveryAnswerValidatesAgainstItsPublishedSchema(t *testing.T) {
	env := &Env{Fingerprint: func() string { return "fp" }}
	forecasting := echo
	forecasting.Preview = Forecasts(func(_ context.Context, in echoIn) (echoPreview, error) {
		return echoPreview{Owner: in.Owner}, nil
	})
	reading := echo
	reading.Mode = Read
	for _, c := range []struct {
		tool Tool[echoIn, echoOut]
		args string
		kind string
	}{
		{forecasting, `{"owner":"acme","labels":["x"]}`, "output"},
		{forecasting, `{"owner":"acme","size":0}`, "error"},
		{forecasting, `{"owner":"fail"}`, "error"},
		{forecasting, `{"owner":"acme","dry_run":true}`, "dry_run"},
		{echo, `{"owner":"acme","dry_run":true}`, "dry_run"},
		{reading, `{"owner":"acme"}`, "output"},
		{reading, `{"owner":"nobody"}`, "error"},
	} {
		p, err := c.tool.Schemas()
		if err != nil {
			t.Fatal(err)
		}
		res, sc := call(t, connect(t, env, c.tool), c.args)
		want := map[string]*jsonschema.Schema{"output": p.Output, "error": p.Error, "dry_run": p.DryRun}[c.kind]
		if res.IsError != (c.kind == "error") {
			t.Errorf("%s %s: isError %v, want a %s: %v", c.tool.Mode, c.args, res.IsError, c.kind, sc)
			continue
		}
		if err := validates(want, sc); err != nil {
			t.Errorf("%s %s: the %s %v does not validate against its schema: %v", c.tool.Mode, c.args, c.kind, sc, err)
		}
	}

	read, err := reading.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	write, err := echo.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	envelope := map[string]any{"code": "invalid_field", "message": "m", "temporary": false, "retry_after_ms": nil,
		"request_id": "ghg_1", "fingerprint": "fp"}
	if err := validates(read.Error, envelope); err != nil {
		t.Errorf("a read's envelope: %v", err)
	}
	if validates(write.Error, envelope) == nil {
		t.Error("a write's envelope without settlement validates")
	}
	envelope["settlement"] = "not_started"
	if validates(read.Error, envelope) == nil {
		t.Error("a read's envelope with a settlement validates")
	}
	// Only a write publishes dry_run and neutralized.
	if read.DryRun != nil {
		t.Errorf("read DryRun = %+v, want nil", read.DryRun)
	}
	if write.DryRun == nil {
		t.Errorf("write DryRun = nil, want the dry run's schema")
	}
	if write.Output.Properties[neutralizedField] == nil {
		t.Errorf("write output has no %s, want it", neutralizedField)
	}
	if read.Output.Properties[neutralizedField] != nil {
		t.Errorf("read output has %s, want none", neutralizedField)
	}
	if write.Input.Properties[dryRunField] == nil {
		t.Error("a write's published input lacks dry_run")
	}
}

func validates(s *jsonschema.Schema, v any) error {
	r, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(v)
	var plain any
	_ = json.Unmarshal(b, &plain)
	return r.Validate(plain)
}
