package broker_test

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// reposLine is what these tests read of an audit line, as JSON: the
// repositories a call named and read.
type reposLine struct {
	Tool         string   `json:"tool"`
	Owner        string   `json:"owner"`
	Outcome      string   `json:"outcome"`
	Code         string   `json:"code"`
	Repos        []string `json:"repos"`
	NamesOmitted int      `json:"names_omitted"`
	ReposRead    *int     `json:"repos_read"`
}

// reposLines reads the audit lines of tool, in order.
func reposLines(t *testing.T, path, tool string) []reposLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []reposLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l reposLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		if l.Tool == tool {
			out = append(out, l)
		}
	}
	return out
}

// An owner-wide report names no repository in its arguments, so its
// audit line lists the repositories it read: the first of them in name
// order, at most 50 and no more than the line's share for names holds,
// the rest counted in names_omitted, and how many it read in repos_read.
func TestReportAuditLineListsTheRepositoriesReadCapped(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{FleetRepos: 60, Tools: `toolsets = ["reports"]`})
	var want []string
	st := d.Up.Emu.State()
	st.Lock()
	tok := st.Token(d.Canary.Value)
	for _, r := range st.Repos() {
		if r.Owner.Login != emulator.FleetOrg {
			continue
		}
		tok.Perms[strings.ToLower(r.FullName())] = state.PermRead
		if !r.Archived {
			want = append(want, r.FullName())
		}
	}
	st.Unlock()
	slices.SortFunc(want, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	if len(want) <= 50 {
		t.Fatalf("the fleet has %d repositories that are not archived, want more than 50 to cap", len(want))
	}

	cs := d.Connect(t)
	d.MustCall(t, cs, "github_report_unlabeled", map[string]any{"owner": emulator.FleetOrg, "max_repos": 200, "max_api_calls": 1000})
	lines := reposLines(t, d.Audit, "github_report_unlabeled")
	if len(lines) != 1 {
		t.Fatalf("%d audit lines of the report, want 1", len(lines))
	}
	l := lines[0]
	if len(l.Repos) == 0 {
		t.Fatal("repos is empty, want the first repositories read")
	}
	if len(l.Repos) > 50 {
		t.Errorf("%d repos listed, want at most 50", len(l.Repos))
	}
	if !slices.Equal(l.Repos, want[:len(l.Repos)]) {
		t.Errorf("repos = %v, want the first %d of %v", l.Repos, len(l.Repos), want)
	}
	if got := l.NamesOmitted; got != len(want)-len(l.Repos) {
		t.Errorf("names_omitted = %d, want %d", got, len(want)-len(l.Repos))
	}
	if l.ReposRead == nil {
		t.Fatal("repos_read is absent")
	}
	if got := *l.ReposRead; got != len(want) {
		t.Errorf("repos_read = %d, want %d", got, len(want))
	}
}

// A repository named but not there is listed as named and not counted as
// read; one named and read is both.
func TestReportAuditLineTellsNamedFromRead(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Tools: `toolsets = ["reports"]`})
	cs := d.Connect(t)
	d.MustCall(t, cs, "github_report_ci_status", map[string]any{"owner": "acme", "repo": "widgets"})
	res, err := d.Call(t.Context(), cs, "github_report_unlabeled", map[string]any{"owner": "acme", "repo": "no-such-repo"})
	if err != nil {
		t.Fatalf("a report on a missing repository: %v", err)
	}
	if !res.IsError {
		t.Fatalf("a report on a missing repository: isError = false, want an error result")
	}
	for _, c := range []struct {
		tool  string
		repos []string
		read  int
	}{
		{"github_report_ci_status", []string{"acme/widgets"}, 1},
		{"github_report_unlabeled", []string{"acme/no-such-repo"}, 0},
	} {
		lines := reposLines(t, d.Audit, c.tool)
		if len(lines) != 1 {
			t.Fatalf("%s: %d audit lines, want 1", c.tool, len(lines))
		}
		l := lines[0]
		if !slices.Equal(l.Repos, c.repos) {
			t.Errorf("%s: repos = %v, want %v", c.tool, l.Repos, c.repos)
		}
		if l.ReposRead == nil {
			t.Errorf("%s: repos_read is absent", c.tool)
			continue
		}
		if got := *l.ReposRead; got != c.read {
			t.Errorf("%s: repos_read = %d, want %d", c.tool, got, c.read)
		}
	}
}
