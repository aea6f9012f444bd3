package state

import (
	"slices"
	"time"
)

// Notifications. GitHub notifies a user of activity on the issues and pull
// requests they take part in; the emulator derives a user's threads from
// the world as it is rather than recording deliveries: a thread for every
// issue or pull request, in a repository the user's token can see, that
// requests the user's review (reason review_requested), is assigned to
// them (assign) or @mentions them (mention), in that order of precedence,
// or that they subscribed to (subscribed: the thread, or its repository
// for what changed after they began watching it).
// A thread's id is its subject's id; it was last updated when its subject
// was. What the user did with a thread is kept in Account.Inbox: read
// (unread again once the subject changes after) or done (gone from the
// inbox until the subject changes again). A change is a later update time
// or new activity (a comment, event or review).

// ThreadMark is what a user did with a notification thread.
type ThreadMark struct {
	ReadAt *time.Time
	DoneAt *time.Time
	// Sub is the user's explicit subscription to the thread, nil for
	// none (subscriptions.go).
	Sub *Subscription
	// seen is the subject's activity when it was read or done: activity
	// within the same second (the emulator's clock may stand still) still
	// counts as new.
	seen int
}

// activity counts what has happened on is: comments, timeline events and
// reviews.
func activity(is *Issue) int {
	n := len(is.Comments) + len(is.Events)
	if is.Pull != nil {
		n += len(is.Pull.Reviews)
	}
	return n
}

// changedSince reports whether is changed after at, or since it had seen
// activity.
func changedSince(is *Issue, at time.Time, seen int) bool {
	return is.UpdatedAt.After(at) || activity(is) != seen
}

// Thread is one notification thread of a user.
type Thread struct {
	ID         int64
	Subject    *Issue
	Reason     string // review_requested | assign | mention
	UpdatedAt  time.Time
	Unread     bool
	LastReadAt *time.Time
}

// threadReason is why u is notified of is, "" if not: a review request,
// an assignment or a mention; else a subscription to the thread, or to its
// repository (for what changed since). An ignored thread or repository
// notifies of nothing.
func threadReason(is *Issue, u *Account) string {
	tsub, rsub := (*Subscription)(nil), u.Watching[is.Repo.ID]
	if m := u.Inbox[is.ID]; m != nil {
		tsub = m.Sub
	}
	switch {
	case tsub != nil && tsub.Ignored, tsub == nil && rsub != nil && rsub.Ignored:
		return ""
	case is.Pull != nil && is.State == "open" && slices.Contains(is.Pull.RequestedReviewers, u):
		return "review_requested"
	case slices.Contains(is.Assignees, u):
		return "assign"
	case MentionsUser(is, u.Login):
		return "mention"
	case tsub != nil && tsub.Subscribed, rsub != nil && rsub.Subscribed && !is.UpdatedAt.Before(rsub.CreatedAt):
		return "subscribed"
	}
	return ""
}

// Threads are u's notification threads in the repositories visible
// reports it may see, newest update first; done threads are left out.
func (s *State) Threads(u *Account, visible func(*Repo) bool) []*Thread {
	var out []*Thread
	for _, r := range s.repoOrder {
		if !visible(r) {
			continue
		}
		for _, is := range r.Issues {
			if t := s.thread(u, is, false); t != nil {
				out = append(out, t)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *Thread) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	return out
}

// thread is u's thread on is, nil if u has none, or (unless withDone)
// marked it done.
func (s *State) thread(u *Account, is *Issue, withDone bool) *Thread {
	if is.Deleted {
		return nil
	}
	reason := threadReason(is, u)
	if reason == "" {
		return nil
	}
	t := &Thread{ID: is.ID, Subject: is, Reason: reason, UpdatedAt: is.UpdatedAt, Unread: true}
	if m := u.Inbox[is.ID]; m != nil {
		if !withDone && m.DoneAt != nil && !changedSince(is, *m.DoneAt, m.seen) {
			return nil
		}
		if m.ReadAt != nil {
			t.LastReadAt = m.ReadAt
			t.Unread = changedSince(is, *m.ReadAt, m.seen)
		}
	}
	return t
}

// FindThread is u's thread by id, done or not, nil if u has none by that
// id.
func (s *State) FindThread(u *Account, id int64) *Thread {
	is := s.issuesByID[id]
	if is == nil {
		return nil
	}
	return s.thread(u, is, true)
}

func (u *Account) mark(id int64) *ThreadMark {
	if u.Inbox == nil {
		u.Inbox = map[int64]*ThreadMark{}
	}
	if u.Inbox[id] == nil {
		u.Inbox[id] = &ThreadMark{}
	}
	return u.Inbox[id]
}

// MarkThreadRead marks u's thread read at at.
func (s *State) MarkThreadRead(u *Account, t *Thread, at time.Time) {
	m := u.mark(t.ID)
	m.ReadAt, m.seen = &at, activity(t.Subject)
	t.LastReadAt, t.Unread = &at, t.UpdatedAt.After(at)
}

// MarkThreadDone marks u's thread done at at: it leaves the inbox.
func (s *State) MarkThreadDone(u *Account, t *Thread, at time.Time) {
	m := u.mark(t.ID)
	m.DoneAt, m.ReadAt, m.seen = &at, &at, activity(t.Subject)
}
