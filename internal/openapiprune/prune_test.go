package openapiprune

import (
	"encoding/json"
	"strings"
	"testing"
)

const tiny = `{
 "openapi": "3.0.3",
 "info": {"title": "T", "version": "1", "description": "prose", "x-github-plan": "api.github.com"},
 "servers": [{"url": "https://api.github.com"}],
 "paths": {
  "/labels/{name}": {
   "get": {
    "summary": "Get a label", "description": "prose", "operationId": "get-label",
    "externalDocs": {"url": "https://docs.github.com"}, "x-github": {"category": "issues"},
    "parameters": [{"$ref": "#/components/parameters/name"}],
    "responses": {
     "200": {"description": "Response", "content": {"application/json": {
      "schema": {"$ref": "#/components/schemas/label"},
      "examples": {"default": {"$ref": "#/components/examples/label"}}}}},
     "404": {"$ref": "#/components/responses/not_found"}
    }
   },
   "delete": {"responses": {"204": {"description": "Response"}}}
  },
  "/unused": {"get": {"responses": {"200": {"description": "x"}}}}
 },
 "components": {
  "parameters": {"name": {"name": "name", "in": "path", "required": true, "description": "prose", "schema": {"type": "string"}}},
  "schemas": {
   "label": {"title": "Label", "type": "object", "description": "prose", "example": {"name": "bug"},
    "properties": {
     "description": {"type": "string", "nullable": true, "description": "prose"},
     "name": {"type": "string", "enum": ["bug", "x-bug"], "default": "bug"},
     "owner": {"$ref": "#/components/schemas/user"}
    }},
   "user": {"type": "object", "properties": {"login": {"type": "string"}}},
   "unused": {"type": "string"},
   "basic-error": {"type": "object", "properties": {"message": {"type": "string"}}}
  },
  "responses": {"not_found": {"description": "Resource not found", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/basic-error"}}}}},
  "examples": {"label": {"value": {"name": "bug"}}}
 }
}`

func TestPruneKeepsWhatRoutesNeed(t *testing.T) {
	out, err := Prune([]byte(tiny), []string{"GET /labels/{name}"}, Source{Package: "@octokit/openapi", Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Info       map[string]any                       `json:"info"`
		Paths      map[string]map[string]map[string]any `json:"paths"`
		Components map[string]map[string]any            `json:"components"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Info["x-source"]; got != "@octokit/openapi@1.2.3" {
		t.Errorf("info.x-source = %v, want @octokit/openapi@1.2.3", got)
	}
	if got := doc.Info["x-github-plan"]; got != nil {
		t.Errorf("info.x-github-plan = %v, want it dropped", got)
	}
	if len(doc.Paths) != 1 {
		t.Errorf("%d paths (%v), want 1", len(doc.Paths), doc.Paths)
	}
	if doc.Paths["/labels/{name}"]["delete"] != nil {
		t.Errorf("paths./labels/{name}.delete kept, want only the operation asked for")
	}
	if doc.Paths["/labels/{name}"]["get"] == nil {
		t.Errorf("paths./labels/{name}.get dropped, want it kept (paths %v)", doc.Paths)
	}
	for _, section := range []string{"schemas", "parameters", "responses"} {
		if doc.Components[section] == nil {
			t.Errorf("components.%s dropped", section)
		}
	}
	if got := doc.Components["examples"]; got != nil {
		t.Errorf("components.examples = %v, want it dropped (unreferenced)", got)
	}
	if got := doc.Components["schemas"]["unused"]; got != nil {
		t.Errorf("components.schemas.unused = %v, want it dropped (unreferenced)", got)
	}
	for _, name := range []string{"user", "basic-error"} {
		if doc.Components["schemas"][name] == nil {
			t.Errorf("components.schemas.%s dropped, want it kept (referenced transitively)", name)
		}
	}
	s := string(out)
	for _, gone := range []string{"prose", "Get a label", `"externalDocs":`, `"x-github":`, `"example":`, `"title": "Label"`, "Resource not found"} {
		if strings.Contains(s, gone) {
			t.Errorf("pruned output still holds %q", gone)
		}
	}
	label := doc.Components["schemas"]["label"].(map[string]any)
	props := label["properties"].(map[string]any)
	if props["description"] == nil {
		t.Error("the property named description was dropped with the keyword")
	}
	name := props["name"].(map[string]any)
	if got := name["enum"].([]any); len(got) != 2 {
		t.Errorf("name.enum = %v, want its 2 values unchanged", got)
	}
	if got := name["default"]; got != "bug" {
		t.Errorf("name.default = %v, want bug unchanged", got)
	}
	resp := doc.Paths["/labels/{name}"]["get"]["responses"].(map[string]any)["200"].(map[string]any)
	// A response keeps its required description, emptied.
	if d, ok := resp["description"]; !ok {
		t.Errorf("the 200 response has no description, want an empty one (%v)", resp)
	} else if d != "" {
		t.Errorf("the 200 response's description = %q, want empty", d)
	}
	// Deterministic: the same input gives the same bytes.
	again, _ := Prune([]byte(tiny), []string{"GET /labels/{name}"}, Source{Package: "@octokit/openapi", Version: "1.2.3"})
	if string(again) != s {
		t.Errorf("a second run gave %d bytes differing from the first run's %d, want the same bytes", len(again), len(s))
	}
}

func TestPruneRefusesUndescribedRoutes(t *testing.T) {
	_, err := Prune([]byte(tiny), []string{"GET /labels/{name}", "POST /labels/{name}"}, Source{Package: "p", Version: "1"})
	if err == nil || !strings.Contains(err.Error(), "POST /labels/{name}") {
		t.Fatalf("err = %v, want one naming POST /labels/{name}", err)
	}
}

func TestOperations(t *testing.T) {
	ops, err := Operations([]byte(tiny))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"DELETE /labels/{name}", "GET /labels/{name}", "GET /unused"}
	if strings.Join(ops, "|") != strings.Join(want, "|") {
		t.Fatalf("Operations = %v, want %v", ops, want)
	}
}
