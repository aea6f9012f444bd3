package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Notifications (rest/activity/notifications): the viewer's threads as
// state.Threads derives them (review requests, assignments and mentions on
// what the token can see), reading and dismissing them, and marking them
// all read. GitHub answers these for a user's token only.

// threadJSON is GitHub's thread.
type threadJSON struct {
	ID              string            `json:"id"`
	Repository      repoJSON          `json:"repository"`
	Subject         threadSubjectJSON `json:"subject"`
	Reason          string            `json:"reason"`
	Unread          bool              `json:"unread"`
	UpdatedAt       string            `json:"updated_at"`
	LastReadAt      *string           `json:"last_read_at"`
	URL             string            `json:"url"`
	SubscriptionURL string            `json:"subscription_url"`
}

type threadSubjectJSON struct {
	Title            string `json:"title"`
	URL              string `json:"url"`
	LatestCommentURL string `json:"latest_comment_url"`
	Type             string `json:"type"`
}

func (c *call) threadJSON(t *state.Thread) threadJSON {
	is := t.Subject
	repo := c.Links.Repo(is.Repo)
	subject := threadSubjectJSON{Title: is.Title, URL: repo + "/issues/" + itoa(is.Number), Type: "Issue"}
	if is.Pull != nil {
		subject.URL, subject.Type = repo+"/pulls/"+itoa(is.Number), "PullRequest"
	}
	// GitHub points at the latest comment, or at the subject itself when
	// it has none.
	subject.LatestCommentURL = subject.URL
	if n := len(is.Comments); n > 0 {
		subject.LatestCommentURL = repo + "/issues/comments/" + strconv.FormatInt(is.Comments[n-1].ID, 10)
	}
	u := c.Links.API + "/notifications/threads/" + strconv.FormatInt(t.ID, 10)
	return threadJSON{ID: strconv.FormatInt(t.ID, 10), Repository: c.repoJSON(is.Repo, false), Subject: subject, Reason: t.Reason,
		Unread: t.Unread, UpdatedAt: wire.Timestamp(t.UpdatedAt), LastReadAt: wire.TimestampPtr(t.LastReadAt), URL: u,
		SubscriptionURL: u + "/subscription"}
}

// viewerThreads are the viewer's threads in the repositories keep admits
// among those the token can see; ok is false, the answer written, when the
// token names no user.
func (c *call) viewerThreads(keep func(*state.Repo) bool) (threads []*state.Thread, ok bool) {
	if c.Viewer == nil {
		c.Forbidden()
		return nil, false
	}
	return c.State.Threads(c.Viewer, func(r *state.Repo) bool { return c.Token.Permission(r) > state.PermNone && keep(r) }), true
}

// writeThreads answers a list of threads: unread ones unless all=true,
// those updated after since and before before (a value that is not a
// timestamp filters nothing), newest first, defaultPerPage to a page.
// Every derived thread is one the user participates in, so participating
// filters nothing out.
func (c *call) writeThreads(threads []*state.Thread, defaultPerPage int) {
	q := c.Req.URL.Query()
	since, _ := time.Parse(time.RFC3339, q.Get("since"))
	before, _ := time.Parse(time.RFC3339, q.Get("before"))
	out := []threadJSON{}
	var list []*state.Thread
	for _, t := range threads {
		switch {
		case !t.Unread && q.Get("all") != "true",
			!since.IsZero() && t.UpdatedAt.Before(since),
			!before.IsZero() && !t.UpdatedAt.Before(before):
			continue
		}
		list = append(list, t)
	}
	if q.Get("per_page") == "" {
		q.Set("per_page", strconv.Itoa(defaultPerPage))
		c.Req.URL.RawQuery = q.Encode()
	}
	for _, t := range paginate(c, list) {
		out = append(out, c.threadJSON(t))
	}
	c.JSON(http.StatusOK, out)
}

// listNotifications is GET /notifications, 50 to a page by default.
func listNotifications(c *call) {
	if ts, ok := c.viewerThreads(func(*state.Repo) bool { return true }); ok {
		c.writeThreads(ts, 50)
	}
}

// listRepoNotifications is GET /repos/{o}/{r}/notifications, 30 to a page.
func listRepoNotifications(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if ts, ok := c.viewerThreads(func(o *state.Repo) bool { return o == r }); ok {
		c.writeThreads(ts, 30)
	}
}

// viewerThreadID reads {thread_id} for a token that names a user; ok is
// false, the answer written, otherwise.
func (c *call) viewerThreadID() (int64, bool) {
	if c.Viewer == nil {
		c.Forbidden()
		return 0, false
	}
	return c.pathID("thread_id")
}

// threadFor resolves {thread_id} among the viewer's threads.
func (c *call) threadFor() *state.Thread {
	id, ok := c.viewerThreadID()
	if !ok {
		return nil
	}
	t := c.State.FindThread(c.Viewer, id)
	if t == nil || c.Token.Permission(t.Subject.Repo) == state.PermNone {
		c.NotFound()
		return nil
	}
	return t
}

func getThread(c *call) {
	if t := c.threadFor(); t != nil {
		c.JSON(http.StatusOK, c.threadJSON(t))
	}
}

// markThreadRead is PATCH /notifications/threads/{id}: 205 Reset Content.
func markThreadRead(c *call) {
	if t := c.threadFor(); t != nil {
		c.State.MarkThreadRead(c.Viewer, t, c.State.Now())
		c.W.WriteHeader(http.StatusResetContent)
	}
}

// markThreadDone is DELETE /notifications/threads/{id}: the thread leaves
// the inbox until its subject changes again.
func markThreadDone(c *call) {
	if t := c.threadFor(); t != nil {
		c.State.MarkThreadDone(c.Viewer, t, c.State.Now())
		c.NoContent()
	}
}

// markAllRead is PUT /notifications: every thread updated at or before
// last_read_at (now when omitted) is marked read; GitHub answers 205 when
// it has done so at once.
func markAllRead(c *call) {
	c.markRead(func(*state.Repo) bool { return true })
}

// markRepoRead is PUT /repos/{o}/{r}/notifications.
func markRepoRead(c *call) {
	if r := c.RepoFor(state.PermRead); r != nil {
		c.markRead(func(o *state.Repo) bool { return o == r })
	}
}

func (c *call) markRead(keep func(*state.Repo) bool) {
	var in struct {
		LastReadAt *time.Time `json:"last_read_at"`
		Read       *bool      `json:"read"`
	}
	if !c.Decode(&in) {
		return
	}
	ts, ok := c.viewerThreads(keep)
	if !ok {
		return
	}
	at := c.State.Now()
	if in.LastReadAt != nil {
		at = in.LastReadAt.UTC()
	}
	for _, t := range ts {
		if !t.UpdatedAt.After(at) && (in.Read == nil || *in.Read) {
			c.State.MarkThreadRead(c.Viewer, t, at)
		}
	}
	c.W.WriteHeader(http.StatusResetContent)
}
