package tooldef

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/google/jsonschema-go/jsonschema"
)

type outlineRow struct {
	Number int      `json:"number"`
	Count  int      `json:"count,omitempty" jsonschema:"comment count"`
	Labels []string `json:"labels"`
	Ref    *struct {
		N int `json:"n"`
	} `json:"ref,omitempty" jsonschema:"what it points at"`
}

type outlineOut struct {
	Row   outlineRow   `json:"row"`
	Rows  []outlineRow `json:"rows"`
	Plain string       `json:"plain"`
}

func publishedJSON(t *testing.T, outline ...string) string {
	t.Helper()
	full, err := schemaFor(reflect.TypeFor[outlineOut]())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publishedOutput(full, outline, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Without an outline, nested objects are any object; an outlined object
// lists its fields one level down with their descriptions, and a field
// nested deeper stays any object, described.
func TestPublishedOutputOutlinesOneLevel(t *testing.T) {
	if got, want := publishedJSON(t), `{"type":"object","properties":{"plain":{"type":"string"},"row":{"type":"object"},"rows":{"type":"array"}}}`; got != want {
		t.Errorf("no outline:\n got %s\nwant %s", got, want)
	}
	got := publishedJSON(t, "row", "rows[].count")
	for _, want := range []string{
		`"row":{"type":"object","properties":{"count":{"type":"integer","description":"comment count"},"labels":{"type":"array","items":{"type":"string"}},"number":{"type":"integer"},"ref":{"type":"object","description":"what it points at"}}}`,
		`"rows":{"type":"array","items":{"type":"object","properties":{"count":{"type":"integer","description":"comment count"}}}}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("outline row, rows[].count:\n got %s\nwant it to contain %s", got, want)
		}
	}
}

// A path that names no object field is refused when the tool is built, so
// a renamed field cannot silently drop out of tools/list.
func TestPublishedOutputRefusesBadOutlines(t *testing.T) {
	full, err := schemaFor(reflect.TypeFor[outlineOut]())
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"missing", "plain", "row.missing", "row[]", "rows.count"} {
		if _, err := publishedOutput(full, []string{path}, nil); err == nil {
			t.Errorf("outline %q was accepted", path)
		}
	}
}

type pagedOut struct {
	Items              []string `json:"items"`
	Kind               string   `json:"kind"`
	HasMore            bool     `json:"has_more"`
	NextCursor         string   `json:"next_cursor,omitempty"`
	CommentsHasMore    bool     `json:"comments_has_more,omitempty"`
	CommentsNextCursor string   `json:"comments_next_cursor,omitempty"`
}

// Paging fields and the fields a tool unlists are left to the full
// schema; an unlisted name that is not an output field is refused, so a
// rename cannot leave it behind.
func TestPublishedOutputLeavesPagingAndUnlistedFields(t *testing.T) {
	full, err := schemaFor(reflect.TypeFor[pagedOut]())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publishedOutput(full, nil, []string{"kind"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(pub)
	if got, want := string(b), `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}}}}`; got != want {
		t.Errorf("published\n got %s\nwant %s", got, want)
	}
	if len(full.Properties) != 6 {
		t.Errorf("the full schema lost fields: %v", propertyNames(full))
	}
	if _, err := publishedOutput(full, nil, []string{"missing"}); err == nil {
		t.Error("unlisting a field the output does not have was accepted")
	}
}

type defaultsIn struct {
	State  string `json:"state,omitempty" jsonschema:"default open"`
	Size   int    `json:"size,omitempty" jsonschema:"default 30"`
	All    bool   `json:"all,omitempty" jsonschema:"default false"`
	Owner  string `json:"owner,omitempty" jsonschema:"default: the caller"`
	Nested *struct {
		Add []string `json:"add,omitempty"`
	} `json:"nested,omitempty" jsonschema:"absent parts: kept"`
}

// A tag that only names the default becomes the default keyword; prose
// stays prose; the arguments and a nested object are listed open (and
// checked closed).
func TestPublishedInputDefaultsAndClosure(t *testing.T) {
	tool := Tool[defaultsIn, outlineOut]{Name: "t", Input: func(s *jsonschema.Schema) {
		s.Properties["state"].Enum = []any{"open", "closed"}
	}}
	in, err := tool.inputSchema()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(publishedInput(in))
	got := string(b)
	for _, want := range []string{
		`"state":{"default":"open","enum":["open","closed"]}`, // the members say string
		`"size":{"type":"integer","default":30}`,
		`"all":{"type":"boolean"}`, // false goes unlisted: the instructions say it once
		`"owner":{"type":"string","description":"default: the caller"}`,
		`"nested":{"type":"object","properties":{"add":{"type":"array","items":{"type":"string"}}},"description":"absent parts: kept"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("published input:\n got %s\nwant it to contain %s", got, want)
		}
	}
	if strings.Contains(got, "additionalProperties") {
		t.Errorf("published input is listed closed: %s", got)
	}
	// The full schema keeps the enum's type, which the listing leaves out.
	if typ := in.Properties["state"].Type; typ != "string" {
		t.Errorf("full schema's type for state = %q, want string", typ)
	}
	// The full schema keeps the boolean's default, which the listing leaves out.
	if d := string(in.Properties["all"].Default); d != "false" {
		t.Errorf("full schema's default for all = %q, want false", d)
	}
	// The full schema, which calls are checked against, still closes both.
	if in.AdditionalProperties == nil {
		t.Error("the full input schema's AdditionalProperties = nil, want it closed")
	}
	if in.Properties["nested"].AdditionalProperties == nil {
		t.Error("the full input schema's nested AdditionalProperties = nil, want it closed")
	}
}

