package graphql_test

import (
	"reflect"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The documents are those GitHub's MCP server v1.9.0 sends for get_teams
// and get_team_members (pkg/github/context_tools.go).

const getTeamsDoc = `query($login: String!) { user(login: $login) { organizations(first: 100) { nodes {
  login teams(first: 100, userLogins: [$login]) { nodes { name slug description } }
} } } }`

const getTeamMembersDoc = `query($org: String!, $teamSlug: String!) { organization(login: $org) { team(slug: $teamSlug) { members(first: 100) { nodes { login } } } } }`

func testGraphQLTeams(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	acme := st.Account("acme")
	erin := st.AddAccount("erin", "Erin", false, gqlEpoch)
	st.AddToken(&state.Token{Value: "emu-erin", Login: "erin"})
	st.AddTeam(acme, "Core Team", nil, st.Account("alice"), st.Account("bob"))
	st.AddTeam(acme, "Docs", new("Writes the manual"), st.Account("carol"), erin)
	st.Unlock()

	type teams struct {
		User struct {
			Organizations struct {
				Nodes []struct {
					Login string
					Teams struct{ Nodes []struct{ Name, Slug string } }
				}
			}
		}
	}
	slugs := func(token, login string) []string {
		var d teams
		w.query(token, getTeamsDoc, map[string]any{"login": login}).ok(t, &d)
		var out []string
		for _, o := range d.User.Organizations.Nodes {
			for _, tm := range o.Teams.Nodes {
				out = append(out, o.Login+"/"+tm.Slug)
			}
		}
		return out
	}
	// erin belongs to acme through the Docs team alone.
	for _, tc := range []struct {
		token, login string
		want         []string
	}{
		{"emu-alice", "alice", []string{"acme/core-team"}},
		{"emu-alice", "carol", []string{"acme/docs"}},
		{"emu-erin", "erin", []string{"acme/docs"}},
	} {
		if got := slugs(tc.token, tc.login); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s's teams as seen by %s = %v, want %v", tc.login, tc.token, got, tc.want)
		}
	}

	var d struct {
		Organization struct {
			Team *struct {
				Members struct{ Nodes []struct{ Login string } }
			}
		}
	}
	w.query("emu-bob", getTeamMembersDoc, map[string]any{"org": "acme", "teamSlug": "CORE-TEAM"}).ok(t, &d)
	if d.Organization.Team == nil {
		t.Errorf("team CORE-TEAM = null, want core-team")
	} else if m := d.Organization.Team.Members.Nodes; len(m) != 2 {
		t.Errorf("core-team members = %+v, want 2", m)
	} else if m[1].Login != "bob" {
		t.Errorf("core-team's second member = %s, want bob", m[1].Login)
	}
	// A team that does not exist is null, without an error.
	res := w.query("emu-bob", getTeamMembersDoc, map[string]any{"org": "acme", "teamSlug": "nobody"})
	if len(res.Errors) != 0 {
		t.Errorf("a missing team: errors %+v, want none", res.Errors)
	}
	checkData(t, "a missing team", res, `{"organization":{"team":null}}`)
}
