package seed

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The demo world. Tests and the demo command refer to these names rather
// than to literals, so the seed can change without breaking them silently.
const (
	// DemoOrg is the organization that owns the two team repositories.
	DemoOrg = "acme"
	// DemoWidgetsRepo is acme's public repository: 160 issues and pull
	// requests, labels, milestones, templates and every notable case below.
	DemoWidgetsRepo = "widgets"
	// DemoGadgetsRepo is acme's private repository (about 20 issues). A token
	// without access to it gets 404, never 403, as on GitHub.
	DemoGadgetsRepo = "gadgets"
	// DemoNotesOwner and [DemoNotesRepo] name alice's private personal
	// repository (5 issues, no organization issue types).
	DemoNotesOwner = "alice"
	DemoNotesRepo  = "notes"

	// DemoTokenAlice acts as alice: admin on every demo repository.
	DemoTokenAlice = "emu-alice"
	// DemoTokenAliceDeleteRepo is alice's token after `gh auth refresh -s
	// delete_repo`: GitHub deletes a repository only for a classic token
	// with that scope, which [DemoTokenAlice] lacks.
	DemoTokenAliceDeleteRepo = "emu-alice-delete"
	// DemoTokenBob acts as bob: write on acme/widgets and acme/gadgets.
	DemoTokenBob = "emu-bob"
	// DemoTokenCarol acts as carol: read on acme/widgets and acme/gadgets.
	DemoTokenCarol = "emu-carol"
	// DemoTokenDave acts as dave, an outside contributor with no grants:
	// read on public acme/widgets only, 404 on acme/gadgets and alice/notes.
	DemoTokenDave = "emu-dave"

	// DemoWidgetsIssueCount is how many issues and pull requests
	// acme/widgets holds (numbers 1 to DemoWidgetsIssueCount).
	DemoWidgetsIssueCount = 160

	// The numbers below are issue numbers in acme/widgets.

	// DemoFirstPull is the lowest-numbered pull request; [DemoPulls]
	// lists them all.
	DemoFirstPull = 6
	// DemoManyCommentsIssue has 16 comments, enough to page through.
	DemoManyCommentsIssue = 9
	// DemoParentIssue is an epic with four sub-issues, one of which
	// ([DemoNestedParentIssue]) has three of its own: a tree two levels deep.
	DemoParentIssue = 12
	// DemoNestedParentIssue is a sub-issue of [DemoParentIssue] with three
	// sub-issues of its own.
	DemoNestedParentIssue = 14
	// DemoSecondParentIssue is a second tracking issue with four sub-issues.
	DemoSecondParentIssue = 40
	// DemoLockedIssue is locked with the reason "too heated".
	DemoLockedIssue = 31
	// DemoNotPlannedIssue is closed with state_reason not_planned.
	DemoNotPlannedIssue = 47
	// DemoBlockerIssue is closed and blocks [DemoChainIssue].
	DemoBlockerIssue = 53
	// DemoChainIssue is blocked by [DemoBlockerIssue] and blocks
	// [DemoBlockedIssue]: a blocked-by chain of three.
	DemoChainIssue = 54
	// DemoBlockedIssue is blocked by [DemoChainIssue] and by #42, an open
	// sub-issue of [DemoSecondParentIssue].
	DemoBlockedIssue = 55
	// DemoHostileIssue has a body that mixes zero-width characters, bidi
	// controls, Unicode tag characters and an HTML comment carrying an
	// instruction with ordinary Markdown (`a<b`, `&&`, a fenced code block).
	DemoHostileIssue = 58
	// DemoDuplicateIssue is closed with state_reason duplicate, as a
	// duplicate of [DemoManyCommentsIssue].
	DemoDuplicateIssue = 66
	// DemoUntriagedFrom is the first number of the newest issues, which
	// nobody has labeled yet.
	DemoUntriagedFrom = 151
	// DemoTriageIssue is an open bug labeled "status: triage" beside other
	// labels, with comments: the demo tour's label swap replaces its
	// status label and keeps the rest.
	DemoTriageIssue = 123
)

// DemoPulls lists the pull request numbers in acme/widgets, lowest first.
func DemoPulls() []int {
	return []int{DemoFirstPull, 19, 28, 37, 49, 61, 72, 84, 96, 108, 121, 133, 146, 155}
}

// demoStart is when the first seeded issue is filed; every seeded timestamp
// lies between it and [DemoNow].
func demoStart() time.Time { return time.Date(2026, time.January, 5, 9, 0, 0, 0, time.UTC) }

