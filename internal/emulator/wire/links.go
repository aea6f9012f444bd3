package wire

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Links builds the URLs GitHub puts in its payloads. API is the REST base as
// the client addressed it ("http://host:port" or "http://host:port/api/v3"),
// Web the host root that stands in for github.com.
type Links struct {
	API string
	Web string
}

// Uploads is the root release assets are uploaded to: uploads.github.com
// beside api.github.com, /api/uploads beside Enterprise Server's /api/v3,
// the API's own root on any other host.
func (l Links) Uploads() string {
	if root, ok := strings.CutSuffix(l.API, "/api/v3"); ok {
		return root + "/api/uploads"
	}
	return strings.Replace(l.API, "://api.", "://uploads.", 1)
}

// Repo is a repository's REST URL.
func (l Links) Repo(r *state.Repo) string { return l.API + "/repos/" + r.FullName() }

// Profile is an account's page on the web: an App's bot has none of its
// own and links to the App's.
func (l Links) Profile(a *state.Account) string {
	if a.IsBot {
		return l.Web + "/apps/" + url.PathEscape(a.AppSlug())
	}
	return l.Web + "/" + a.Login
}

// Timestamp is t as GitHub writes times: RFC 3339 in UTC.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// TimestampPtr is Timestamp for a time that may be absent (null).
func TimestampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Timestamp(*t)
	return &s
}

// IssuePath is an issue's or pull request's path on github.com.
func IssuePath(is *state.Issue) string {
	kind := "issues"
	if is.IsPull {
		kind = "pull"
	}
	return fmt.Sprintf("/%s/%s/%d", is.Repo.FullName(), kind, is.Number)
}

// CheckRunPath is a check run's page: its job in the workflow run.
func CheckRunPath(st *state.State, c *state.CheckRun) string {
	name := ""
	if r := state.RepoOfCheckRun(st, c); r != nil {
		name = "/" + r.FullName()
	}
	run := c.ID // a check run without a workflow run is its own
	if c.Run != nil {
		run = c.Run.ID
	}
	return fmt.Sprintf("%s/actions/runs/%d/job/%d", name, run, c.ID)
}
