package graphql

import "testing"

func TestOnlyReturnTypeConflicts(t *testing.T) {
	schema, err := LoadSchema()
	if err != nil {
		t.Fatal(err)
	}
	const tail = ". Use different aliases on the fields to fetch both if this was intentional."
	for _, tc := range []struct {
		reason string
		drop   bool
	}{
		{`they return conflicting types "IssueState!" and "PullRequestState!"`, true},
		{`they return conflicting types "String" and "String!"`, true},
		{`subfields "s" conflict because they return conflicting types "IssueState!" and "PullRequestState!"`, true},
		// Sub-selections of these were never compared.
		{`they return conflicting types "[Label]" and "Label"`, false},
		{`subfields "s" conflict because they return conflicting types "IssueState!" and "PullRequestState!" and subfields "t" conflict because "title" and "body" are different fields`, false},
		{`they have differing arguments`, false},
		{`"login" and "name" are different fields`, false},
	} {
		msg := `Fields "x" conflict because ` + tc.reason + tail
		if got := onlyReturnTypeConflicts(schema, msg); got != tc.drop {
			t.Errorf("%s: dropped %v, want %v", tc.reason, got, tc.drop)
		}
	}
	if onlyReturnTypeConflicts(schema, `Variable "$x" is never used.`) {
		t.Error("an unrelated error was dropped")
	}
}
