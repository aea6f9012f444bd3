package projects

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
)

// boardValues are the labels, milestones and assignees the board's items
// carry, of the items this client may see: an item of a repository it may
// not read, or an issue the creator scope withholds, adds nothing, so a
// note never names what a row would not show.
type boardValues struct {
	labels, milestones, assignees []string
	// read counts the items read; complete is false when the board holds
	// more than boardValuesPages pages of them.
	read     int
	complete bool
}

// The items are read boardValuesFirst at a time, at most boardValuesPages
// pages: one request each, asked for only what a note needs.
const (
	boardValuesFirst = 100
	boardValuesPages = 10
)

// The item's content as the read asks for it (issues and pull requests
// alike; a draft has assignees only).
const boardValuesContent = `repository { nameWithOwner } author { login __typename }
  labels(first: 50) { nodes { name } } milestone { title } assignees(first: 20) { nodes { login } }`

type boardValuesNode struct {
	Type    string `json:"type"`
	Content *struct {
		Repository *struct {
			NameWithOwner string `json:"nameWithOwner"`
		} `json:"repository"`
		Author *struct {
			Login    string `json:"login"`
			Typename string `json:"__typename"`
		} `json:"author"`
		Labels *struct {
			Nodes []struct{ Name string } `json:"nodes"`
		} `json:"labels"`
		Milestone *struct {
			Title string `json:"title"`
		} `json:"milestone"`
		Assignees *struct {
			Nodes []struct{ Login string } `json:"nodes"`
		} `json:"assignees"`
	} `json:"content"`
}

// readBoardValues reads what owner's board b's items carry. Only the
// owner's kind (one of two words) is spliced into the document; the owner
// and number travel as variables.
func (s *Tools) readBoardValues(ctx context.Context, c *github.Client, owner string, b *board) (boardValues, error) {
	kind := b.p.OwnerKind
	if kind != github.ProjectOwnerUser {
		kind = github.ProjectOwnerOrg
	}
	doc := `query($owner: String!, $number: Int!, $first: Int!, $after: String) { owner: ` + kind + `(login: $owner) { projectV2(number: $number) {
  items(first: $first, after: $after) { pageInfo { hasNextPage endCursor } nodes { type content {
    ... on Issue { ` + boardValuesContent + ` } ... on PullRequest { ` + boardValuesContent + ` }
    ... on DraftIssue { assignees(first: 20) { nodes { login } } } } } } } } }`
	v := boardValues{}
	vars := map[string]any{"owner": owner, "number": b.p.Number, "first": boardValuesFirst}
	for range boardValuesPages {
		var data struct {
			Owner *struct {
				ProjectV2 *struct {
					Items struct {
						PageInfo struct {
							HasNextPage bool   `json:"hasNextPage"`
							EndCursor   string `json:"endCursor"`
						} `json:"pageInfo"`
						Nodes []*boardValuesNode `json:"nodes"`
					} `json:"items"`
				} `json:"projectV2"`
			} `json:"owner"`
		}
		if err := c.Query(ctx, doc, vars, &data); err != nil {
			return boardValues{}, err
		}
		if data.Owner == nil || data.Owner.ProjectV2 == nil {
			return boardValues{}, errors.New("the board could not be read")
		}
		items := data.Owner.ProjectV2.Items
		for _, n := range items.Nodes {
			if n != nil {
				v.read++
				s.addValues(ctx, &v, n)
			}
		}
		if !items.PageInfo.HasNextPage {
			v.complete = true
			return v, nil
		}
		vars["after"] = items.PageInfo.EndCursor
	}
	return v, nil
}

// addValues adds one item's values, unless this client would not see its row.
func (s *Tools) addValues(ctx context.Context, v *boardValues, n *boardValuesNode) {
	c := n.Content
	if c == nil {
		return
	}
	it := github.ProjectItem{Type: n.Type}
	if c.Repository != nil {
		it.Repo = c.Repository.NameWithOwner
	}
	if c.Author != nil {
		// GraphQL names a bot without the "[bot]" its REST login has.
		it.Author = c.Author.Login
		if c.Author.Typename == "Bot" && !strings.HasSuffix(it.Author, "[bot]") {
			it.Author += "[bot]"
		}
	}
	if s.withheldIssue(&it) || unreadable(ctx, &it) {
		return
	}
	if c.Labels != nil {
		for _, l := range c.Labels.Nodes {
			v.labels = addName(v.labels, l.Name)
		}
	}
	if c.Milestone != nil {
		v.milestones = addName(v.milestones, c.Milestone.Title)
	}
	if c.Assignees != nil {
		for _, a := range c.Assignees.Nodes {
			v.assignees = addName(v.assignees, a.Login)
		}
	}
}

func addName(names []string, n string) []string {
	if n == "" || slices.ContainsFunc(names, func(m string) bool { return strings.EqualFold(m, n) }) {
		return names
	}
	return append(names, n)
}

// note names value v of a label, milestone or assignee term when no item
// read carries it; "" when one does, or v names no one (@me).
func (v boardValues) note(t filterTerm, val string) string {
	if val == "" || strings.ContainsAny(val, "*@") {
		return ""
	}
	names := map[string][]string{"LABELS": v.labels, "MILESTONE": v.milestones, "ASSIGNEES": v.assignees}[t.field.DataType]
	if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, val) }) {
		return ""
	}
	where := "no item of the board"
	if !v.complete {
		where = fmt.Sprintf("none of the first %d items of the board read", v.read)
	}
	kind := checkedTypes[t.field.DataType]
	what := fmt.Sprintf("%s %q is on %s", t.key, val, where)
	if t.field.DataType == "ASSIGNEES" {
		what = fmt.Sprintf("%s %s is assigned on %s", t.key, val, where)
	}
	if len(names) == 0 {
		return what + effect(t) + fmt.Sprintf("; no item carries any %s", kind)
	}
	return what + effect(t) + offer(val, names, kind+"s there:", false)
}
