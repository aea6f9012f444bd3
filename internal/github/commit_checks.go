package github

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v88/github"
)

// The checks of one commit by its SHA, over REST: what a caller that
// already holds a pull request's head SHA (the broker augmenting an
// upstream's answer) reads without looking the pull request up again.
// GetPullChecks reads the same from the pull request in one GraphQL call.

// shaPattern is a full or abbreviated hexadecimal commit SHA: the ref
// these reads take goes into a URL path, so nothing else is sent.
var shaPattern = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

// CheckSHA reports whether sha has a commit SHA's shape.
func CheckSHA(sha string) bool { return shaPattern.MatchString(sha) }

// actionsJob reads an Actions job's run and job ids from its check run's
// page, https://github.com/OWNER/REPO/actions/runs/RUN/job/JOB: the REST
// check run names no workflow run, and a check run another app made has
// no such page.
var actionsJob = regexp.MustCompile(`/actions/runs/(\d+)/job/(\d+)$`)

// CommitCheckRuns reads the first page ([ChecksPerPull]) of a commit's
// check runs; cut is true when it has more.
//
// GET /repos/{owner}/{repo}/commits/{ref}/check-runs
func (c *Client) CommitCheckRuns(ctx context.Context, owner, repo, sha string) (checks []Check, cut bool, m Meta, err error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, false, Meta{}, err
	}
	if !CheckSHA(sha) {
		return nil, false, Meta{}, invalidArgument(false, "a commit SHA is hexadecimal")
	}
	var out *gh.ListCheckRunsResults
	m, err = c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Checks.ListCheckRunsForRef(ctx, r.owner, r.repo, sha,
			&gh.ListCheckRunsOptions{ListOptions: gh.ListOptions{PerPage: ChecksPerPull}})
		return resp, err
	})
	if err != nil || out == nil {
		return nil, false, m, err
	}
	for _, run := range out.CheckRuns {
		ch := Check{Name: run.GetName(), State: strings.ToUpper(run.GetStatus()), Conclusion: strings.ToUpper(run.GetConclusion()),
			JobID: run.GetID(), URL: run.GetDetailsURL()}
		if ch.URL == "" {
			ch.URL = run.GetHTMLURL()
		}
		if sm := actionsJob.FindStringSubmatch(run.GetHTMLURL()); sm != nil && sm[2] == strconv.FormatInt(run.GetID(), 10) {
			ch.RunID, _ = strconv.ParseInt(sm[1], 10, 64)
			ch.RunURL = strings.TrimSuffix(run.GetHTMLURL(), "/job/"+sm[2])
		}
		checks = append(checks, ch)
	}
	return checks, out.GetTotal() > len(out.CheckRuns), m, nil
}

// CommitStatuses reads the first page ([ChecksPerPull]) of a commit's
// legacy commit statuses, the latest of each context; cut is true when
// it has more.
//
// GET /repos/{owner}/{repo}/commits/{ref}/status
func (c *Client) CommitStatuses(ctx context.Context, owner, repo, sha string) (checks []Check, cut bool, m Meta, err error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, false, Meta{}, err
	}
	if !CheckSHA(sha) {
		return nil, false, Meta{}, invalidArgument(false, "a commit SHA is hexadecimal")
	}
	var out *gh.CombinedStatus
	m, err = c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Repositories.GetCombinedStatus(ctx, r.owner, r.repo, sha, &gh.ListOptions{PerPage: ChecksPerPull})
		return resp, err
	})
	if err != nil || out == nil {
		return nil, false, m, err
	}
	for _, s := range out.Statuses {
		checks = append(checks, Check{Status: true, Name: s.GetContext(), State: strings.ToUpper(s.GetState()), URL: s.GetTargetURL()})
	}
	return checks, out.GetTotalCount() > len(out.Statuses), m, nil
}
