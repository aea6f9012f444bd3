package schema

import (
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
)

// Whole abstract types. A client selects on a union or interface with
// fragments naming its member types (gh's project queries name every
// member of ProjectV2ItemFieldValue), and GraphQL validation refuses a
// fragment on a type the schema does not define: one missing member fails
// the whole document. So every union and interface the pruned schema keeps
// keeps every member type GitHub's schema gives it.
//
// A member the emulator serves keeps exactly its served fields. A member
// it never serves (no resolver answers a field of it, so no value the
// emulator returns is of that type) is kept as a member-only type: its
// leaf (scalar and enum) fields, which are what a fragment on it most
// often selects, and the fields its kept interfaces require. Such a
// fragment validates and, as no value of that type is ever returned,
// never applies: the emulator answers what it holds and invents nothing.

// keepMembers completes every kept union and interface with its member
// types. The unions and interfaces kept are those keepAbstract decided on;
// member-only types add no new abstract types.
func (p *pruner) keepMembers() {
	members := map[string]bool{}
	for _, name := range sortedKeys(p.kept) {
		def := p.kept[name]
		switch def.Kind {
		case ast.Union:
			def.Types = slices.Clone(p.defs[name].Types)
			for _, m := range def.Types {
				members[m] = p.kept[m] == nil
			}
		case ast.Interface:
			for _, impl := range sortedKeys(p.defs) {
				if src := p.defs[impl]; src.Kind == ast.Object && slices.Contains(src.Interfaces, name) {
					members[impl] = p.kept[impl] == nil
				}
			}
		}
	}
	// Decide on every member-only type's fields before keeping any, so a
	// field returning another member-only type stays whatever the order.
	kept := func(name string) bool { return p.leaf(name) || p.kept[name] != nil || members[name] }
	defs := map[string]*ast.Definition{}
	for _, name := range sortedKeys(members) {
		if members[name] {
			defs[name] = p.memberOnly(name, kept)
		}
	}
	for name, def := range defs {
		p.kept[name] = def
	}
}

// memberOnly is the pruned copy of a member type the emulator does not
// serve: its fields of kept types with their arguments (an input type an
// argument needs is kept after), and the fields of the kept interfaces it
// implements.
func (p *pruner) memberOnly(name string, kept func(string) bool) *ast.Definition {
	src := p.defs[name]
	def := &ast.Definition{Kind: ast.Object, Name: name}
	for _, i := range src.Interfaces {
		if k := p.kept[i]; k != nil && k.Kind == ast.Interface {
			def.Interfaces = append(def.Interfaces, i)
		}
	}
	for _, f := range src.Fields {
		need := p.requiredBy(def.Interfaces, f.Name)
		if need == nil && !kept(f.Type.Name()) {
			continue
		}
		nf := &ast.FieldDefinition{Name: f.Name, Type: f.Type, Directives: deprecatedOnly(f.Directives)}
		if !kept(f.Type.Name()) {
			// GitHub's member narrows the interface's type to one the
			// pruned schema does not keep: the interface's type stands.
			nf.Type = need.Type
		}
		for _, a := range f.Arguments {
			nf.Arguments = append(nf.Arguments, &ast.ArgumentDefinition{Name: a.Name, Type: a.Type,
				DefaultValue: a.DefaultValue, Directives: deprecatedOnly(a.Directives)})
		}
		def.Fields = append(def.Fields, nf)
	}
	return def
}

// requiredBy is the field named name of the first of the interfaces that
// has one, nil when none does.
func (p *pruner) requiredBy(interfaces []string, name string) *ast.FieldDefinition {
	for _, i := range interfaces {
		if f := p.kept[i].Fields.ForName(name); f != nil {
			return f
		}
	}
	return nil
}

// leaf reports whether a named type is a scalar or an enum.
func (p *pruner) leaf(name string) bool {
	if builtin(name) {
		return true
	}
	src := p.defs[name]
	return src != nil && (src.Kind == ast.Scalar || src.Kind == ast.Enum)
}
