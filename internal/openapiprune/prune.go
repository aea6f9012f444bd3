// Package openapiprune cuts GitHub's published OpenAPI description down to
// the operations the emulator serves and the components they reference, with
// prose, examples and vendor extensions removed. The full description is
// 13 MB and slow to load; the pruned copy is small enough to embed and load
// in every test binary. The script scripts/pruneopenapi writes the committed
// copy, and a test regenerates it in memory to prove it is current.
package openapiprune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Source names the package a description came from, recorded in the pruned
// copy's info as x-source ("@octokit/openapi@23.0.2").
type Source struct {
	Package string
	Version string
}

func (s Source) String() string { return s.Package + "@" + s.Version }

// Prune returns the pruned description for routes ("METHOD /template", as
// emulator.Routes lists them). Every route must exist in full: a route
// GitHub does not describe is an error, not something to leave out quietly.
// The output is deterministic: object keys sorted, two-space indentation.
func Prune(full []byte, routes []string, src Source) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(full))
	dec.UseNumber() // keep numbers exactly as written
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("openapiprune: parse description: %w", err)
	}
	paths, _ := doc["paths"].(map[string]any)
	components, _ := doc["components"].(map[string]any)
	if paths == nil || components == nil {
		return nil, fmt.Errorf("openapiprune: description has no paths or components")
	}

	outPaths := map[string]any{}
	var missing []string
	for _, rt := range routes {
		method, path, ok := strings.Cut(rt, " ")
		if !ok {
			return nil, fmt.Errorf("openapiprune: route %q is not \"METHOD /path\"", rt)
		}
		item, _ := paths[path].(map[string]any)
		op, _ := item[strings.ToLower(method)].(map[string]any)
		if op == nil {
			missing = append(missing, rt)
			continue
		}
		outItem, _ := outPaths[path].(map[string]any)
		if outItem == nil {
			outItem = map[string]any{}
			// Path-level parameters apply to every operation under the path.
			if params, ok := item["parameters"]; ok {
				outItem["parameters"] = strip(params, kindNode)
			}
			outPaths[path] = outItem
		}
		outItem[strings.ToLower(method)] = strip(op, kindOperation)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("openapiprune: GitHub's description has no operation for %s", strings.Join(missing, ", "))
	}

	// Follow $refs from the kept operations until no new component turns up.
	outComponents := map[string]any{}
	queue := collectRefs(outPaths, nil)
	seen := map[string]bool{}
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[ref] {
			continue
		}
		seen[ref] = true
		section, name, err := splitRef(ref)
		if err != nil {
			return nil, err
		}
		sec, _ := components[section].(map[string]any)
		v, ok := sec[name]
		if !ok {
			return nil, fmt.Errorf("openapiprune: %s does not resolve", ref)
		}
		kind := kindNode
		switch section {
		case "responses":
			kind = kindResponse
		case "schemas":
			kind = kindSchema
		}
		pruned := strip(v, kind)
		outSec, _ := outComponents[section].(map[string]any)
		if outSec == nil {
			outSec = map[string]any{}
			outComponents[section] = outSec
		}
		outSec[name] = pruned
		queue = collectRefs(pruned, queue)
	}

	info, _ := doc["info"].(map[string]any)
	title, _ := info["title"].(string)
	out := map[string]any{
		"openapi": doc["openapi"],
		"info": map[string]any{
			"title":    title,
			"version":  src.Version,
			"x-source": src.String(),
			"x-pruned": "only the operations the ghgate emulator serves and the components they reference; descriptions, summaries, examples, externalDocs and x- extensions removed",
		},
		"servers":    doc["servers"],
		"paths":      outPaths,
		"components": outComponents,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // patterns and prose keep < > & as GitHub wrote them
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("openapiprune: encode: %w", err)
	}
	return buf.Bytes(), nil
}

// kind tells strip what a JSON object is, because the same key means a
// keyword in one place and a name in another: "description" is prose in a
// schema but a property name inside "properties".
type kind int

const (
	kindNode      kind = iota // an object whose keys are OpenAPI keywords
	kindSchema                // a schema object
	kindOperation             // an operation object
	kindResponse              // a response object: "description" is required, kept empty
	kindNames                 // a map from names to kindNode objects
	kindSchemas               // a map from names to schemas ("properties")
	kindResponses             // a map from status codes to responses
	kindLiteral               // data (enum, default): copied untouched
)

