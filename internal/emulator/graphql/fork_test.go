package graphql_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// dave's fork of acme/widgets, as GraphQL lists it.
func TestGraphQLForks(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	var d struct {
		RepositoryOwner struct {
			Forks, Sources struct {
				Nodes []struct {
					NameWithOwner string
					IsFork        bool
					Parent        *struct{ NameWithOwner string }
				}
			}
		}
	}
	w.query(seed.DemoTokenDave, `{ repositoryOwner(login: "dave") {
		forks: repositories(first: 10, isFork: true) { nodes { nameWithOwner isFork parent { nameWithOwner } } }
		sources: repositories(first: 10, isFork: false) { nodes { nameWithOwner isFork parent { nameWithOwner } } }
	} }`, nil).ok(t, &d)
	f := d.RepositoryOwner.Forks.Nodes
	if len(f) != 1 {
		t.Errorf("dave's forks = %+v, want 1", f)
	} else {
		if f[0].NameWithOwner != "dave/widgets" {
			t.Errorf("dave's fork = %s, want dave/widgets", f[0].NameWithOwner)
		}
		if !f[0].IsFork {
			t.Errorf("dave's fork isFork = false, want true")
		}
		if f[0].Parent == nil {
			t.Errorf("dave's fork parent = null, want acme/widgets")
		} else if f[0].Parent.NameWithOwner != "acme/widgets" {
			t.Errorf("dave's fork parent = %s, want acme/widgets", f[0].Parent.NameWithOwner)
		}
	}
	if n := len(d.RepositoryOwner.Sources.Nodes); n != 0 {
		t.Errorf("dave has %d repositories of his own, want none", n)
	}
}
