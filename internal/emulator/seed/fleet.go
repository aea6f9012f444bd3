package seed

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The fleet organization: many small repositories under one owner, for
// reports that span an owner's repositories. Repository i is the same
// whatever the count (each draws from its own fixed-seed source), so the
// demo's 60 are the first 60 of the bench's 200.
const (
	// FleetOrg is the organization that owns the fleet repositories.
	FleetOrg = "fleet"
	// DemoFleetRepos is how many repositories the demo seed gives it.
	DemoFleetRepos = 60
	// SecretCanary is in every secret value planted in a secret scanning
	// alert: a report must never return, log or audit it.
	SecretCanary = "EMUCANARY7f3a"
	// FleetCanarySecret is the first planted secret, a classic personal
	// access token as GitHub's secret scanning finds one.
	FleetCanarySecret = "ghp_" + SecretCanary + "0000SecretValueDoNotLeak"
	// FleetReleaseLabel is the label release pull requests carry.
	FleetReleaseLabel = "release"
	// FleetTokenPublicOnly acts as alice through a classic token with the
	// public_repo and read:org scopes only: the organization alert lists
	// refuse it (they need repo or security_events), and of the
	// repositories' lists only the public repositories' answer.
	FleetTokenPublicOnly = "emu-alice-public"
)

// FleetRepoName is the name of the fleet's i-th repository (from 0).
func FleetRepoName(i int) string {
	return fmt.Sprintf("%s-%s-%02d", fleetKinds[i%len(fleetKinds)], fleetWords[(i/len(fleetKinds))%len(fleetWords)], i)
}

var (
	fleetKinds = []string{"svc", "lib", "web", "tool", "infra"}
	fleetWords = []string{"billing", "catalog", "ledger", "router", "search", "notify", "auth", "ingest", "report", "export", "vault", "queue"}
)

// FleetRepo describes the i-th fleet repository's settings, which tests
// read rather than repeat: what is archived, private, turned off.
type FleetRepo struct {
	Name           string
	Private        bool
	Archived       bool
	IssuesDisabled bool
	// Security settings (state.RepoSecurity's switches).
	DependabotOff, CodeScanningOff, SecretScanningOff, AdvancedSecurityOff bool
	// Release is the version of its open release pull request ("" for
	// none); ReleaseChangelog is where that PR's head holds the entry:
	// "docs" (docs/changelog/v{major}/v{version}.md), "changelog"
	// (CHANGELOG.md) or "" (missing).
	Release          string
	ReleaseChangelog string
}

// Fleet is the spec of the i-th fleet repository.
func Fleet(i int) FleetRepo {
	f := FleetRepo{Name: FleetRepoName(i), Private: i%5 == 4, Archived: i%10 == 9, IssuesDisabled: i%15 == 7,
		DependabotOff: i%12 == 5, CodeScanningOff: i%4 == 1, SecretScanningOff: i%6 == 2}
	f.AdvancedSecurityOff = f.Private && i%3 == 0
	if i%7 == 3 && !f.Archived {
		f.Release = fmt.Sprintf("v%d.%d.0", 1+i%3, i%5)
		f.ReleaseChangelog = []string{"docs", "changelog", ""}[(i/7)%3]
	}
	return f
}

// fleetSeeder builds one fleet repository from its own random source.
type fleetSeeder struct {
	sd   *seeder
	w    *world
	org  *state.Account
	bot  *state.Account
	rng  *rand.Rand
	spec FleetRepo
	r    *state.Repo
	i    int
}