// dropped are keywords that carry prose, samples or vendor metadata only.
var dropped = map[string]bool{
	"description": true, "summary": true, "title": true, "example": true,
	"examples": true, "externalDocs": true, "tags": true,
}

func strip(v any, k kind) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		elem := kindNode
		if k == kindSchema || k == kindLiteral {
			elem = k
		}
		for i, e := range x {
			out[i] = strip(e, elem)
		}
		return out
	case map[string]any:
		if k == kindLiteral {
			return x
		}
		out := map[string]any{}
		for key, val := range x {
			switch k {
			case kindNames:
				out[key] = strip(val, kindNode)
				continue
			case kindSchemas:
				out[key] = strip(val, kindSchema)
				continue
			case kindResponses:
				out[key] = strip(val, kindResponse)
				continue
			}
			if strings.HasPrefix(key, "x-") || dropped[key] {
				if k == kindResponse && key == "description" {
					out[key] = ""
				}
				continue
			}
			out[key] = strip(val, childKind(k, key))
		}
		if k == kindResponse {
			if _, ok := out["description"]; !ok && out["$ref"] == nil {
				out["description"] = ""
			}
		}
		return out
	}
	return v
}

// childKind is the kind of the value under key in an object of kind k.
func childKind(k kind, key string) kind {
	switch key {
	case "enum", "default", "const":
		return kindLiteral
	case "responses":
		return kindResponses
	case "properties":
		return kindSchemas
	case "content", "headers", "encoding", "links", "callbacks", "mapping":
		return kindNames
	case "schema", "items", "additionalProperties", "not", "oneOf", "anyOf", "allOf":
		return kindSchema
	}
	return kindNode
}

// collectRefs appends every local $ref found in v to refs.
func collectRefs(v any, refs []string) []string {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			refs = collectRefs(e, refs)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a stable walk keeps error messages stable
		for _, k := range keys {
			if s, ok := x[k].(string); ok && k == "$ref" {
				refs = append(refs, s)
				continue
			}
			refs = collectRefs(x[k], refs)
		}
	}
	return refs
}

func splitRef(ref string) (section, name string, err error) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return "", "", fmt.Errorf("openapiprune: unsupported $ref %q", ref)
	}
	section, name, ok = strings.Cut(rest, "/")
	if !ok || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("openapiprune: unsupported $ref %q", ref)
	}
	return section, name, nil
}

// Operations lists the "METHOD /template" pairs a pruned description holds,
// sorted, so a test can compare it with the emulator's routes.
func Operations(pruned []byte) ([]string, error) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(pruned, &doc); err != nil {
		return nil, fmt.Errorf("openapiprune: parse: %w", err)
	}
	methods := []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete,
		http.MethodOptions, http.MethodHead, http.MethodPatch, http.MethodTrace}
	var out []string
	for path, item := range doc.Paths {
		for key := range item {
			if m := strings.ToUpper(key); slices.Contains(methods, m) {
				out = append(out, m+" "+path)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Where the pinned package and the committed copy live, relative to the
// module root.
const (
	SourcePath  = "node_modules/@octokit/openapi/generated/api.github.com.json"
	PackagePath = "node_modules/@octokit/openapi/package.json"
	PrunedPath  = "internal/emulator/emulatortest/openapi/api.github.com.pruned.json"
)

// ReadSource reads the full description and the name and version of the
// npm package it ships in, from the module root.
func ReadSource(root string) ([]byte, Source, error) {
	pkgJSON, err := os.ReadFile(filepath.Join(root, PackagePath))
	if err != nil {
		return nil, Source{}, err
	}
	var pkg struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(pkgJSON, &pkg); err != nil {
		return nil, Source{}, fmt.Errorf("openapiprune: %s: %w", PackagePath, err)
	}
	if pkg.Name == "" || pkg.Version == "" {
		return nil, Source{}, fmt.Errorf("openapiprune: %s names no package or version", PackagePath)
	}
	full, err := os.ReadFile(filepath.Join(root, SourcePath))
	if err != nil {
		return nil, Source{}, err
	}
	return full, Source{Package: pkg.Name, Version: pkg.Version}, nil
}

// ModuleRoot finds the directory holding go.mod, from dir upwards.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for range 64 { // deeper than any real checkout
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("openapiprune: no go.mod above %s", dir)
}
