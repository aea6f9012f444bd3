package graphql

import (
	"regexp"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// GitHub validates documents with graphql-ruby, whose field-merge rule
// (FieldsWillMerge) reports two fields under one response name when they
// name different fields or pass different arguments, but not when they
// merely return different types: graphql-ruby's legacy mode, which GitHub
// runs, lets such return-type conflicts through. GitHub's own CLI depends on
// it: every `gh issue view`, `close` and `reopen` asks for
//
//	issueOrPullRequest(number: $n) { ...on Issue{state} ...on PullRequest{state} }
//
// where state is IssueState! on one side and PullRequestState! on the
// other, and GitHub answers it. gqlparser follows graphql-js, which refuses
// that document; ValidationRules keeps every default rule and drops
// from the merge rule only the conflicts graphql-ruby would not report.

// ValidationRules are gqlparser's default rules with the field-merge
// rule narrowed to what GitHub enforces. The schema tells leaf types from
// composite ones.
func ValidationRules(schema *ast.Schema) *rules.Rules {
	r := rules.NewDefaultRules()
	inner := rules.OverlappingFieldsCanBeMergedRule.RuleFunc
	r.ReplaceRule(rules.OverlappingFieldsCanBeMergedRule.Name, func(observers *core.Events, addError core.AddErrFunc) {
		inner(observers, func(options ...core.ErrorOption) {
			var e gqlerror.Error
			for _, o := range options {
				o(&e)
			}
			if onlyReturnTypeConflicts(schema, e.Message) {
				return
			}
			addError(options...)
		})
	})
	return r
}

// The reasons gqlparser gives for a field-merge conflict; a conflict in
// sub-selections nests them ("subfields "x" conflict because ...").
var reConflictingTypes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`they return conflicting types "([^"]+)" and "([^"]+)"`)
})

const (
	conflictPrefix       = `Fields "`
	reasonDifferentField = `" are different fields`
	reasonDifferentArgs  = `they have differing arguments`
)

// onlyReturnTypeConflicts reports whether a field-merge error stands only on
// return types GitHub does not compare. A conflict between composite types
// whose list or non-null wrappers differ is kept: gqlparser stops there
// without comparing their sub-selections, so dropping it could hide a
// conflict GitHub does report.
func onlyReturnTypeConflicts(schema *ast.Schema, msg string) bool {
	if !strings.HasPrefix(msg, conflictPrefix) ||
		strings.Contains(msg, reasonDifferentField) || strings.Contains(msg, reasonDifferentArgs) {
		return false
	}
	found := reConflictingTypes().FindAllStringSubmatch(msg, -1)
	if len(found) == 0 {
		return false
	}
	for _, m := range found {
		a, b := m[1], m[2]
		if typeWrappers(a) != typeWrappers(b) && !(isLeafType(schema, a) && isLeafType(schema, b)) {
			return false
		}
	}
	return true
}

// typeWrappers is a type reference without its named type: "[Label!]!"
// gives "[!]!".
func typeWrappers(ref string) string {
	return strings.Map(func(r rune) rune {
		if r == '[' || r == ']' || r == '!' {
			return r
		}
		return -1
	}, ref)
}

// isLeafType reports whether a type reference names a scalar or an enum.
func isLeafType(schema *ast.Schema, ref string) bool {
	def := schema.Types[strings.Trim(ref, "[]!")]
	return def != nil && def.IsLeafType()
}
