package seed

import (
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// world holds the seeded accounts, repositories and milestones the issue
// plans refer to.
type world struct {
	acme, alice, bob, carol, dave *state.Account
	widgets, gadgets, notes       *state.Repo
	// widgets milestones: v1.4.0 (closed), v1.5.0, v2.0.0.
	v140, v150, v200 *state.Milestone
	hub32            *state.Milestone // gadgets
}

// maintainers may label, assign and close in acme's repositories.
func (w *world) maintainers() []*state.Account { return []*state.Account{w.alice, w.bob} }

// members are acme's people, the ones that can be assigned.
func (w *world) members() []*state.Account { return []*state.Account{w.alice, w.bob, w.carol} }

func day(year int, month time.Month, d int) time.Time {
	return time.Date(year, month, d, 0, 0, 0, 0, time.UTC)
}

// world creates accounts, repositories, tokens, labels, milestones, issue
// types and repository files.
func (sd *seeder) world() *world {
	s := sd.s
	w := &world{}
	w.acme = s.AddAccount("acme", "Acme Corporation", true, day(2019, time.April, 2))
	w.alice = s.AddAccount("alice", "Alice Anderson", false, day(2014, time.June, 11))
	w.bob = s.AddAccount("bob", "Bob Brennan", false, day(2016, time.February, 23))
	w.carol = s.AddAccount("carol", "Carol Chen", false, day(2018, time.September, 7))
	w.dave = s.AddAccount("dave", "Dave Diaz", false, day(2021, time.November, 30))
	// alice owns acme (its admin in the demo's description), fleet or not.
	s.SetOrgRole(w.acme, w.alice, state.OrgRoleOwner)

	w.widgets = s.AddRepo(w.acme, DemoWidgetsRepo,
		"Embeddable dashboard widgets (charts, tables, gauges, maps) with a REST API and the widgetctl CLI",
		false, day(2021, time.March, 15))
	w.gadgets = s.AddRepo(w.acme, DemoGadgetsRepo,
		"Firmware and companion app for the Acme Gadget Hub (internal)", true, day(2023, time.May, 8))
	w.notes = s.AddRepo(w.alice, DemoNotesRepo, "Personal notes, reading lists and talk drafts", true, day(2024, time.January, 20))
	for _, r := range []*state.Repo{w.widgets, w.gadgets} {
		r.Collaborators = []string{"alice", "bob", "carol"}
	}
	w.notes.Collaborators = []string{"alice"}

	widgets, gadgets, notes := w.widgets.FullName(), w.gadgets.FullName(), w.notes.FullName()
	// The demo tokens stand for classic personal access tokens with the
	// scopes GitHub's CLI asks for (repo, read:org); what each may do is
	// still decided per repository by Perms.
	s.AddToken(&state.Token{Value: DemoTokenAlice, Login: "alice", Scopes: demoScopes(),
		Perms: map[string]state.Permission{widgets: state.PermAdmin, gadgets: state.PermAdmin, notes: state.PermAdmin}})
	s.AddToken(&state.Token{Value: DemoTokenAliceDeleteRepo, Login: "alice", Scopes: append(demoScopes(), "delete_repo"),
		Perms: map[string]state.Permission{widgets: state.PermAdmin, gadgets: state.PermAdmin, notes: state.PermAdmin}})
	s.AddToken(&state.Token{Value: DemoTokenBob, Login: "bob", Scopes: demoScopes(),
		Perms: map[string]state.Permission{widgets: state.PermWrite, gadgets: state.PermWrite}})
	s.AddToken(&state.Token{Value: DemoTokenCarol, Login: "carol", Scopes: demoScopes(),
		Perms: map[string]state.Permission{widgets: state.PermRead, gadgets: state.PermRead}})
	// dave has no grants: public repositories fall back to read, private
	// ones to none.
	s.AddToken(&state.Token{Value: DemoTokenDave, Login: "dave", Scopes: demoScopes(), Perms: map[string]state.Permission{}})

	sd.issueTypes(w.acme)
	sd.widgetsLabels(w.widgets)
	sd.gadgetsLabels(w.gadgets)
	sd.notesLabels(w.notes)

	w.v140 = s.AddMilestone(w.widgets, "v1.4.0", ptr("Export job queue, theme tokens and the first half of the accessibility fixes."),
		ptr(time.Date(2026, time.February, 27, 8, 0, 0, 0, time.UTC)), w.alice, day(2025, time.December, 8))
	w.v150 = s.AddMilestone(w.widgets, "v1.5.0", ptr("Streaming exports, chart library v5 and tooltip rework."),
		ptr(time.Date(2026, time.July, 31, 7, 0, 0, 0, time.UTC)), w.alice, day(2026, time.February, 2))
	w.v200 = s.AddMilestone(w.widgets, "v2.0.0", ptr("Breaking changes: drop the v1 embed snippet, new plugin API, removal of deprecated options."),
		ptr(time.Date(2026, time.November, 30, 8, 0, 0, 0, time.UTC)), w.alice, day(2026, time.April, 20))
	w.hub32 = s.AddMilestone(w.gadgets, "Hub firmware 3.2", ptr("OTA reliability and the new pairing flow."),
		ptr(time.Date(2026, time.June, 15, 7, 0, 0, 0, time.UTC)), w.bob, day(2026, time.January, 26))
	// v1.4.0 shipped on 3 March, a few days after its due date.
	shipped := time.Date(2026, time.March, 3, 16, 20, 0, 0, time.UTC)
	sd.schedule(shipped, func() {
		w.v140.State, w.v140.ClosedAt, w.v140.UpdatedAt = "closed", &shipped, shipped
	})

	w.widgets.Files = widgetsFiles()
	w.gadgets.Files = map[string]string{"README.md": gadgetsReadme}
	w.notes.Files = map[string]string{"README.md": notesReadme}
	return w
}

// issueTypes creates GitHub's three default organization issue types.
func (sd *seeder) issueTypes(org *state.Account) {
	created := day(2025, time.March, 10)
	sd.s.AddIssueType(org, "Task", ptr("A specific piece of work"), ptr("yellow"), created)
	sd.s.AddIssueType(org, "Bug", ptr("An unexpected problem or behavior"), ptr("red"), created)
	sd.s.AddIssueType(org, "Feature", ptr("A request, idea, or new functionality"), ptr("blue"), created)
}

type labelSpec struct {
	name, color, description string
	// builtin marks GitHub's default labels, which it reports with
	// "default": true.
	builtin bool
}

func (sd *seeder) addLabels(r *state.Repo, specs []labelSpec) {
	for _, l := range specs {
		lb := sd.s.AddLabel(r, l.name, l.color, ptr(l.description))
		lb.Default = l.builtin
	}
}

func (sd *seeder) widgetsLabels(r *state.Repo) {
	sd.addLabels(r, []labelSpec{
		{"bug", "d73a4a", "Something isn't working", true},
		{"documentation", "0075ca", "Improvements or additions to documentation", true},
		{"duplicate", "cfd3d7", "This issue or pull request already exists", true},
		{"enhancement", "a2eeef", "New feature or request", true},
		{"good first issue", "7057ff", "Good for newcomers", true},
		{"help wanted", "008672", "Extra attention is needed", true},
		{"invalid", "e4e669", "This doesn't seem right", true},
		{"question", "d876e3", "Further information is requested", true},
		{"wontfix", "ffffff", "This will not be worked on", true},
		{"status: triage", "fbca04", "Needs a maintainer to confirm and prioritize", false},
		{"status: in progress", "0e8a16", "Someone is working on this", false},
		{"status: blocked", "b60205", "Waiting on another issue or an external change", false},
		{"priority: high", "d93f0b", "Affects many users or blocks a release", false},
		{"priority: low", "c2e0c6", "Nice to have; no release depends on it", false},
		{"area: api", "1d76db", "REST API, exports, webhooks and the CLI", false},
		{"area: ui", "5319e7", "Widgets, the editor and the embed SDK", false},
		{"dependencies", "0366d6", "Pull requests that update a dependency file", false},
	})
}

func (sd *seeder) gadgetsLabels(r *state.Repo) {
	sd.addLabels(r, []labelSpec{
		{"bug", "d73a4a", "Something isn't working", true},
		{"feature", "a2eeef", "New capability for the hub or the app", false},
		{"question", "d876e3", "Further information is requested", true},
		{"wontfix", "ffffff", "This will not be worked on", true},
		{"firmware", "1d76db", "Hub firmware (ESP32)", false},
		{"app", "5319e7", "Companion app (iOS and Android)", false},
		{"hardware", "c5def5", "Board revisions, enclosures and sensors", false},
		{"needs repro", "fbca04", "We could not reproduce this yet", false},
		{"blocked", "b60205", "Waiting on a supplier or another issue", false},
	})
}

func (sd *seeder) notesLabels(r *state.Repo) {
	sd.addLabels(r, []labelSpec{
		{"idea", "fef2c0", "Something to think about", false},
		{"todo", "0e8a16", "Something to do", false},
		{"reading", "c5def5", "Papers, books and posts", false},
	})
}

// demoScopes are the OAuth scopes of the demo seed's classic tokens: the
// minimum GitHub's CLI checks for ("repo" and "read:org"), so `gh auth
// status` reports no missing scope, and "project", which Projects (v2)
// need ([DemoTokenAliceNoProject] is the token without it).
func demoScopes() []string { return []string{"repo", "read:org", "project"} }
