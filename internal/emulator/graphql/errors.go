package graphql

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// gqlError is a resolver's failure as GitHub reports it: a type such as
// NOT_FOUND or FORBIDDEN (empty for plain errors) and a message. The
// executor adds the path and location.
type gqlError struct {
	Type    string
	Message string
}

func (e *gqlError) Error() string { return e.Message }

// notFound is GitHub's answer for something that does not exist or that the
// caller may not see.
func notFound(format string, args ...any) error {
	return &gqlError{Type: "NOT_FOUND", Message: fmt.Sprintf(format, args...)}
}

// forbidden is GitHub's answer to a mutation without the permission for it.
func forbidden(login, mutation string) error {
	return &gqlError{Type: "FORBIDDEN", Message: login + " does not have the correct permissions to execute `" + mutation + "`"}
}

// gqlLocation is a line and column in the document, both from 1.
type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// gqlErrorJSON is one entry of a response's errors array, with GitHub's
// field order.
type gqlErrorJSON struct {
	Type       string         `json:"type,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
	Locations  []gqlLocation  `json:"locations,omitempty"`
	Message    string         `json:"message"`
}

// The validator's messages follow graphql-js; GitHub's follow graphql-ruby.
// These patterns translate the common ones, so a client matching on
// GitHub's wording sees the same text from the emulator. Anything else keeps
// the validator's message. They are compiled on first use, not by every
// ghgate process at start.
var (
	reUndefinedField  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Cannot query field "([^"]+)" on type "([^"]+)"\.`) })
	reUnknownArgument = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Unknown argument "([^"]+)" on field "([^".]+)\.([^"]+)"\.`)
	})
	reMissingArgument = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Field "([^"]+)" argument "([^"]+)" of type "([^"]+)" is required, but it was not provided\.`)
	})
	reNeedsSelections = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Field "([^"]+)" of type "([^"]+)" must have a selection of subfields\.`)
	})
	reNoSelections = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Field "([^"]+)" must not have a selection since type "([^"]+)" has no subfields\.`)
	})
	reUndefinedVarOp = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Variable "\$?([^"]+)" is not defined by operation "([^"]+)"\.`)
	})
	reUndefinedVar     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Variable "\$?([^"]+)" is not defined\.`) })
	reUnusedVariable   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Variable "\$([^"]+)" is never used`) })
	reUnknownFragment  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Unknown fragment "([^"]+)"\.`) })
	reUnusedFragment   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Fragment "([^"]+)" is never used\.`) })
	reUnknownType      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Unknown type "([^"]+)"\.`) })
	reUnknownDirective = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Unknown directive "@([^"]+)"\.`) })
)

