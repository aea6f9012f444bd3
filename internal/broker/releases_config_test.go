package broker_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
)

// The broker reads the release conventions from [tools], and refuses a
// title pattern that captures no version before it starts.
func TestBrokerConfigReleaseSettings(t *testing.T) {
	t.Parallel()
	up := brokertest.StartUpstream(t, 0, true)
	files := brokertest.WriteFiles(t, up, "")
	orig, err := os.ReadFile(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	write := func(keys string) {
		t.Helper()
		b := strings.Replace(string(orig), "[tools]\n", "[tools]\n"+keys, 1)
		if err := os.WriteFile(files.Config, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("release_label = \"ship\"\nrelease_changelog_paths = [\"NEWS.md\"]\n")
	cfg, err := broker.LoadConfig(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Tools.Releases()
	if r.Label != "ship" {
		t.Errorf("releases label = %q, want ship", r.Label)
	}
	if !slices.Equal(r.ChangelogPaths, []string{"NEWS.md"}) {
		t.Errorf("releases changelog paths = %q, want [NEWS.md]", r.ChangelogPaths)
	}
	write("release_title_pattern = \"release v1\"\n")
	if _, err := broker.LoadConfig(files.Config); err == nil || !strings.Contains(err.Error(), "release title pattern") {
		t.Fatalf("a pattern without a group: error = %v, want one saying release title pattern", err)
	}
}

// The broker reads the security alert report's repository tiers from
// [tools.reports.classify], as serve reads [reports.classify], and
// refuses a bad tier before it starts, naming the field.
func TestBrokerConfigClassifyTiers(t *testing.T) {
	t.Parallel()
	up := brokertest.StartUpstream(t, 0, true)
	files := brokertest.WriteFiles(t, up, "")
	orig, err := os.ReadFile(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	write := func(tables string) {
		t.Helper()
		if err := os.WriteFile(files.Config, append(append([]byte{}, orig...), "\n"+tables...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[[tools.reports.classify.tier]]\nname = \"flow\"\nbranches_any = [\"next\"]\n\n[[tools.reports.classify.tier]]\nname = \"rest\"\n")
	cfg, err := broker.LoadConfig(files.Config)
	if err != nil {
		t.Fatalf("a valid [tools.reports.classify]: %v", err)
	}
	got := cfg.Tools.Reports.Classify.Tiers
	if len(got) != 2 {
		t.Errorf("tiers = %+v, want 2: flow (branch next) then rest", got)
	} else {
		if got[0].Name != "flow" {
			t.Errorf("tier[0].Name = %q, want flow", got[0].Name)
		}
		if len(got[0].BranchesAny) != 1 {
			t.Errorf("tier[0].BranchesAny = %q, want one branch", got[0].BranchesAny)
		}
		if got[1].Name != "rest" {
			t.Errorf("tier[1].Name = %q, want rest", got[1].Name)
		}
	}
	write("[[tools.reports.classify.tier]]\nname = \"Flow\"\nfiles_any = [\"a\"]\n")
	_, err = broker.LoadConfig(files.Config)
	if want := "tools.reports.classify.tier[0].name"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a bad tier name: err %v, want one naming %s", err, want)
	}
}
