package rest

import (
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// REST's reactions on issues and issue comments: list (optionally one
// content only) and create. GitHub lets anyone who can read a repository
// react, so reading is all a reaction needs.

const reactionDocs = "rest/reactions/reactions"

// reactionJSON is GitHub's reaction.
type reactionJSON struct {
	ID        int64     `json:"id"`
	NodeID    string    `json:"node_id"`
	User      *userJSON `json:"user"`
	Content   string    `json:"content"`
	CreatedAt string    `json:"created_at"`
}

func renderReaction(l wire.Links, r *state.Reaction) reactionJSON {
	return reactionJSON{ID: r.ID, NodeID: r.NodeID, User: renderSimpleUser(l, r.User), Content: r.Content, CreatedAt: wire.Timestamp(r.CreatedAt)}
}

// reactionRollup is the reactions summary an issue or comment carries.
func reactionRollup(url string, rs []*state.Reaction) reactionsJSON {
	out := reactionsJSON{URL: url, TotalCount: len(rs)}
	for _, r := range rs {
		switch r.Content {
		case "+1":
			out.PlusOne++
		case "-1":
			out.MinusOne++
		case "laugh":
			out.Laugh++
		case "confused":
			out.Confused++
		case "heart":
			out.Heart++
		case "hooray":
			out.Hooray++
		case "eyes":
			out.Eyes++
		case "rocket":
			out.Rocket++
		}
	}
	return out
}

func listIssueReactions(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if is := c.IssueFor(r); is != nil {
		c.listReactions(is.Reactions)
	}
}

func createIssueReaction(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if is := c.IssueFor(r); is != nil {
		c.createReaction(&is.Reactions, reactionDocs+"#create-reaction-for-an-issue")
	}
}

func listCommentReactions(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if cm := c.commentFor(r); cm != nil {
		c.listReactions(cm.Reactions)
	}
}

func createCommentReaction(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if cm := c.commentFor(r); cm != nil {
		c.createReaction(&cm.Reactions, reactionDocs+"#create-reaction-for-an-issue-comment")
	}
}

// listReactions answers one page of reactions, only those of the content
// asked for when ?content= is given (a content outside REST's enum matches
// none: GitHub's description lists no 422 for these GETs).
func (c *call) listReactions(rs []*state.Reaction) {
	list := rs
	if want := c.Req.URL.Query().Get("content"); want != "" {
		list = nil
		for _, r := range rs {
			if r.Content == want {
				list = append(list, r)
			}
		}
	}
	out := []reactionJSON{}
	for _, r := range paginate(c, list) {
		out = append(out, renderReaction(c.Links, r))
	}
	c.JSON(http.StatusOK, out)
}

// createReaction adds the viewer's reaction: 201 when new, 200 with the
// existing one when the viewer already reacted so.
func (c *call) createReaction(list *[]*state.Reaction, doc string) {
	var in struct {
		Content wire.Optional[string] `json:"content"`
	}
	if !c.Decode(&in) {
		return
	}
	if !in.Content.Set || in.Content.Null || in.Content.Value == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Reaction", Field: "content", Code: "missing_field"})
		return
	}
	if !state.ValidReaction(in.Content.Value) {
		c.Invalid("", doc, wire.FieldError{Resource: "Reaction", Field: "content", Code: "invalid"})
		return
	}
	r, created := c.State.React(list, c.Viewer, in.Content.Value)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	c.JSON(status, renderReaction(c.Links, r))
}
