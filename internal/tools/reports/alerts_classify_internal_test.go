package reports

import (
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/openapiprune"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
)

// classify's query validates against GitHub's full published GraphQL
// schema, not only the emulator's pruned copy that answers it on the
// wire: for the default rules, for rules naming only files or only
// branches, and for the most files and branches a rule set may name.
func TestTierQueryValidatesOnGitHub(t *testing.T) {
	t.Parallel()
	root, err := openapiprune.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	published, overlay, _, err := schema.ReadSources(root)
	if err != nil {
		t.Fatalf("GitHub's GraphQL schema is needed (node_modules/@octokit/graphql-schema): %v", err)
	}
	s, err := schema.Load(published, overlay)
	if err != nil {
		t.Fatal(err)
	}
	many := func(n int, prefix string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = prefix + string(rune('a'+i))
		}
		return out
	}
	d := tiers.Default()
	cases := map[string][2][]string{
		"default":  {d.Files(), d.Branches()},
		"files":    {[]string{"go.mod"}, nil},
		"branches": {nil, []string{"next"}},
		"most":     {many(tiers.MaxFiles, "f"), many(tiers.MaxBranches, "b")},
	}
	for name, c := range cases {
		doc := tierQuery(c[0], c[1])
		if _, errs := gqlparser.LoadQueryWithRules(s, doc, graphql.ValidationRules(s)); len(errs) > 0 {
			t.Errorf("%s: GitHub refuses %s: %v", name, doc, errs)
		}
	}
}