// DemoNow is a clock reading later than every timestamp in the demo seed.
// Tests that want a fixed clock pass func() [time.Time] { return DemoNow() }.
func DemoNow() time.Time { return time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC) }

// SeedDemo fills an empty state with the demo world. It is deterministic:
// the text comes from fixed word lists drawn with a fixed-seed PCG, every
// timestamp is fixed, and the state's clock is replaced while seeding so the
// mutations it goes through (and the timeline events they record) carry
// seeded times. The caller's clock is restored before it returns.
//
// The seed checks its own invariants (issue numbers, labels and types it
// names, links the state accepts); a broken one is an error naming it, which
// New returns, so a command that starts an emulator stops with it.
func SeedDemo(s *state.State) error { return SeedDemoWith(s, DemoOptions{}) }

// DemoOptions vary the demo seed. FleetRepos, when positive, adds the
// fleet organization with that many repositories (fleet.go): the demo
// command asks for [DemoFleetRepos], the reports bench for 200. It is
// opt-in because it doubles what seeding allocates, and most tests start
// an emulator without needing it.
type DemoOptions struct {
	FleetRepos int
}

// SeedDemoWith is [SeedDemo] with options.
func SeedDemoWith(s *state.State, opts DemoOptions) error {
	s.Lock()
	defer s.Unlock()
	sd := &seeder{s: s, rng: rand.New(rand.NewPCG(0x5eed, 0xacce55)), clock: demoStart()}
	saved := s.SetClock(func() time.Time { return sd.clock })
	// The project iterations are dated by the clock the emulator serves
	// with, read before the seed's own replaces it.
	servingNow := saved()
	defer s.SetClock(saved)

	w := sd.world()
	sd.seedWidgets(w)
	sd.seedGadgets(w)
	sd.seedNotes(w)
	sd.seedGit(w)
	sd.run()
	// Teams and issue fields come after the issues: nothing above depends
	// on them, so they take ids after everything else and leave the other
	// objects' ids as they were. Pull request activity asks teams for
	// reviews, so it comes after them.
	sd.seedTeams(w)
	sd.seedIssueFields(w)
	sd.seedPullActivity(w)
	sd.seedReleases(w)
	sd.seedDevelopment(w)
	sd.seedProjects(w, servingNow)
	// Actions runs and the fleet organization come last, so the objects
	// above keep their ids.
	sd.seedAcmeActions(w)
	if opts.FleetRepos > 0 {
		sd.seedFleet(w, opts.FleetRepos)
	}
	for _, r := range []*state.Repo{w.widgets, w.gadgets, w.notes} {
		for _, is := range r.Issues {
			if is.UpdatedAt.After(r.UpdatedAt) {
				r.UpdatedAt = is.UpdatedAt
			}
		}
	}
	return sd.err
}

// seeder carries the seed's clock, its random source and the mutations
// waiting to run.
type seeder struct {
	s     *state.State
	rng   *rand.Rand
	clock time.Time
	ops   []op
	// err is the first broken invariant: run stops at it, and SeedDemo
	// returns it.
	err error
}

// fail records a broken seed invariant, keeping the first.
func (sd *seeder) fail(format string, args ...any) {
	if sd.err == nil {
		sd.err = fmt.Errorf("emulator: demo seed: "+format, args...)
	}
}

// op is one mutation at a seeded moment. Issues are created first, then
// every op runs in time order, so each issue's timeline reads
// chronologically even when ops for it were planned at different places.
type op struct {
	at time.Time
	do func()
}

// latest bounds seeded activity, leaving room before [DemoNow].
func latest() time.Time { return DemoNow().Add(-24 * time.Hour) }

// schedule plans f at t (capped at latest()).
func (sd *seeder) schedule(t time.Time, f func()) {
	if t.After(latest()) {
		t = latest()
	}
	sd.ops = append(sd.ops, op{at: t, do: f})
}

// run executes the planned ops in time order; ties keep planning order.
func (sd *seeder) run() {
	slices.SortStableFunc(sd.ops, func(a, b op) int { return a.at.Compare(b.at) })
	for _, o := range sd.ops {
		if sd.err != nil {
			break
		}
		sd.clock = o.at
		o.do()
	}
	sd.ops = nil
}

// plan is an issue to create and the dated things that happen to it.
type plan struct {
	kind    kind
	title   string
	body    *string
	author  *state.Account
	created time.Time
	acts    []act
	// closing is set once a close (or merge) is planned, so nothing plans
	// a second one.
	closing bool
	// fixable marks an open generated bug a later pull request may fix.
	fixable bool
	// answer is a question's first maintainer reply.
	answer string
}

