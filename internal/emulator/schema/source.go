package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"
)

// Reading GitHub's published GraphQL schema: shared by scripts/prunegraphql
// and by the tests, which validate every document they send against it.

// Source names where a schema came from, for the header of the pruned
// copy.
type Source struct {
	Package string // "@octokit/graphql-schema"
	Version string // "15.26.1"
	Overlay string // the overlay file's path in the repository
}

// Paths relative to the module root.
const (
	PackagePath = "node_modules/@octokit/graphql-schema"
	OverlayPath = "internal/emulator/schema/overlay.graphql"
	PrunedPath  = "internal/emulator/schema/github.graphql"
)

// ReadSources reads GitHub's published schema, its package version
// and the overlay from a checkout rooted at root.
func ReadSources(root string) (published, overlay []byte, src Source, err error) {
	pkg, err := os.ReadFile(filepath.Join(root, PackagePath, "package.json"))
	if err != nil {
		return nil, nil, src, err
	}
	var meta struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(pkg, &meta); err != nil {
		return nil, nil, src, fmt.Errorf("%s/package.json: %w", PackagePath, err)
	}
	published, err = os.ReadFile(filepath.Join(root, PackagePath, "schema.graphql"))
	if err != nil {
		return nil, nil, src, err
	}
	overlay, err = os.ReadFile(filepath.Join(root, OverlayPath))
	if err != nil {
		return nil, nil, src, err
	}
	return published, overlay, Source{Package: meta.Name, Version: meta.Version, Overlay: OverlayPath}, nil
}

// parse parses GitHub's schema and the overlay, drops the
// duplicate field definitions GitHub's file contains
// (EnterpriseOwnerInfo.repositoryDeployKeySetting is defined twice), and
// folds the overlay's type extensions into the types they extend.
func parse(published, overlay []byte) (*ast.SchemaDocument, error) {
	sources := []*ast.Source{{Name: "schema.graphql", Input: string(published)}}
	if len(overlay) > 0 {
		sources = append(sources, &ast.Source{Name: "overlay.graphql", Input: string(overlay)})
	}
	doc, err := parser.ParseSchemas(sources...)
	if err != nil {
		return nil, fmt.Errorf("parse GitHub schema: %w", err)
	}
	byName := map[string]*ast.Definition{}
	for _, d := range doc.Definitions {
		byName[d.Name] = d
	}
	for _, ext := range doc.Extensions {
		d := byName[ext.Name]
		if d == nil || d.Kind != ext.Kind {
			return nil, fmt.Errorf("overlay extends %s %s, which the schema does not define", ext.Kind, ext.Name)
		}
		for _, f := range ext.Fields {
			if d.Fields.ForName(f.Name) != nil {
				return nil, fmt.Errorf("overlay adds %s.%s, which the schema already defines: drop it from the overlay", ext.Name, f.Name)
			}
		}
		d.Fields = append(d.Fields, ext.Fields...)
		d.Interfaces = append(d.Interfaces, ext.Interfaces...)
		d.Types = append(d.Types, ext.Types...)
		d.EnumValues = append(d.EnumValues, ext.EnumValues...)
	}
	doc.Extensions = nil
	for _, d := range doc.Definitions {
		d.Fields = dedupeFields(d.Fields)
	}
	return doc, nil
}

// dedupeFields keeps the first definition of each field name.
func dedupeFields(fields ast.FieldList) ast.FieldList {
	seen := map[string]bool{}
	out := fields[:0]
	for _, f := range fields {
		if seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		out = append(out, f)
	}
	return out
}

// Load loads the published schema (and overlay, when given) for
// validating documents: the tests check every document they send against it.
func Load(published, overlay []byte) (*ast.Schema, error) {
	doc, err := parse(published, overlay)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	formatter.NewFormatter(&b, formatter.WithoutDescription()).FormatSchemaDocument(doc)
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: b.String()})
	if err != nil {
		return nil, fmt.Errorf("load GitHub schema: %w", err)
	}
	return s, nil
}
