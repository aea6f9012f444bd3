package reports

import (
	"regexp"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	gh "github.com/google/go-github/v88/github"
)

// failingConclusions are the check run conclusions that fail a pull
// request's CI. A cancelled job counts: what it was to prove is unproven.
// neutral and skipped do not fail it, as GitHub's own merge box treats them.
var failingConclusions = map[string]bool{
	"FAILURE": true, "CANCELLED": true, "TIMED_OUT": true, "ACTION_REQUIRED": true, "STARTUP_FAILURE": true,
}

// checkState is one check's state: "failed", "pending" or "passed".
func checkState(ch github.Check) CIState {
	if ch.Status {
		switch strings.ToUpper(ch.State) {
		case "FAILURE", "ERROR":
			return "failed"
		case "SUCCESS":
			return "passed"
		}
		return "pending" // PENDING, EXPECTED
	}
	if strings.ToUpper(ch.State) != "COMPLETED" {
		return "pending" // QUEUED, IN_PROGRESS, WAITING, REQUESTED, PENDING
	}
	c := strings.ToUpper(ch.Conclusion)
	switch {
	case failingConclusions[c]:
		return "failed"
	case c == "STALE":
		// GitHub marks a check stale when it never finished in 14 days:
		// nothing was proven either way, it needs running again.
		return "pending"
	}
	return "passed" // SUCCESS, NEUTRAL, SKIPPED
}

// classify sums a pull request's checks: failed if any fails, else
// pending if any has not finished, else passed; none without checks. When
// the commit has more checks than one page, GitHub's rollup state speaks
// for those not read.
func classify(p github.PullChecks) (CIState, []github.Check) {
	if p.Rollup == "" && len(p.Checks) == 0 {
		return "none", nil
	}
	var failing []github.Check
	pending := false
	for _, ch := range p.Checks {
		switch checkState(ch) {
		case "failed":
			failing = append(failing, ch)
		case "pending":
			pending = true
		}
	}
	switch {
	case len(failing) > 0, p.ChecksCut && (p.Rollup == "FAILURE" || p.Rollup == "ERROR"):
		return "failed", failing
	case pending, p.ChecksCut && (p.Rollup == "PENDING" || p.Rollup == "EXPECTED"):
		return "pending", nil
	}
	return "passed", nil
}

// failingCheck is what verbosity 1 says of a failing check, from the
// rollup alone.
func failingCheck(pull int, ch github.Check) FailingCheck {
	f := FailingCheck{Pull: pull, Job: ch.Name, URL: ch.URL}
	if ch.Status {
		f.Conclusion = strings.ToLower(ch.State)
		return f
	}
	f.Conclusion = strings.ToLower(ch.Conclusion)
	f.JobID = ch.JobID
	if ch.RunID != 0 {
		f.Workflow, f.RunID, f.URL = ch.Workflow, ch.RunID, ch.RunURL
	}
	return f
}

// failedStep is the first step of job that concluded as a failure (or,
// failing that, cancelled or timed out), with how long it ran; nil when no
// step did (a job cancelled before it started).
func failedStep(job *gh.WorkflowJob) *FailedStep {
	for _, want := range []string{"failure", "timed_out", "cancelled"} {
		for _, st := range job.Steps {
			if st.GetConclusion() != want {
				continue
			}
			out := &FailedStep{Name: st.GetName(), Number: int(st.GetNumber())}
			if st.StartedAt != nil && st.CompletedAt != nil {
				out.Seconds = int(st.CompletedAt.Sub(st.StartedAt.Time).Seconds())
			}
			return out
		}
	}
	return nil
}

const (
	// logReadBytes is how much of a log's end is downloaded and kept:
	// enough for log_lines' cap of ordinary lines.
	logReadBytes = 512 << 10
	// logShownBytes bounds the tail returned per job, whatever log_lines
	// asks: the oldest lines go first.
	logShownBytes = 128 << 10
)

// timestamp is the time GitHub writes at the start of every log line.
var timestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z ?`)

// ansi matches terminal escape sequences (colours, cursor moves).
var ansi = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]")

// logTail is the last n lines of a log as an agent reads it: each line's
// leading timestamp and its colour codes removed (they cost bytes and say
// nothing the step does not), invisible characters removed and counted
// (the log is written by the code under test), at most logShownBytes.
func logTail(text string, n int) (string, int) {
	text = strings.TrimPrefix(text, "\ufeff") // GitHub's logs begin with a byte-order mark
	lines := strings.Split(strings.TrimRight(text, "\r\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	size := 0
	first := len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSuffix(lines[i], "\r")
		l = ansi.ReplaceAllString(timestamp.ReplaceAllString(l, ""), "")
		if size+len(l)+1 > logShownBytes {
			break
		}
		size += len(l) + 1
		lines[i], first = l, i
	}
	out, rm := contract.SanitizeText(strings.Join(lines[first:], "\n"))
	return out, rm.ZeroWidth + rm.Bidi + rm.Tags
}

// cleanTitle is a pull request's title with invisible characters removed.
func cleanTitle(s string) string {
	out, _ := contract.SanitizeText(s)
	return out
}
