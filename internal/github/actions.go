package github

import (
	"bytes"
	"context"
	"io"
	"net/http"

	gh "github.com/google/go-github/v88/github"
)

// GetWorkflowJob reads one Actions job with its steps.
//
// GET /repos/{owner}/{repo}/actions/jobs/{job_id}
func (c *Client) GetWorkflowJob(ctx context.Context, owner, repo string, id int64) (*gh.WorkflowJob, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var out *gh.WorkflowJob
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Actions.GetWorkflowJobByID(ctx, r.owner, r.repo, id)
		return resp, err
	})
	return out, m, err
}

// LogTail is the end of a job's log.
type LogTail struct {
	// Text is the log's last bytes, from the start of a line.
	Text string
	// Cut is true when the log was longer than the bytes kept.
	Cut bool
	// Redacted counts the runs of text replaced by [redacted]: each
	// credential found, in whatever form, once.
	Redacted int
}

// JobLogTail reads the last maxBytes of a job's log, from the start of a
// line, shaped for reading by shape (nil: as it is), with every credential
// in the result redacted. Redaction runs last, on shape's result: what
// shape removes (colour codes, invisible characters) could otherwise join
// the halves of a credential after it was looked for. GitHub answers the logs
// route with 302 to a short-lived signed URL on its log storage; that URL
// is fetched without the credential whatever its host (it needs none, and
// storage is not GitHub's API), and without following further redirects.
// Only the logs route is a GitHub call; the download spends no rate budget.
//
// GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs
func (c *Client) JobLogTail(ctx context.Context, owner, repo string, id int64, maxBytes int, shape func(string) string) (LogTail, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return LogTail{}, Meta{}, err
	}
	var signed string
	m, err := c.read(ctx, func(ctx context.Context) (*gh.Response, error) {
		u, resp, err := c.rest.Actions.GetWorkflowJobLogs(ctx, r.owner, r.repo, id, 1)
		if err == nil {
			signed = u.String()
		}
		return resp, err
	})
	if err != nil {
		return LogTail{}, m, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, signed, nil)
	if err != nil {
		return LogTail{}, m, &Error{Code: MalformedResponse, Message: "GitHub's log URL could not be read", cause: err}
	}
	resp, err := c.storage().Do(req)
	if err != nil {
		return LogTail{}, m, &Error{Code: UpstreamUnavailable, Temporary: true, Message: "the job's log could not be downloaded: " + netMessage(err), cause: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// The signed URL expired (it lives a minute) or storage failed: a
		// new call gets a new URL.
		return LogTail{}, m, &Error{Code: UpstreamUnavailable, Status: resp.StatusCode, Temporary: true,
			Message: "GitHub's log storage answered " + resp.Status}
	}
	tail, cut, err := readTail(resp.Body, maxBytes)
	if err != nil {
		return LogTail{}, m, &Error{Code: UpstreamUnavailable, Temporary: true, Message: "the job's log broke off: " + netMessage(err), cause: err}
	}
	text := string(tail)
	if shape != nil {
		text = shape(text)
	}
	// A job's log is written by the code under test: it can print
	// anything, this process's credentials included.
	text, n := c.secrets.Clean(text)
	return LogTail{Text: text, Cut: cut, Redacted: n}, m, nil
}

// storage is an HTTP client for GitHub's log storage: the transport under
// ghgate's own (no credential, no conditional requests, no budget), and no
// redirects followed.
func (c *Client) storage() *http.Client {
	base := http.DefaultTransport
	if t, ok := c.http.Transport.(*transport); ok {
		base = t.base
	}
	return &http.Client{Transport: base, Timeout: c.http.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// readTail reads r to its end keeping its last max bytes; when more came
// before them, the partial first line is dropped, so the tail starts at a
// line (and a credential cut in half is not left half visible).
func readTail(r io.Reader, max int) ([]byte, bool, error) {
	buf := make([]byte, 0, 2*max)
	chunk := make([]byte, 32<<10)
	cut := false
	for {
		n, err := r.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if len(buf) > 2*max {
			buf = append(buf[:0], buf[len(buf)-max:]...)
			cut = true
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	if len(buf) > max {
		buf, cut = buf[len(buf)-max:], true
	}
	if cut {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		} else {
			buf = nil
		}
	}
	return buf, cut, nil
}
