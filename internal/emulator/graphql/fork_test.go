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
	if len(f) != 1 || f[0].NameWithOwner != "dave/widgets" || !f[0].IsFork || f[0].Parent == nil || f[0].Parent.NameWithOwner != "acme/widgets" {
		t.Errorf("dave's forks = %+v", f)
	}
	if n := len(d.RepositoryOwner.Sources.Nodes); n != 0 {
		t.Errorf("dave has %d repositories of his own, want none", n)
	}
}
