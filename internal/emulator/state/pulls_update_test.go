package state

import "testing"

// Who may update a pull request's head branch: write access to the base
// repository, and for a fork's branch also the fork or the author's leave
// for maintainers to edit it.
func TestMayUpdateBranch(t *testing.T) {
	acme, dave := &Account{Login: "acme", IsOrg: true}, &Account{Login: "dave"}
	base := &Repo{Owner: acme, Name: "widgets"}
	fork := &Repo{Owner: dave, Name: "widgets", Parent: base}
	writer := &Token{Login: "bob", Perms: map[string]Permission{"acme/widgets": PermWrite}}
	reader := &Token{Login: "carol", Perms: map[string]Permission{"acme/widgets": PermRead}}
	forkOwner := &Token{Login: "dave"}
	for _, c := range []struct {
		name       string
		head       *Repo
		maintainer bool
		token      *Token
		want       bool
	}{
		{"a writer, a branch of the base", base, false, writer, true},
		{"a reader, a branch of the base", base, false, reader, false},
		{"a writer, a fork's branch open to maintainers", fork, true, writer, true},
		{"a writer, a fork's branch closed to maintainers", fork, false, writer, false},
		{"the fork's owner without write on the base", fork, true, forkOwner, false},
	} {
		is := &Issue{Repo: base, Pull: &PullRequest{HeadRepo: c.head, MaintainerCanModify: c.maintainer}}
		if got := MayUpdateBranch(is, c.token); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
