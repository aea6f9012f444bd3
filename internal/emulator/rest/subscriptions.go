package rest

import (
	"net/http"
	"strconv"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Notification subscriptions (rest/activity/notifications and
// rest/activity/watching): watching or ignoring a thread or a repository,
// as state.Subscription records them; they decide which threads the
// notification lists hold.

// threadSubscriptionJSON is GitHub's thread-subscription.
type threadSubscriptionJSON struct {
	Subscribed bool    `json:"subscribed"`
	Ignored    bool    `json:"ignored"`
	Reason     *string `json:"reason"`
	CreatedAt  *string `json:"created_at"`
	URL        string  `json:"url"`
	ThreadURL  string  `json:"thread_url"`
}

// repoSubscriptionJSON is GitHub's repository-subscription.
type repoSubscriptionJSON struct {
	Subscribed    bool    `json:"subscribed"`
	Ignored       bool    `json:"ignored"`
	Reason        *string `json:"reason"`
	CreatedAt     string  `json:"created_at"`
	URL           string  `json:"url"`
	RepositoryURL string  `json:"repository_url"`
}

// subscriptionThread resolves {thread_id} for its subscription routes.
func (c *call) subscriptionThread() *state.Issue {
	id, ok := c.viewerThreadID()
	if !ok {
		return nil
	}
	is := c.State.ThreadSubject(c.Viewer, id)
	if is == nil || c.Token.Permission(is.Repo) == state.PermNone {
		c.NotFound()
		return nil
	}
	return is
}

func (c *call) threadSubscriptionJSON(is *state.Issue, sub *state.Subscription) threadSubscriptionJSON {
	thread := c.Links.API + "/notifications/threads/" + strconv.FormatInt(is.ID, 10)
	out := threadSubscriptionJSON{Subscribed: true, URL: thread + "/subscription", ThreadURL: thread}
	// Without a subscription of their own, a participant is subscribed.
	if sub != nil {
		at := wire.Timestamp(sub.CreatedAt)
		out.Subscribed, out.Ignored, out.CreatedAt = sub.Subscribed, sub.Ignored, &at
	}
	return out
}

// getThreadSubscription is GET /notifications/threads/{id}/subscription.
func getThreadSubscription(c *call) {
	if is := c.subscriptionThread(); is != nil {
		c.JSON(http.StatusOK, c.threadSubscriptionJSON(is, c.State.ThreadSubscription(c.Viewer, is)))
	}
}

// setThreadSubscription is PUT /notifications/threads/{id}/subscription:
// ignored true silences the thread, false subscribes to it.
func setThreadSubscription(c *call) {
	is := c.subscriptionThread()
	if is == nil {
		return
	}
	var in struct {
		Ignored bool `json:"ignored"`
	}
	if !c.Decode(&in) {
		return
	}
	c.JSON(http.StatusOK, c.threadSubscriptionJSON(is, c.State.SubscribeThread(c.Viewer, is, in.Ignored)))
}

// deleteThreadSubscription is DELETE /notifications/threads/{id}/subscription,
// which GitHub documents as muting the thread until there is news on it.
func deleteThreadSubscription(c *call) {
	is := c.subscriptionThread()
	if is == nil {
		return
	}
	if t := c.State.FindThread(c.Viewer, is.ID); t != nil {
		c.State.MuteThread(c.Viewer, t)
	}
	c.NoContent()
}

func (c *call) repoSubscriptionJSON(r *state.Repo, sub *state.Subscription) repoSubscriptionJSON {
	u := c.Links.Repo(r)
	return repoSubscriptionJSON{Subscribed: sub.Subscribed, Ignored: sub.Ignored, CreatedAt: wire.Timestamp(sub.CreatedAt),
		URL: u + "/subscription", RepositoryURL: u}
}

// viewerRepo resolves {owner}/{repo} for the viewer's own star or
// subscription: one the token can see, for a token that names a user.
// Starring or watching is not a write to the repository: an archived one
// can be starred and watched.
func (c *call) viewerRepo() *state.Repo {
	if c.Viewer == nil {
		c.Forbidden()
		return nil
	}
	r := c.State.Repo(c.Req.PathValue("owner"), c.Req.PathValue("repo"))
	if r == nil || c.Token.Permission(r) == state.PermNone {
		c.NotFound()
		return nil
	}
	return r
}

// getRepoSubscription is GET /repos/{o}/{r}/subscription: 404 when the
// viewer neither watches nor ignores the repository.
func getRepoSubscription(c *call) {
	r := c.viewerRepo()
	if r == nil {
		return
	}
	sub := c.State.RepoSubscription(c.Viewer, r)
	if sub == nil {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, c.repoSubscriptionJSON(r, sub))
}

// setRepoSubscription is PUT /repos/{o}/{r}/subscription.
func setRepoSubscription(c *call) {
	r := c.viewerRepo()
	if r == nil {
		return
	}
	var in struct {
		Subscribed bool `json:"subscribed"`
		Ignored    bool `json:"ignored"`
	}
	if !c.Decode(&in) {
		return
	}
	c.JSON(http.StatusOK, c.repoSubscriptionJSON(r, c.State.WatchRepo(c.Viewer, r, in.Subscribed, in.Ignored)))
}

// deleteRepoSubscription is DELETE /repos/{o}/{r}/subscription.
func deleteRepoSubscription(c *call) {
	if r := c.viewerRepo(); r != nil {
		c.State.UnwatchRepo(c.Viewer, r)
		c.NoContent()
	}
}
