package graphql

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// The GraphQL endpoint is a registry of resolvers, one per "Type.field",
// walked by a generic executor (exec.go). A resolver is a plain
// function from its parent object (and, when the field takes arguments, a
// typed struct of them) to a value: a scalar, a model object, a slice or a
// connection. The registry is also the source of truth for the embedded
// schema: scripts/prunegraphql keeps exactly the fields registered here, with
// exactly the arguments their structs declare, so a field or argument the
// emulator does not serve fails validation instead of being ignored.
//
// Later features (Projects v2, review threads) add a file that registers
// their fields in a function called from newResolvers, and regenerate the
// schema.

// gqlContext is what a resolver sees besides its parent and arguments: the
// caller, the state (locked by the executor for the whole document) and the
// field being resolved, for messages that name it.
type gqlContext struct {
	c  *wire.Call
	st *state.State
	// limits is the rate limiter, read by Query.rateLimit.
	limits *faults.RateLimiter
	field  *ast.Field
	path   []any
	ex     *execution
}

// errorAt reports an error for one element of a list the resolver returns
// (nodes(ids:) answers null and an error for each id it cannot resolve).
func (x *gqlContext) errorAt(index int, err error) {
	x.ex.fail(append(append([]any(nil), x.path...), index), x.field.Position, err)
}

// fieldResolver is one registered field.
type fieldResolver struct {
	args reflect.Type // the argument struct, nil for a field without arguments
	fn   func(x *gqlContext, parent any, args map[string]any) (any, error)
}

// resolvers maps "Type.field" to its resolver and Go types to the GraphQL
// object types they stand for, which the executor needs for fields of
// interface and union type (node, author, owner, ...).
type resolvers struct {
	fields map[string]fieldResolver
	types  map[reflect.Type]func(v any) string
	// twice lists the keys registered more than once: a programming
	// error newResolvers reports, so the emulator refuses to start.
	twice []string
	// intro answers introspection (introspection.go), kept apart
	// so that Fields lists only GitHub's own fields.
	intro *resolvers
}

// lookup finds the resolver of "Type.field", GitHub's or introspection's.
func (r *resolvers) lookup(key string) (fieldResolver, bool) {
	if fr, ok := r.fields[key]; ok {
		return fr, true
	}
	if r.intro != nil {
		fr, ok := r.intro.fields[key]
		return fr, ok
	}
	return fieldResolver{}, false
}

// noArgs marks a resolver whose field takes no arguments.
type noArgs struct{}

// root is the parent of Query and Mutation fields.
type root struct{}

// resolve registers a field without arguments.
func resolve[P any](r *resolvers, key string, fn func(x *gqlContext, p P) (any, error)) {
	resolveArgs(r, key, func(x *gqlContext, p P, _ noArgs) (any, error) { return fn(x, p) })
}

// resolveArgs registers a field whose arguments decode into A. A's json tags
// name the GraphQL arguments; they are what the pruned schema keeps.
func resolveArgs[P, A any](r *resolvers, key string, fn func(x *gqlContext, p P, a A) (any, error)) {
	if _, dup := r.fields[key]; dup {
		r.twice = append(r.twice, key)
		return
	}
	var fr fieldResolver
	if at := reflect.TypeFor[A](); at != reflect.TypeFor[noArgs]() {
		fr.args = at
	}
	fr.fn = func(x *gqlContext, parent any, raw map[string]any) (any, error) {
		p, ok := parent.(P)
		if !ok {
			return nil, fmt.Errorf("emulator: %s resolved on %T", key, parent)
		}
		var a A
		if fr.args != nil && len(raw) > 0 {
			// Arguments arrive as gqlparser's generic values, already
			// checked against the schema; a JSON round trip turns them into
			// the typed struct.
			b, err := json.Marshal(raw)
			if err != nil {
				return nil, fmt.Errorf("emulator: %s arguments: %w", key, err)
			}
			if err := json.Unmarshal(b, &a); err != nil {
				return nil, fmt.Errorf("emulator: %s arguments: %w", key, err)
			}
		}
		return fn(x, p, a)
	}
	r.fields[key] = fr
}

// objectType declares the GraphQL object type a Go value stands for.
func objectType[T any](r *resolvers, name func(v T) string) {
	r.types[reflect.TypeFor[T]()] = func(v any) string { return name(v.(T)) }
}

// typeName is the GraphQL object type of v, or "" when v is of no known type.
func (r *resolvers) typeName(v any) string {
	if f := r.types[reflect.TypeOf(v)]; f != nil {
		return f(v)
	}
	return ""
}

// newResolvers builds the whole registry, or says which fields were
// registered twice.
func newResolvers() (*resolvers, error) {
	r := &resolvers{fields: map[string]fieldResolver{}, types: map[reflect.Type]func(any) string{}}
	registerRoot(r)
	registerAccounts(r)
	registerRepository(r)
	registerIssues(r)
	registerIssueParts(r)
	registerConnections(r)
	registerMutations(r)
	registerIssueCreate(r)
	registerReactions(r)
	registerRepositoryOwner(r)
	registerIssueEdit(r)
	registerSearch(r)
	registerLabelMutations(r)
	registerIssueFields(r)
	registerClosingRefs(r)
	registerTeams(r)
	registerPulls(r)
	registerLinkedBranches(r)
	registerBranchProtection(r)
	registerProjects(r)
	registerIssueTransfer(r)
	registerPullCreate(r)
	registerReleases(r)
	registerCommentMutations(r)
	registerRepoMutations(r)
	registerPullRevert(r)
	registerRefCompare(r)
	registerGitObjects(r)
	r.intro = newIntrospectionResolvers()
	if len(r.twice) > 0 {
		return nil, fmt.Errorf("emulator: graphql resolvers registered twice: %s", strings.Join(r.twice, ", "))
	}
	return r, nil
}

// GraphQLField is one field the emulator serves, with the arguments it
// accepts: what scripts/prunegraphql keeps from GitHub's schema.
type GraphQLField = schema.Field

// Fields lists every served field, sorted by type then field.
func Fields() ([]GraphQLField, error) {
	r, err := newResolvers()
	if err != nil {
		return nil, err
	}
	out := make([]GraphQLField, 0, len(r.fields))
	for key, fr := range r.fields {
		typ, field, _ := strings.Cut(key, ".")
		out = append(out, GraphQLField{Type: typ, Field: field, Args: argNames(fr.args)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Field < out[j].Field
	})
	return out, nil
}

// argNames reads the GraphQL argument names from an argument struct's json
// tags.
func argNames(t reflect.Type) []string {
	if t == nil {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			names = append(names, argNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		names = append(names, name)
	}
	return names
}