// seedFleet creates the fleet organization with n repositories; alice
// owns it, carol is its security manager, bob a member with write access
// everywhere (so the organization's alert lists refuse him and the
// repositories' answer).
func (sd *seeder) seedFleet(w *world, n int) {
	s := sd.s
	org := s.AddAccount(FleetOrg, "Fleet Operations", true, day(2020, time.August, 3))
	s.SetOrgRole(org, w.alice, state.OrgRoleOwner)
	s.SetOrgRole(org, w.carol, state.OrgRoleSecurityManager)
	bot := s.AddBotAccount("copilot-pull-request-reviewer", day(2024, time.October, 29))
	public := &state.Token{Value: FleetTokenPublicOnly, Login: "alice", Scopes: []string{"public_repo", "read:org"}, Perms: map[string]state.Permission{}}
	s.AddToken(public)
	perms := map[*state.Token]state.Permission{s.Token(DemoTokenAlice): state.PermAdmin, s.Token(DemoTokenBob): state.PermWrite,
		s.Token(DemoTokenCarol): state.PermRead, s.Token(FleetTokenPublicOnly): state.PermAdmin}
	for i := range n {
		spec := Fleet(i)
		created := day(2021, time.January, 4).Add(time.Duration(i) * 79 * time.Hour)
		r := s.AddRepo(org, spec.Name, "Fleet "+strings.ReplaceAll(spec.Name, "-", " ")+" service", spec.Private, created)
		r.Archived, r.IssuesDisabled = spec.Archived, spec.IssuesDisabled
		r.Collaborators = []string{"alice", "bob", "carol"}
		for tok, p := range perms {
			tok.Perms[strings.ToLower(r.FullName())] = p
		}
		fs := &fleetSeeder{sd: sd, w: w, org: org, bot: bot, rng: rand.New(rand.NewPCG(0xf1ee7, uint64(i))), spec: spec, r: r, i: i}
		fs.build()
	}
}

func (fs *fleetSeeder) at(days int, hours int) time.Time {
	t := fs.r.CreatedAt.AddDate(0, 0, days).Add(time.Duration(hours) * time.Hour)
	if t.After(latest()) {
		t = latest().Add(-time.Duration(fs.i) * time.Minute)
	}
	fs.sd.clock = t
	return t
}

func (fs *fleetSeeder) build() {
	s, r, spec := fs.sd.s, fs.r, fs.spec
	r.Security = state.RepoSecurity{DependabotOff: spec.DependabotOff, CodeScanningOff: spec.CodeScanningOff,
		SecretScanningOff: spec.SecretScanningOff, AdvancedSecurityOff: spec.AdvancedSecurityOff}
	r.Files = map[string]string{
		"README.md":                "# " + r.Name + "\n\nPart of the fleet. See CHANGELOG.md for releases.\n",
		"go.mod":                   "module github.com/fleet/" + r.Name + "\n\ngo 1.24\n",
		"main.go":                  "package main\n\nfunc main() {\n\tserve()\n}\n",
		"CHANGELOG.md":             "# Changelog\n\n## v0.9.0\n\n- First tracked release.\n",
		".github/workflows/ci.yml": "name: CI\non: [push, pull_request]\njobs:\n  build: {runs-on: ubuntu-latest}\n  test: {runs-on: ubuntu-latest}\n  lint: {runs-on: ubuntu-latest}\n",
	}
	fs.at(0, 0)
	s.EnsureGit(r)
	fs.sd.addLabels(r, []labelSpec{
		{"bug", "d73a4a", "Something isn't working", true},
		{"enhancement", "a2eeef", "New feature or request", true},
		{"documentation", "0075ca", "Improvements or additions to documentation", true},
		{"dependencies", "0366d6", "Pull requests that update a dependency file", false},
		{FleetReleaseLabel, "ededed", "A release pull request", false},
	})
	if !spec.IssuesDisabled {
		fs.issues()
	}
	fs.pulls()
	fs.alerts()
}

var fleetIssueTitles = []string{
	"Health check returns 200 while the database is down",
	"Document the retry settings",
	"Metrics endpoint leaks goroutines under load",
	"Support configuring the listen address from the environment",
	"Flaky test: TestShutdownDrainsQueue",
	"Upgrade the base image",
	"Log lines lack the request id",
}

// issues opens a few issues: the first ones labelled, the newest left
// unlabelled, and one closed.
func (fs *fleetSeeder) issues() {
	s, r := fs.sd.s, fs.r
	authors := []*state.Account{fs.w.alice, fs.w.bob, fs.w.carol, fs.w.dave}
	n := 3 + fs.rng.IntN(4)
	for k := range n {
		title := fleetIssueTitles[(fs.i+k)%len(fleetIssueTitles)]
		at := fs.at(3+k*5, fs.rng.IntN(12))
		author := authors[(fs.i+k)%len(authors)]
		if r.Private && author == fs.w.dave { // dave cannot see a private repository
			author = fs.w.alice
		}
		is := s.NewIssue(r, author, title, ptr("Seen in "+r.Name+".\n"), false, at)
		switch {
		case k < n/2:
			fs.sd.label(is, fs.w.alice, []string{"bug", "enhancement", "documentation"}[k%3])
		case k == n-1 && fs.i%3 == 0:
			s.Close(is, fs.w.alice, "completed")
		}
	}
}

