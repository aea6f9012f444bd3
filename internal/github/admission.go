package github

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ghgate/ghgate/internal/policy"
	gh "github.com/google/go-github/v88/github"
)

// unadmitted refuses a write whose context carries no admission from the
// write path, or one to a repository the call did not declare. The check
// sits here, below every write function, so a write made by a path that
// forgot the policy fails closed instead of reaching GitHub.
func unadmitted(req *http.Request) *Error {
	if admitUnticketed {
		return nil
	}
	t, ok := policy.TicketFrom(req.Context())
	if ok && t.Admits(req.Method, req.URL.Path) {
		return nil
	}
	what := "carries no admission from the write policy"
	if ok {
		what = "goes to a repository the call did not declare"
	}
	return &Error{Code: Unadmitted, Settlement: NotStarted,
		Message: fmt.Sprintf("ghgate refused to send a %s to %s: the write %s", req.Method, req.URL.Path, what)}
}

// admitUnticketed lets this package's own tests drive the client's write
// functions directly, as unit tests of the access layer; only they can
// set it (it is unexported), and TestWritesNeedAnAdmission clears it.
var admitUnticketed bool

// noteRead tells the data-flow guard which repositories a read reached:
// the repository a REST path names, the repositories a GraphQL query's
// variables name, and those a search's results come from.
func noteRead(req *http.Request) {
	ctx := req.Context()
	p := strings.TrimPrefix(req.URL.Path, "/api/v3")
	if rest, ok := strings.CutPrefix(p, "/repos/"); ok {
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) >= 2 {
			policy.RecordRead(ctx, parts[0], parts[1])
		}
		return
	}
	if strings.HasSuffix(p, "/graphql") && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return
		}
		defer body.Close()
		raw, err := io.ReadAll(io.LimitReader(body, 1<<20))
		if err != nil {
			return
		}
		var doc struct {
			Variables struct {
				Owner string `json:"owner"`
				Repo  string `json:"repo"`
				Name  string `json:"name"`
			} `json:"variables"`
		}
		if json.NewDecoder(bytes.NewReader(raw)).Decode(&doc) == nil {
			v := doc.Variables
			repo := v.Repo
			if repo == "" {
				repo = v.Name
			}
			policy.RecordRead(ctx, v.Owner, repo)
		}
	}
}

// noteIssuesRead tells the data-flow guard about the repositories of
// issues a read answered with: a sub-issue, a blocker or a related issue
// may live in another repository than the one the path names.
func noteIssuesRead(ctx context.Context, issues []*gh.Issue) {
	for _, is := range issues {
		owner, repo := repoOfURL(is.GetRepositoryURL())
		policy.RecordRead(ctx, owner, repo)
	}
}

// noteNamedRead tells the data-flow guard about a repository a GraphQL
// answer names as "owner/name" (a board item's, a linked pull request's).
func noteNamedRead(ctx context.Context, nameWithOwner string) {
	if owner, repo, ok := strings.Cut(nameWithOwner, "/"); ok {
		policy.RecordRead(ctx, owner, repo)
	}
}

// repoOfURL returns the owner and name a repository's API URL ends in.
func repoOfURL(u string) (owner, repo string) {
	i := strings.Index(u, "/repos/")
	if i < 0 {
		return "", ""
	}
	parts := strings.SplitN(u[i+len("/repos/"):], "/", 3)
	if len(parts) < 2 {
		return "", ""
	}
	return parts[0], parts[1]
}
