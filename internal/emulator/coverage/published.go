package coverage

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// Paths of the embedded totals, relative to the module root.
const (
	OpenAPIPath = "internal/emulator/coverage/openapi.json"
	GraphQLPath = "internal/emulator/coverage/graphql.json"
)

//go:embed openapi.json
var openapiTotals []byte

//go:embed graphql.json
var graphqlTotals []byte

// publishedREST is what openapi.json holds: every operation of GitHub's
// OpenAPI description ("GET /repos/{owner}/{repo}") with its area, the
// operation's first tag.
type publishedREST struct {
	Source     string            `json:"source"`
	Operations map[string]string `json:"operations"`
}

// publishedGraphQL is what graphql.json holds: the number of fields of
// every object type of GitHub's published GraphQL schema.
type publishedGraphQL struct {
	Source string         `json:"source"`
	Types  map[string]int `json:"types"`
	// Overlay are the fields the emulator's overlay adds to published
	// types (what GitHub serves beyond its published schema): served, but
	// not counted against the published totals.
	Overlay map[string][]string `json:"overlay"`
}

// OpenAPITotals reads GitHub's full OpenAPI description and returns the
// openapi.json to embed; src names the package it came from.
func OpenAPITotals(full []byte, src string) ([]byte, error) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(full, &doc); err != nil {
		return nil, fmt.Errorf("OpenAPI description: %w", err)
	}
	out := publishedREST{Source: src, Operations: map[string]string{}}
	for path, item := range doc.Paths {
		for method, raw := range item {
			switch method {
			case "get", "put", "post", "patch", "delete", "head", "options", "trace":
			default:
				continue // parameters, summary, ...
			}
			var op struct {
				Tags []string `json:"tags"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, path, err)
			}
			area := "untagged"
			if len(op.Tags) > 0 {
				area = op.Tags[0]
			}
			out.Operations[strings.ToUpper(method)+" "+path] = area
		}
	}
	return marshal(out)
}

// GraphQLTotals reads GitHub's published GraphQL schema (SDL) and the
// emulator's overlay and returns the graphql.json to embed; src names the
// package it came from. A field GitHub's file defines twice on one type
// counts once.
func GraphQLTotals(published, overlay []byte, src string) ([]byte, error) {
	doc, err := parser.ParseSchema(&ast.Source{Name: "schema.graphql", Input: string(published)})
	if err != nil {
		return nil, fmt.Errorf("GraphQL schema: %w", err)
	}
	out := publishedGraphQL{Source: src, Types: map[string]int{}, Overlay: map[string][]string{}}
	fields := map[string]map[string]bool{}
	for _, d := range doc.Definitions {
		if d.Kind != ast.Object {
			continue
		}
		names := map[string]bool{}
		for _, f := range d.Fields {
			names[f.Name] = true
		}
		fields[d.Name] = names
		out.Types[d.Name] = len(names)
	}
	ext, err := parser.ParseSchema(&ast.Source{Name: "overlay.graphql", Input: string(overlay)})
	if err != nil {
		return nil, fmt.Errorf("overlay: %w", err)
	}
	for _, d := range ext.Extensions {
		if d.Kind != ast.Object {
			continue
		}
		for _, f := range d.Fields {
			// An overlay field GitHub publishes only adds arguments to it.
			if !fields[d.Name][f.Name] {
				out.Overlay[d.Name] = append(out.Overlay[d.Name], f.Name)
			}
		}
		slices.Sort(out.Overlay[d.Name])
	}
	return marshal(out)
}

// marshal writes v deterministically (encoding/json sorts map keys), one
// entry a line so a regeneration's diff reads.
func marshal(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func loadPublished() (publishedREST, publishedGraphQL, error) {
	var rest publishedREST
	var gql publishedGraphQL
	if err := json.Unmarshal(openapiTotals, &rest); err != nil {
		return rest, gql, fmt.Errorf("%s: %w", OpenAPIPath, err)
	}
	if err := json.Unmarshal(graphqlTotals, &gql); err != nil {
		return rest, gql, fmt.Errorf("%s: %w", GraphQLPath, err)
	}
	return rest, gql, nil
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