// A default the field cannot hold is a mistake in the tag, refused when
// the schema is built.
func TestDefaultTagsMustFit(t *testing.T) {
	type badEnum struct {
		State string `json:"state,omitempty" jsonschema:"default shut"`
	}
	type badInt struct {
		Size int `json:"size,omitempty" jsonschema:"default many"`
	}
	enum := Tool[badEnum, outlineOut]{Name: "e", Input: func(s *jsonschema.Schema) { s.Properties["state"].Enum = []any{"open"} }}
	if _, err := enum.inputSchema(); err == nil {
		t.Error("default shut on an enum of open was accepted")
	}
	if _, err := (Tool[badInt, outlineOut]{Name: "i"}).inputSchema(); err == nil {
		t.Error("default many on an integer was accepted")
	}
}

// A brief field is listed as an object and its description; a call is
// still checked against the full schema, so a stray nested field is
// refused by name, with a repair that drops it.
func TestBriefFieldIsListedShortAndStillChecked(t *testing.T) {
	tool := Tool[briefIn, echoOut]{Name: "test_echo", Mode: Write, Brief: []string{"edit"},
		Run: func(ctx context.Context, in briefIn) (echoOut, error) {
			return echoOut{Owner: strings.Join(in.Edit.Add, ",")}, nil
		}}
	cs := connect(t, &Env{}, tool)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(list.Tools[0].InputSchema)
	var listed struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(b, &listed); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"type": "object", "description": "another tool's add"}; !jsonEqual(listed.Properties["edit"], want) {
		t.Fatalf("listed input %s\nwant edit as %v", b, want)
	}
	res, sc := call(t, cs, `{"edit":{"add":["a"],"stray":1}}`)
	wantCode(t, "stray nested field", res, sc, "invalid_field")
	if field := sc["details"].(map[string]any)["field"]; field != "edit.stray" {
		t.Fatalf("stray nested field: details.field = %v, want edit.stray", field)
	}
	if args, want := sc["repair"].(map[string]any)["arguments"], map[string]any{"edit": map[string]any{"add": []any{"a"}}}; !jsonEqual(args, want) {
		t.Fatalf("repair arguments = %v, want %v", args, want)
	}
	res, sc = call(t, cs, `{"edit":{"add":["a","b"]}}`)
	if res.IsError {
		t.Fatalf("valid call answered an error: %v", sc)
	}
	if sc["owner"] != "a,b" {
		t.Fatalf("valid call: owner = %v, want a,b", sc["owner"])
	}
}

type nested struct {
	Add []string `json:"add,omitempty"`
}

type briefIn struct {
	Edit nested `json:"edit" jsonschema:"another tool's add"`
}

func (in *briefIn) Writes() []policy.Write {
	return []policy.Write{{Kind: policy.KindLabel, Target: policy.Target{Owner: "o", Repo: "r", Number: 1}, LabelsAdded: in.Edit.Add}}
}

type cappedIn struct {
	Key   string   `json:"key,omitempty"`
	Kinds []string `json:"kinds,omitempty"`
	Level int      `json:"level,omitempty"`
}

// A string's length cap and a string enum's type are left out of the
// listing and kept in the schema arguments are checked against; an enum
// of numbers keeps its type, and an output whose every field is unlisted
// has no empty properties map.
func TestPublishedSchemasDropWhatTheyRepeat(t *testing.T) {
	tool := Tool[cappedIn, struct {
		N int `json:"n"`
	}]{Name: "t", Input: func(s *jsonschema.Schema) {
		s.Properties["key"].MaxLength = ptr(200)
		s.Properties["kinds"].Items.Enum = []any{"a", "b"}
		s.Properties["level"].Enum = []any{1, 2}
	}}
	in, err := tool.inputSchema()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(publishedInput(in))
	got := string(b)
	for _, want := range []string{
		`"key":{"type":"string"}`,
		`"kinds":{"type":"array","items":{"enum":["a","b"]}}`,
		`"level":{"type":"integer","enum":[1,2]}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("published input:\n got %s\nwant it to contain %s", got, want)
		}
	}
	if in.Properties["key"].MaxLength == nil {
		t.Errorf("the full schema's key MaxLength = nil, want it kept: %+v", in.Properties["key"])
	}
	if typ := in.Properties["kinds"].Items.Type; typ != "string" {
		t.Errorf("the full schema's kinds items type = %q, want string", typ)
	}
	full, err := tool.resultSchema()
	if err != nil {
		t.Fatal(err)
	}
	out, err := publishedOutput(full, nil, []string{"n"})
	if err != nil {
		t.Fatal(err)
	}
	ob, _ := json.Marshal(out)
	if got, want := string(ob), `{"type":"object"}`; got != want {
		t.Errorf("published output with every field unlisted = %s, want %s", got, want)
	}
}
