package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
)

// grant leaves out the rows of repositories the caller may not read
// ([caller.Identity.CanRead]), counting them. A call is authorized for the
// repository it names; the relations and references of its issue can
// name issues of any other, and a row showing one would read that
// repository past the caller's grant. Without a grant (stdio, the broker)
// every row is kept.
type grant struct {
	id caller.Identity
	// owner and repo are the call's own repository, for rows that name
	// none.
	owner, repo string
	withheld    int
}

func newGrant(ctx context.Context, owner, repo string) *grant {
	return &grant{id: caller.From(ctx), owner: owner, repo: repo}
}

// keeps reports whether a row of the repository full ("owner/name"; ""
// for the call's own) may be shown, and counts it when not. A name that is
// no "owner/name" is not read as any repository: its row is left out.
func (g *grant) keeps(full string) bool {
	owner, repo := g.owner, g.repo
	if full != "" {
		var ok bool
		if owner, repo, ok = strings.Cut(full, "/"); !ok || owner == "" || repo == "" {
			g.withheld++
			return false
		}
	}
	if g.id.CanRead(owner, repo) {
		return true
	}
	g.withheld++
	return false
}

// hint says what was left out, for truncation_hint; "" when nothing was.
func (g *grant) hint() string {
	if g.withheld == 0 {
		return ""
	}
	return fmt.Sprintf("%d rows of repositories this client may not read were left out (withheld)", g.withheld)
}

// joinHints joins the truncation hints that apply, in order.
func joinHints(hints ...string) string {
	var out []string
	for _, h := range hints {
		if h != "" {
			out = append(out, h)
		}
	}
	return strings.Join(out, "; ")
}
