package issues

import "testing"

// The names check's queries, in every shape it sends (one repository, an
// owner's, everywhere; with and without the lists), are checked against
// GitHub's full published schema (see githubSchema).
func TestNamesDocumentsAreValidOnGitHub(t *testing.T) {
	t.Parallel()
	s := githubSchema(t)
	in := SearchIssuesIn{Labels: []string{"bug", "status: triaged"}, Assignee: "alice", Author: "bob",
		Query: `label:a,b milestone:"v1 beta" type:Bug`}
	filters := in.namedFilters()
	if len(filters) != 7 {
		t.Fatalf("named filters = %+v (%d), want 7", filters, len(filters))
	}
	for _, r := range []namesRead{
		{owner: "acme", repo: "widgets", filters: filters, lists: true},
		{owner: "acme", repo: "widgets", filters: filters},
		{owner: "acme", filters: filters},
		{owner: "acme", filters: filters, lists: true},
		{filters: filters},
	} {
		doc, vars := r.document()
		if doc == "" {
			t.Fatalf("%+v: document is empty, want a names query", r)
		}
		q, errs := loadOnGitHub(s, doc)
		if len(errs) > 0 {
			t.Fatalf("names query: GitHub's schema says %v, want no errors\n%s", errs, doc)
		}
		// Every variable declared is sent, and every one sent declared.
		declared := map[string]bool{}
		for _, op := range q.Operations {
			for _, v := range op.VariableDefinitions {
				declared[v.Variable] = true
			}
		}
		if len(declared) != len(vars) {
			t.Errorf("variables declared = %d, want the %d sent:\n%s\n%v", len(declared), len(vars), doc, vars)
		}
		for v := range vars {
			if !declared[v] {
				t.Errorf("variable %s is sent, want it declared too:\n%s", v, doc)
			}
		}
	}
}
