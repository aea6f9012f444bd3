package seed

import (
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// seedPullActivity gives the demo pull requests their reviews, review
// threads, check runs and statuses once their fates are known: merged ones
// were approved (one thread resolved on the way) with green checks, the
// closed one had changes requested and a failing test, and the open ones
// cycle through the states a maintainer meets: changes requested and a
// push that outdates the thread, reviews requested with checks still
// running, approved and green, and a draft.
func (sd *seeder) seedPullActivity(w *world) {
	team := sd.s.FindTeam(w.acme.Login, "maintainers")
	if team == nil {
		sd.fail("the Maintainers team is missing")
		return
	}
	for _, r := range []*state.Repo{w.widgets, w.gadgets} {
		open := 0
		for _, is := range r.Issues {
			if is.Pull == nil {
				continue
			}
			reviewer := w.alice
			if is.User == w.alice {
				reviewer = w.bob
			}
			end := latest()
			if is.ClosedAt != nil {
				end = *is.ClosedAt
			}
			span := end.Sub(is.CreatedAt)
			at := func(frac float64) time.Time {
				return is.CreatedAt.Add(time.Duration(float64(span) * frac)).Truncate(time.Second)
			}
			p := is.Pull
			switch {
			case is.Merged:
				rv := sd.s.AddReview(is, reviewer, "COMMENTED", "", at(0.3))
				if t := sd.thread(rv, "Could this case get a comment saying why it is needed?", at(0.3)); t != nil {
					sd.s.AddReviewComment(sd.s.AddReview(is, is.User, "COMMENTED", "", at(0.4)), t.Comments[0], "", 0, "Done, thanks.", at(0.4))
					t.Resolved, t.ResolvedBy = true, is.User
				}
				sd.s.AddReview(is, reviewer, "APPROVED", "LGTM, thanks!", at(0.8))
				sd.checks(r, p.Head, is.CreatedAt, "success", "success")
			case is.State == "closed":
				rv := sd.s.AddReview(is, reviewer, "CHANGES_REQUESTED", "This changes behaviour other users rely on; let's discuss in the issue first.", at(0.5))
				sd.thread(rv, "This would break existing dashboards.", at(0.5))
				sd.checks(r, p.Head, is.CreatedAt, "success", "failure")
			default:
				switch open % 4 {
				case 0:
					rv := sd.s.AddReview(is, reviewer, "CHANGES_REQUESTED", "Nearly there: one case is missing.", at(0.2))
					if t := sd.thread(rv, "This misses the empty case.", at(0.2)); t != nil {
						content := p.Head.Files[t.Path] + reviewNote(t.Path)
						sd.s.Push(is, is.User, at(0.4), "Address review: cover the empty case", map[string]*string{t.Path: &content})
					}
					// The author asks again once the change is pushed.
					sd.requestReviews(is, at(0.4).Add(5*time.Minute), []*state.Account{reviewer}, nil)
					sd.checks(r, p.Head, at(0.4), "success", "failure")
				case 1:
					sd.requestReviews(is, is.CreatedAt.Add(5*time.Minute), []*state.Account{reviewer}, []*state.Team{team})
					sd.checks(r, p.Head, end.Add(-20*time.Minute), "success", "")
				case 2:
					rv := sd.s.AddReview(is, reviewer, "APPROVED", "Looks good to me.", at(0.5))
					if t := sd.thread(rv, "Nit: the comment could name the issue's symptom.", at(0.5)); t != nil {
						t.Resolved, t.ResolvedBy = true, reviewer
					}
					sd.checks(r, p.Head, is.CreatedAt, "success", "success")
					sd.s.AddStatus(r, p.Head.SHA, "success", "ci/coverage", "Coverage 84.2% (+0.3%)",
						"https://coverage.acme.example/"+r.FullName()+"/"+p.Head.SHA, reviewer, is.CreatedAt.Add(12*time.Minute))
				default:
					p.Draft = true
					sd.s.AddReview(is, reviewer, "COMMENTED", "Early feedback: the approach looks right.", at(0.3))
					sd.checks(r, p.Head, is.CreatedAt, "success", "success")
				}
				open++
			}
		}
	}
}

// requestReviews has the pull request's author ask users and teams for a
// review at a seeded moment, which its timeline records.
func (sd *seeder) requestReviews(is *state.Issue, at time.Time, users []*state.Account, teams []*state.Team) {
	saved := sd.clock
	sd.clock = at
	sd.s.RequestReviews(is, is.User, users, teams)
	sd.clock = saved
}

// thread starts a review thread on the first line the pull request adds,
// or returns nil when it adds none.
func (sd *seeder) thread(rv *state.Review, body string, at time.Time) *state.ReviewThread {
	for _, fc := range rv.Pull.Pull.Changes() {
		if line := state.FirstAddedLine(fc.Patch); line > 0 {
			return sd.s.AddReviewComment(rv, nil, fc.Path, line, body, at).Thread
		}
	}
	return nil
}

// reviewNote is the line a push answering a review appends to a file.
func reviewNote(path string) string {
	switch {
	case strings.HasSuffix(path, ".go"), strings.HasSuffix(path, ".tsx"):
		return "// The empty case is covered too, as asked in review.\n"
	case strings.HasSuffix(path, ".c"):
		return "/* The empty case is covered too, as asked in review. */\n"
	}
	return "\nThe empty case is covered too.\n"
}

// checks records the CI workflow's build, test and lint runs on a commit:
// build concludes as given, test as given ("" while it runs), lint passes
// (or, while test runs, runs too).
func (sd *seeder) checks(r *state.Repo, c *state.GitCommit, started time.Time, build, test string) {
	sd.s.AddCheckRun(r, c.SHA, "CI", "build", build, started.Add(time.Minute), 3*time.Minute+17*time.Second)
	sd.s.AddCheckRun(r, c.SHA, "CI", "test", test, started.Add(time.Minute), 6*time.Minute+4*time.Second)
	lint := "success"
	if test == "" {
		lint = ""
	}
	sd.s.AddCheckRun(r, c.SHA, "CI", "lint", lint, started.Add(time.Minute), 58*time.Second)
}
