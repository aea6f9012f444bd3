package emulator

import (
	"fmt"
	"net/url"
	"time"
)

// links builds the URLs GitHub puts in its payloads. api is the REST base as
// the client addressed it ("http://host:port" or "http://host:port/api/v3"),
// web the host root that stands in for github.com.
type links struct {
	api string
	web string
}

func (l links) repo(r *Repo) string { return l.api + "/repos/" + r.FullName() }

// profile is an account's page on the web: an App's bot has none of its
// own and links to the App's.
func (l links) profile(a *Account) string {
	if a.IsBot {
		return l.web + "/apps/" + url.PathEscape(a.AppSlug())
	}
	return l.web + "/" + a.Login
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func tsp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := ts(*t)
	return &s
}

// issuePath is an issue's or pull request's path on github.com.
func issuePath(is *Issue) string {
	kind := "issues"
	if is.IsPull {
		kind = "pull"
	}
	return fmt.Sprintf("/%s/%s/%d", is.Repo.FullName(), kind, is.Number)
}

// checkRunPath is a check run's page: its job in the workflow run.
func checkRunPath(st *State, c *CheckRun) string {
	name := ""
	if r := repoOfCheckRun(st, c); r != nil {
		name = "/" + r.FullName()
	}
	return fmt.Sprintf("%s/actions/runs/%d/job/%d", name, c.ID, c.ID)
}
