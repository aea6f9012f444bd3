package graphql_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
)

// servedWithout lists, as "Interface Member", the served types that do not
// yet serve the fields the pruned interface has, so they cannot declare it
// (a type that implements an interface must have its fields, and a field
// without a resolver would fail at run time). The list may only shrink:
// serve the member's field and take it off. GitHub's Query implements
// Node, but no node(id:) answer is ever the Query.
var servedWithout = map[string]bool{
	"Node Query": true,
}

// TestAbstractTypesKeepEveryMember walks every union and interface of the
// embedded schema: each must have every member type GitHub's schema gives
// it, so a client's fragment on any member validates (a missing one fails
// the whole document, as gh's project queries failed on
// ProjectV2ItemFieldPullRequestValue).
func TestAbstractTypesKeepEveryMember(t *testing.T) {
	full := schemasOrFail(t).overlaid
	pruned, err := graphql.LoadSchema()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	gaps := map[string]bool{}
	for _, name := range sortedTypeNames(pruned) {
		def := pruned.Types[name]
		if def.BuiltIn || (def.Kind != ast.Union && def.Kind != ast.Interface) {
			continue
		}
		checked++
		have := map[string]bool{}
		for _, m := range pruned.GetPossibleTypes(def) {
			have[m.Name] = true
		}
		for _, m := range full.GetPossibleTypes(full.Types[name]) {
			if have[m.Name] {
				continue
			}
			if servedWithout[name+" "+m.Name] {
				gaps[name+" "+m.Name] = true
				continue
			}
			t.Errorf("%s %s lacks its member %s", def.Kind, name, m.Name)
		}
	}
	for g := range servedWithout {
		if !gaps[g] {
			t.Errorf("%s is no longer a gap: take it off servedWithout", g)
		}
	}
	if checked == 0 {
		t.Fatal("the embedded schema has no union or interface to check")
	}
	t.Logf("%d unions and interfaces keep all their members", checked)
}

func sortedTypeNames(s *ast.Schema) []string {
	names := make([]string, 0, len(s.Types))
	for name := range s.Types {
		names = append(names, name)
	}
	sort.Strings(names)
	return slices.Clip(names)
}