// pulls opens the pull requests, each with a CI run: green, red (a failing
// test step with a log tail), pending, cancelled, a draft, timed out, and
// the release pull request when the spec has one. Which kinds a
// repository gets rotates with its index.
func (fs *fleetSeeder) pulls() {
	kinds := []string{"green", "red", "pending", "cancelled", "draft", "timeout"}
	for k := range 2 + fs.i%2 {
		fs.pull(kinds[(fs.i+k)%len(kinds)], k)
	}
	if fs.spec.Release != "" {
		fs.releasePull()
	}
	fs.maintenanceReleases()
}

func (fs *fleetSeeder) pull(kind string, k int) {
	s, r := fs.sd.s, fs.r
	at := fs.at(40+k*3, fs.rng.IntN(20))
	branch := fmt.Sprintf("change-%d", k+1)
	author := []*state.Account{fs.w.bob, fs.w.alice, fs.w.carol}[(fs.i+k)%3]
	title, label, file, content := "Handle empty batches in the ingest loop", "bug", "main.go", "package main\n\nfunc main() {\n\tserve()\n\tdrain()\n}\n"
	switch k % 3 {
	case 1:
		title, label, file, content = "Add a readiness probe", "enhancement", "probe.go", "package main\n\nfunc ready() bool { return true }\n"
	case 2:
		title, label, file, content = "Bump golang.org/x/net from 0.30.0 to 0.33.0", "dependencies", "go.mod", "module github.com/fleet/"+r.Name+"\n\ngo 1.24\n\nrequire golang.org/x/net v0.33.0\n"
	}
	c := s.Commit(r, branch, author, at.Add(-time.Hour), title, map[string]*string{file: &content})
	is := s.NewIssue(r, author, title, ptr("## Summary\n\n"+title+".\n"), true, at)
	s.OpenPull(is, r, branch, state.RepoDefaultBranch, kind == "draft")
	if (fs.i+k)%2 == 0 { // every other pull request is left unlabelled
		fs.sd.label(is, author, label)
	}
	fs.ciRun(is, c, kind, at.Add(2*time.Minute))
	if kind == "red" && fs.i%4 == 0 {
		fs.botThread(is, file)
	}
}

// releasePull opens "release: vX.Y.Z" with the changelog entry where the
// spec puts it (or none).
func (fs *fleetSeeder) releasePull() {
	s, r, v := fs.sd.s, fs.r, fs.spec.Release
	at := fs.at(60, 3)
	writes := map[string]*string{"VERSION": ptr(strings.TrimPrefix(v, "v") + "\n")}
	entry := "## " + v + "\n\n- Readiness probe.\n- Empty batches no longer stall ingest.\n"
	switch fs.spec.ReleaseChangelog {
	case "docs":
		major, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
		writes["docs/changelog/v"+major+"/"+v+".md"] = ptr("# " + v + "\n\n" + entry)
	case "changelog":
		writes["CHANGELOG.md"] = ptr("# Changelog\n\n" + entry + "\n## v0.9.0\n\n- First tracked release.\n")
	}
	branch := "release/" + v
	c := s.Commit(r, branch, fs.w.alice, at.Add(-time.Hour), "Prepare "+v, writes)
	is := s.NewIssue(r, fs.w.alice, "release: "+v, ptr("Release "+v+".\n"), true, at)
	s.OpenPull(is, r, branch, state.RepoDefaultBranch, false)
	fs.sd.label(is, fs.w.alice, FleetReleaseLabel)
	fs.ciRun(is, c, "green", at.Add(2*time.Minute))
}

// botThread has an automated reviewer leave a comment thread on the
// pull request, unresolved.
func (fs *fleetSeeder) botThread(is *state.Issue, file string) {
	s := fs.sd.s
	at := fs.sd.clock.Add(30 * time.Minute)
	rv := s.AddReview(is, fs.bot, "COMMENTED", "Copilot reviewed 1 out of 1 changed files in this pull request and generated 1 comment.", at)
	line := 0
	for _, fc := range is.Pull.Changes() {
		if fc.Path == file {
			line = state.FirstAddedLine(fc.Patch)
		}
	}
	if line > 0 {
		s.AddReviewComment(rv, nil, file, line, "This call can block forever when the queue is closed; consider a context with a deadline.", at)
	}
}
