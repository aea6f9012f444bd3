package graphql_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
	want := rule{Pattern: "main", RequiresApprovingReviews: true, RequiredApprovingReviewCount: 1, RequiresStrictStatusChecks: false,
		RequiredStatusCheckContexts: state.RequiredChecks}
	if m == nil {
		t.Errorf("main's rule = null, want %+v", want)
	} else if diff := cmp.Diff(want, *m, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("main's rule mismatch (-want +got):\n%s", diff)
	}
	if d.Repository.Pull.BaseRef.BranchProtectionRule == nil {
		t.Error("#146's base ref rule = null, want main's")
	}
	// A tag is not protected.
	if o := d.Repository.Other; o == nil {
		t.Errorf("ref(v1.4.0) = null, want the tag")
	} else if o.BranchProtectionRule != nil {
		t.Errorf("v1.4.0's rule = %+v, want null", o.BranchProtectionRule)
	}
}