// githubValidationMessage rewrites a validator message into GitHub's words
// and the extensions GitHub sends with it.
func githubValidationMessage(msg, operation string) (string, map[string]any) {
	if m := reUndefinedField().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Field '%s' doesn't exist on type '%s'", m[1], m[2]),
			map[string]any{"code": "undefinedField", "typeName": m[2], "fieldName": m[1]}
	}
	if m := reUnknownArgument().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Field '%s' doesn't accept argument '%s'", m[3], m[1]),
			map[string]any{"code": "argumentNotAccepted", "name": m[3], "typeName": "Field", "argumentName": m[1]}
	}
	if m := reMissingArgument().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Field '%s' is missing required arguments: %s", m[1], m[2]),
			map[string]any{"code": "missingRequiredArguments", "className": "Field", "name": m[1], "arguments": m[2]}
	}
	if m := reNeedsSelections().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Field must have selections (field '%s' returns %s but has no selections. Did you mean '%s { ... }'?)",
				m[1], strings.TrimSuffix(m[2], "!"), m[1]),
			map[string]any{"code": "selectionMismatch", "nodeName": "field '" + m[1] + "'", "typeName": strings.TrimSuffix(m[2], "!")}
	}
	if m := reNoSelections().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Selections can't be made on scalars (field '%s' returns %s but has selections)", m[1], m[2]),
			map[string]any{"code": "selectionMismatch", "nodeName": "field '" + m[1] + "'", "typeName": m[2]}
	}
	if m := reUndefinedVarOp().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Variable $%s is used by %s but not declared", m[1], m[2]),
			map[string]any{"code": "variableNotDefined", "variableName": m[1]}
	}
	if m := reUndefinedVar().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Variable $%s is used by %s but not declared", m[1], operation),
			map[string]any{"code": "variableNotDefined", "variableName": m[1]}
	}
	if m := reUnusedVariable().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Variable $%s is declared by %s but not used", m[1], operation),
			map[string]any{"code": "variableNotUsed", "variableName": m[1]}
	}
	if m := reUnknownFragment().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Fragment %s was used, but not defined", m[1]),
			map[string]any{"code": "useAndDefineFragment", "fragmentName": m[1]}
	}
	if m := reUnusedFragment().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Fragment %s was defined, but not used", m[1]),
			map[string]any{"code": "useAndDefineFragment", "fragmentName": m[1]}
	}
	if m := reUnknownType().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("No such type %s, so it can't be a fragment condition", m[1]),
			map[string]any{"code": "undefinedType", "typeName": m[1]}
	}
	if m := reUnknownDirective().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("Directive @%s is not defined", m[1]),
			map[string]any{"code": "undefinedDirective", "directiveName": m[1]}
	}
	return msg, nil
}

// locationsOf copies a validator error's locations.
func locationsOf(e *gqlerror.Error) []gqlLocation {
	var out []gqlLocation
	for _, l := range e.Locations {
		out = append(out, gqlLocation{Line: l.Line, Column: l.Column})
	}
	return out
}

// documentPath finds the document node at loc and returns the path
// graphql-ruby reports for it: the operation ("query", "mutation Name") or
// fragment ("fragment Name"), then response keys, with inline fragments as
// "... on Type". It is nil when nothing starts at loc.
func documentPath(doc *ast.QueryDocument, loc gqlLocation) []any {
	at := func(p *ast.Position) bool { return p != nil && p.Line == loc.Line && p.Column == loc.Column }
	var valueAt func(v *ast.Value) bool
	valueAt = func(v *ast.Value) bool {
		if v == nil {
			return false
		}
		if at(v.Position) {
			return true
		}
		for _, c := range v.Children {
			if valueAt(c.Value) {
				return true
			}
		}
		return false
	}
	extend := func(path []any, elem any) []any { return append(append([]any(nil), path...), elem) }
	var walk func(set ast.SelectionSet, path []any) []any
	walk = func(set ast.SelectionSet, path []any) []any {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				p := extend(path, s.Alias)
				if at(s.Position) {
					return p
				}
				for _, a := range s.Arguments {
					if at(a.Position) || valueAt(a.Value) {
						return extend(p, a.Name)
					}
				}
				if found := walk(s.SelectionSet, p); found != nil {
					return found
				}
			case *ast.InlineFragment:
				p := extend(path, "...")
				if s.TypeCondition != "" {
					p = extend(path, "... on "+s.TypeCondition)
				}
				if at(s.Position) {
					return p
				}
				if found := walk(s.SelectionSet, p); found != nil {
					return found
				}
			case *ast.FragmentSpread:
				if at(s.Position) {
					return extend(path, "... "+s.Name)
				}
			}
		}
		return nil
	}
	for _, op := range doc.Operations {
		name := string(op.Operation)
		if op.Name != "" {
			name += " " + op.Name
		}
		root := []any{name}
		if at(op.Position) {
			return root
		}
		for _, v := range op.VariableDefinitions {
			if at(v.Position) || valueAt(v.DefaultValue) {
				return root
			}
		}
		if found := walk(op.SelectionSet, root); found != nil {
			return found
		}
	}
	for _, f := range doc.Fragments {
		root := []any{"fragment " + f.Name}
		if at(f.Position) {
			return root
		}
		if found := walk(f.SelectionSet, root); found != nil {
			return found
		}
	}
	return nil
}
