package seed

import (
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// A broken seed invariant is an error SeedDemo returns (and New with it),
// not a panic: a label the repository lacks is reported by name, and the
// mutations planned after it do not run.
func TestDemoSeedInvariantsAreErrors(t *testing.T) {
	s := state.NewState(DemoNow)
	sd := &seeder{s: s, clock: demoStart()}
	owner := s.AddAccount("acme", "Acme", true, demoStart())
	r := s.AddRepo(owner, "widgets", "", false, demoStart())
	is := s.NewIssue(r, owner, "first", nil, false, demoStart())

	ran := false
	sd.schedule(demoStart().Add(time.Hour), func() { sd.label(is, owner, "no-such-label") })
	sd.link(r, 1, 7, owner, demoStart().Add(2*time.Hour))
	sd.schedule(demoStart().Add(3*time.Hour), func() { ran = true })
	sd.run()

	if sd.err == nil {
		t.Fatal("err = nil, want the missing label reported")
	}
	got := sd.err.Error()
	if !strings.HasPrefix(got, "emulator: demo seed: ") {
		t.Fatalf("err = %q, want one starting %q", got, "emulator: demo seed: ")
	}
	if !strings.Contains(got, `has no label "no-such-label"`) {
		t.Fatalf("err = %q, want one naming the missing label (%q)", got, `has no label "no-such-label"`)
	}
	if ran {
		t.Fatal("seeding went on after a broken invariant")
	}
	if len(is.Labels) != 0 {
		t.Fatalf("labels %v applied despite the error", is.Labels)
	}
}

// A link to an issue the seed did not create is reported, not dereferenced.
func TestDemoSeedLinkToAMissingIssueIsAnError(t *testing.T) {
	s := state.NewState(DemoNow)
	sd := &seeder{s: s, clock: demoStart()}
	owner := s.AddAccount("acme", "Acme", true, demoStart())
	r := s.AddRepo(owner, "widgets", "", false, demoStart())
	s.NewIssue(r, owner, "first", nil, false, demoStart())
	sd.block(r, 1, 9, owner, demoStart().Add(time.Hour))
	sd.run()
	if sd.err == nil || !strings.Contains(sd.err.Error(), "#1 blocked by #9") {
		t.Fatalf("err = %v, want one naming the missing link", sd.err)
	}
}