type act struct {
	at time.Time
	do func(*state.Issue)
}

// at plans f at t, which must not precede the issue's creation.
func (p *plan) at(t time.Time, f func(*state.Issue)) {
	if t.Before(p.created) {
		t = p.created
	}
	p.acts = append(p.acts, act{at: t, do: f})
}

// materialize creates the planned issues in r, in number order, and
// schedules their acts. The issues a body mentions are cross-referenced as
// AddIssue does, but at the issue's creation in the run, so the event sits
// in order on the mentioned issue's timeline.
func (sd *seeder) materialize(r *state.Repo, plans []*plan) {
	for i, p := range plans {
		is := sd.s.NewIssue(r, p.author, p.title, p.body, p.kind == kindPull, p.created)
		if is.Number != i+1 {
			sd.fail("%s issue %d created as #%d", r.FullName(), i+1, is.Number)
		}
		if p.kind == kindPull {
			sd.schedule(p.created, func() { sd.openPull(is) })
		}
		if p.body != nil {
			body, author, created := *p.body, p.author, p.created
			sd.schedule(created, func() { sd.s.CrossReference(is, author, body, created) })
		}
		for _, a := range p.acts {
			sd.schedule(a.at, func() { a.do(is) })
		}
	}
}

// label adds labels by name; a name the repository lacks is a seed bug.
func (sd *seeder) label(is *state.Issue, actor *state.Account, names ...string) {
	for _, n := range names {
		if n == "" {
			continue
		}
		l := is.Repo.FindLabel(n)
		if l == nil {
			sd.fail("%s has no label %q", is.Repo.FullName(), n)
			continue
		}
		sd.s.AddLabels(is, actor, l)
	}
}

// unlabel removes labels by name when present.
func (sd *seeder) unlabel(is *state.Issue, actor *state.Account, names ...string) {
	for _, n := range names {
		if l := is.Repo.FindLabel(n); l != nil {
			sd.s.RemoveLabel(is, actor, l)
		}
	}
}

// comment adds a comment at the seed clock; a comment bumps the issue's
// updated_at on GitHub, which AddComment leaves to its caller.
func (sd *seeder) comment(is *state.Issue, author *state.Account, body string) {
	sd.s.AddComment(is, author, body, sd.s.Now())
	sd.s.Touch(is)
}

// setType sets an organization issue type by name.
func (sd *seeder) setType(is *state.Issue, name string) {
	t := sd.s.FindIssueType(is.Repo, name)
	if t == nil {
		sd.fail("%s has no issue type %q", is.Repo.FullName(), name)
		return
	}
	sd.s.SetType(is, t)
}

// merge closes a pull request: merged with a merge commit on its base
// branch, or closed unmerged.
func (sd *seeder) merge(is *state.Issue, actor *state.Account, merged bool) {
	if merged {
		sd.s.MergePull(is, actor)
		return
	}
	sd.s.ClosePull(is, actor)
}

// link makes child a sub-issue of parent at t.
func (sd *seeder) link(r *state.Repo, parent, child int, actor *state.Account, t time.Time) {
	sd.schedule(t, func() {
		p, c := r.Issue(parent), r.Issue(child)
		if p == nil || c == nil {
			sd.fail("sub-issue #%d of #%d: %s has no such issue", child, parent, r.FullName())
			return
		}
		if err := sd.s.AddSubIssue(p, c, actor, false); err != nil {
			sd.fail("sub-issue #%d of #%d: %v", child, parent, err)
		}
	})
}

// block records that blocker blocks blocked at t.
func (sd *seeder) block(r *state.Repo, blocked, blocker int, actor *state.Account, t time.Time) {
	sd.schedule(t, func() {
		is, by := r.Issue(blocked), r.Issue(blocker)
		if is == nil || by == nil {
			sd.fail("#%d blocked by #%d: %s has no such issue", blocked, blocker, r.FullName())
			return
		}
		if err := sd.s.AddBlockedBy(is, by, actor); err != nil {
			sd.fail("#%d blocked by #%d: %v", blocked, blocker, err)
		}
	})
}

// Random helpers over the seed's fixed-seed source.

func pick[T any](sd *seeder, xs []T) T { return xs[sd.rng.IntN(len(xs))] }

// chance is true pct times in a hundred.
func (sd *seeder) chance(pct int) bool { return sd.rng.IntN(100) < pct }

// between is a duration in [lo, hi).
func (sd *seeder) between(lo, hi time.Duration) time.Duration {
	return lo + time.Duration(sd.rng.Int64N(int64(hi-lo)))
}

func ptr[T any](v T) *T { return &v }
