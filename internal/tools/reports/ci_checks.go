package reports

import (
	"regexp"
	"strings"
	"unicode"

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
// The names come from the pull request's own workflow (or whoever sets
// the status), so they are cleaned like its log.
func failingCheck(pull int, ch github.Check) FailingCheck {
	f := FailingCheck{Pull: pull, URL: ch.URL}
	f.Job, f.Hidden = cleanText(ch.Name)
	if ch.Status {
		f.Conclusion = strings.ToLower(ch.State)
		return f
	}
	f.Conclusion = strings.ToLower(ch.Conclusion)
	f.JobID = ch.JobID
	if ch.RunID != 0 {
		var h int
		f.Workflow, h = cleanText(ch.Workflow)
		f.RunID, f.URL, f.Hidden = ch.RunID, ch.RunURL, f.Hidden+h
	}
	return f
}

// failedStep is the first step of job that concluded as a failure (or,
// failing that, cancelled or timed out), with how long it ran, and the
// invisible characters removed from its name; nil when no step did (a job
// cancelled before it started).
func failedStep(job *gh.WorkflowJob) (*FailedStep, int) {
	for _, want := range []string{"failure", "timed_out", "cancelled"} {
		for _, st := range job.Steps {
			if st.GetConclusion() != want {
				continue
			}
			out := &FailedStep{Number: int(st.GetNumber())}
			name, hidden := cleanText(st.GetName())
			out.Name = name
			if st.StartedAt != nil && st.CompletedAt != nil {
				out.Seconds = int(st.CompletedAt.Sub(st.StartedAt.Time).Seconds())
			}
			return out, hidden
		}
	}
	return nil, 0
}

const (
	// logReadBytes is how much of a log's end is downloaded and kept:
	// enough for log_lines' cap of ordinary lines.
	logReadBytes = 512 << 10
	// logShownBytes bounds the tail returned per job, whatever log_lines
	// asks: the oldest lines go first.
	logShownBytes = 128 << 10
	// logCallBytes bounds the log text one call returns across its jobs:
	// a job whose tail would pass it has none (log_omitted).
	logCallBytes = 256 << 10
)

// timestamp is the time GitHub writes at the start of every log line.
var timestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z ?`)

// escape matches terminal escape sequences: CSI (colours, cursor moves),
// OSC (hyperlinks, window titles; ended by BEL or ST, or by the line's
// end when unended) and the two-byte ones.
var escape = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|\x1b[@-Z\\\\-_]")

// cleanText is untrusted one-line text (a log line, a job's name) as an
// agent reads it: escape sequences and every other control character but
// the tab removed (a terminal would not show them; a stray \r hides what
// came before it), and the invisible characters [contract.SanitizeText]
// removes, counted.
func cleanText(s string) (string, int) {
	s = escape.ReplaceAllString(s, "")
	s = strings.Map(func(r rune) rune {
		if r != '\t' && unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	s, rm := contract.SanitizeText(s)
	return s, rm.ZeroWidth + rm.Bidi + rm.Tags
}

// logTail is the last n lines of a log as an agent reads it: each line's
// leading timestamp removed (it costs bytes and says nothing the step does
// not) and the line cleaned (the log is written by the code under test),
// at most logShownBytes; with the invisible characters removed from it.
// Credentials are redacted after it, on its result.
func logTail(text string, n int) (string, int) {
	text = strings.TrimPrefix(text, "\ufeff") // GitHub's logs begin with a byte-order mark
	lines := strings.Split(strings.TrimRight(text, "\r\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	size, hidden := 0, 0
	first := len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		l, h := cleanText(timestamp.ReplaceAllString(lines[i], ""))
		if size+len(l)+1 > logShownBytes {
			break
		}
		size += len(l) + 1
		hidden += h
		lines[i], first = l, i
	}
	return strings.Join(lines[first:], "\n"), hidden
}

// cleanTitle is a pull request's title with invisible characters removed.
func cleanTitle(s string) string {
	out, _ := contract.SanitizeText(s)
	return out
}
