package graphql_test

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

func TestGraphQLBranchProtectionRule(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	type rule struct {
		Pattern                      string
		RequiresApprovingReviews     bool
		RequiredApprovingReviewCount int
		RequiresStrictStatusChecks   bool
		RequiredStatusCheckContexts  []string
	}
	var d struct {
		Repository struct {
			Main  struct{ BranchProtectionRule *rule }
			Other *struct{ BranchProtectionRule *rule }
			Pull  struct {
				BaseRef struct{ BranchProtectionRule *rule }
			}
		}
	}
	w.query(seed.DemoTokenAlice, `{ repository(owner: "acme", name: "widgets") {
		main: ref(qualifiedName: "main") { ...r }
		other: ref(qualifiedName: "v1.4.0") { ...r }
		pull: pullRequest(number: 146) { baseRef { ...r } }
	} }
	fragment r on Ref { branchProtectionRule { pattern requiresApprovingReviews requiredApprovingReviewCount requiresStrictStatusChecks requiredStatusCheckContexts } }`, nil).ok(t, &d)
	m := d.Repository.Main.BranchProtectionRule
	if m == nil || m.Pattern != "main" || !m.RequiresApprovingReviews || m.RequiredApprovingReviewCount != 1 || m.RequiresStrictStatusChecks ||
		!slices.Equal(m.RequiredStatusCheckContexts, state.RequiredChecks) {
		t.Errorf("main's rule = %+v", m)
	}
	if d.Repository.Pull.BaseRef.BranchProtectionRule == nil {
		t.Error("#146's base ref has no rule")
	}
	// A tag is not protected.
	if o := d.Repository.Other; o == nil || o.BranchProtectionRule != nil {
		t.Errorf("v1.4.0's rule = %+v", o)
	}
}
