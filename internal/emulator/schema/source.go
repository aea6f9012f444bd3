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
		var added ast.FieldList
		for _, f := range ext.Fields {
			old := d.Fields.ForName(f.Name)
			if old == nil {
				added = append(added, f)
				continue
			}
			// A field the schema has may only gain arguments GitHub
			// serves beyond the published ones (ProjectV2.items(query:)).
			if err := addArguments(ext.Name, old, f); err != nil {
				return nil, err
			}
		}
		d.Fields = append(d.Fields, added...)
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

// addArguments gives a published field the arguments an overlay
// redefinition adds. The redefinition must repeat the field's type and
// every published argument unchanged: anything else is a change, not an
// addition, and the overlay may only add.
func addArguments(typ string, old, ext *ast.FieldDefinition) error {
	if ext.Type.String() != old.Type.String() {
		return fmt.Errorf("overlay redefines %s.%s with type %s, not %s", typ, old.Name, ext.Type, old.Type)
	}
	for _, a := range old.Arguments {
		if e := ext.Arguments.ForName(a.Name); e == nil || e.Type.String() != a.Type.String() {
			return fmt.Errorf("overlay redefines %s.%s without its argument %s: %s", typ, old.Name, a.Name, a.Type)
		}
	}
	added := false
	for _, e := range ext.Arguments {
		if old.Arguments.ForName(e.Name) == nil {
			old.Arguments = append(old.Arguments, e)
			added = true
		}
	}
	if !added {
		return fmt.Errorf("overlay adds %s.%s, which the schema already defines: drop it from the overlay", typ, old.Name)
	}
	return nil
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
