package reports_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/server/servertest"
)

// A report over an owner's repositories leaves out those the caller may
// not read: the unlabeled report does not scan them, the organization's
// alert lists and the release search lose their rows, and each counts
// what it left out in withheld.
func TestReportsLeaveOutRepositoriesOutsideTheReadGrant(t *testing.T) {
	t.Parallel()
	const n = releaseFleet
	plain := fleetEnv(t, n, servertest.Options{})
	release := releaseReport(t, plain, map[string]any{"owner": "fleet"})
	if len(release.Rows) == 0 {
		t.Fatal("no release pull request in the fleet: the test proves nothing")
	}
	hidden := release.Rows[0].Repo
	count := func(repos []string) int {
		k := 0
		for _, r := range repos {
			if r == hidden {
				k++
			}
		}
		return k
	}
	var releaseRepos, alertRepos, unlabeledRepos []string
	for _, r := range release.Rows {
		releaseRepos = append(releaseRepos, r.Repo)
	}
	alertsAll := alerts(t, plain, map[string]any{"owner": "fleet", "alert_limit": 1000})
	for _, r := range alertsAll.Alerts {
		alertRepos = append(alertRepos, r.Repo)
	}
	if count(alertRepos) == 0 {
		t.Fatalf("fleet/%s has no open alert: the test proves nothing", hidden)
	}
	unlabeled := report(t, plain, map[string]any{"owner": "fleet", "max_repos": 200, "max_api_calls": 1000})
	for _, r := range unlabeled.Rows {
		unlabeledRepos = append(unlabeledRepos, r.Repo)
	}

	id := caller.Identity{ID: "http:most-of-fleet", Readable: func(owner, repo string) bool { return owner == "fleet" && repo != hidden }}
	env := fleetEnv(t, n, servertest.Options{Wrap: servertest.AsCaller(id)})

	gotRelease := releaseReport(t, env, map[string]any{"owner": "fleet"})
	var got []string
	for _, r := range gotRelease.Rows {
		got = append(got, r.Repo)
	}
	if k := count(got); k != 0 {
		t.Errorf("release: %d rows of fleet/%s, want 0", k, hidden)
	}
	if want := count(releaseRepos); gotRelease.Withheld != want {
		t.Errorf("release: withheld = %d, want %d", gotRelease.Withheld, want)
	}

	gotAlerts := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	got = got[:0]
	for _, r := range gotAlerts.Alerts {
		got = append(got, r.Repo)
	}
	for _, b := range gotAlerts.ByRepo {
		if b.Repo == hidden {
			t.Errorf("alerts: by_repo has fleet/%s (%+v), want it left out", hidden, b)
		}
	}
	if k := count(got); k != 0 {
		t.Errorf("alerts: %d rows of fleet/%s, want 0", k, hidden)
	}
	if want := count(alertRepos); gotAlerts.Withheld != want {
		t.Errorf("alerts: withheld = %d, want %d", gotAlerts.Withheld, want)
	}

	gotUnlabeled := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200, "max_api_calls": 1000})
	got = got[:0]
	for _, r := range gotUnlabeled.Rows {
		got = append(got, r.Repo)
	}
	if k := count(got); k != 0 {
		t.Errorf("unlabeled: %d rows of fleet/%s, want 0", k, hidden)
	}
	if gotUnlabeled.Withheld != 1 {
		t.Errorf("unlabeled: withheld = %d, want 1", gotUnlabeled.Withheld)
	}
	if want := unlabeled.Scanned.Repos - 1; gotUnlabeled.Scanned.Repos != want {
		t.Errorf("unlabeled: scanned %d repositories, want %d", gotUnlabeled.Scanned.Repos, want)
	}
	if want := len(unlabeledRepos) - count(unlabeledRepos); len(got) != want {
		t.Errorf("unlabeled: %d rows, want %d", len(got), want)
	}
}
