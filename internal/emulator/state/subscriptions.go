package state

import "time"

// Subscriptions: a user watches or ignores a notification thread or a
// repository. Ignoring silences it (threadReason); watching a thread
// notifies of it, watching a repository of whatever changes in it after.

// Subscription is one thread or repository subscription.
type Subscription struct {
	Subscribed bool
	Ignored    bool
	CreatedAt  time.Time
}

// SubscribeThread sets u's subscription to the thread on is: ignored, or
// subscribed.
func (s *State) SubscribeThread(u *Account, is *Issue, ignored bool) *Subscription {
	sub := &Subscription{Subscribed: !ignored, Ignored: ignored, CreatedAt: s.Now()}
	u.mark(is.ID).Sub = sub
	return sub
}

// ThreadSubscription is u's explicit subscription to the thread on is, nil
// for none.
func (s *State) ThreadSubscription(u *Account, is *Issue) *Subscription {
	if m := u.Inbox[is.ID]; m != nil {
		return m.Sub
	}
	return nil
}

// MuteThread is GitHub's "delete a thread subscription": the thread is
// silenced and leaves the inbox until its subject changes again, as a
// thread marked done does.
func (s *State) MuteThread(u *Account, t *Thread) {
	u.mark(t.ID).Sub = nil
	s.MarkThreadDone(u, t, s.Now())
}

// WatchRepo sets u's subscription to r: watching (subscribed), ignoring,
// or, with neither, none.
func (s *State) WatchRepo(u *Account, r *Repo, subscribed, ignored bool) *Subscription {
	if u.Watching == nil {
		u.Watching = map[int64]*Subscription{}
	}
	sub := &Subscription{Subscribed: subscribed && !ignored, Ignored: ignored, CreatedAt: s.Now()}
	u.Watching[r.ID] = sub
	return sub
}

// RepoSubscription is u's subscription to r, nil for none.
func (s *State) RepoSubscription(u *Account, r *Repo) *Subscription { return u.Watching[r.ID] }

// UnwatchRepo removes u's subscription to r.
func (s *State) UnwatchRepo(u *Account, r *Repo) { delete(u.Watching, r.ID) }

// ThreadSubject is the subject of u's thread id: one u is notified of, or
// whose thread u marked or subscribed to (an ignored thread is still u's
// to un-ignore); nil for another's.
func (s *State) ThreadSubject(u *Account, id int64) *Issue {
	is := s.issuesByID[id]
	if is == nil || is.Deleted {
		return nil
	}
	if u.Inbox[id] == nil && s.thread(u, is, true) == nil {
		return nil
	}
	return is
}
