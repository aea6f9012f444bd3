package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

type threadReply struct {
	ID         string
	Reason     string
	Unread     bool
	LastReadAt *string `json:"last_read_at"`
	Subject    struct {
		Title, URL, Type string
	}
	Repository struct {
		FullName string `json:"full_name"`
	}
}

// TestRESTNotifications reads alice's and carol's notifications as GitHub's
// MCP server's notification tools do, and reads back marking a thread
// read, new activity making it unread again, dismissing it and marking all
// read.
func TestRESTNotifications(t *testing.T) {
	srv := serveDemo(t)
	alice, bob, carol := emulator.DemoTokenAlice, emulator.DemoTokenBob, emulator.DemoTokenCarol
	var threads []threadReply
	getJSON(t, srv+"/notifications?all=true&per_page=100", alice, &threads)
	if len(threads) < 2 {
		t.Fatalf("alice has %d notification threads, want at least 2", len(threads))
	}
	for _, th := range threads {
		if reasons := []string{"review_requested", "assign", "mention"}; !slices.Contains(reasons, th.Reason) {
			t.Errorf("thread %s: reason %q, want one of %q", th.ID, th.Reason, reasons)
		}
		if !th.Unread {
			t.Errorf("thread %s: unread = false, want true", th.ID)
		}
		if th.LastReadAt != nil {
			t.Errorf("thread %s: last_read_at %q, want null", th.ID, *th.LastReadAt)
		}
	}
	// An assignment thread is an issue assigned to alice.
	i := slices.IndexFunc(threads, func(th threadReply) bool { return th.Reason == "assign" })
	if i < 0 {
		t.Fatal("alice has no thread of reason \"assign\", want one")
	}
	th := threads[i]
	var issue struct{ Assignees []struct{ Login string } }
	getJSON(t, strings.Replace(th.Subject.URL, "/pulls/", "/issues/", 1), alice, &issue)
	if !slices.ContainsFunc(issue.Assignees, func(a struct{ Login string }) bool { return a.Login == "alice" }) {
		t.Errorf("assignment thread %s: the subject's assignees are %+v, want alice among them", th.ID, issue.Assignees)
	}
	page := getJSON(t, srv+"/notifications?per_page=1", alice, &threads)
	if len(threads) != 1 {
		t.Errorf("notifications, per_page=1: %d threads, want 1", len(threads))
	}
	if link := page.header.Get("Link"); !nextLink.MatchString(link) {
		t.Errorf("notifications, page 1 of many: Link %q, want a rel=\"next\"", link)
	}

	url := srv + "/notifications/threads/" + th.ID
	var one threadReply
	getJSON(t, url, alice, &one)
	if one.ID != th.ID {
		t.Errorf("thread by id: id %q, want %q", one.ID, th.ID)
	}
	if one.Reason != th.Reason {
		t.Errorf("thread %s by id: reason %q, want the listed %q", th.ID, one.Reason, th.Reason)
	}
	if r := send(t, "PATCH", url, alice, nil); r.status != http.StatusResetContent {
		t.Fatalf("mark read: status %d, want %d: %s", r.status, http.StatusResetContent, r.body)
	}
	unread := func(tok string) []string {
		var ts []threadReply
		getJSON(t, srv+"/notifications?per_page=100", tok, &ts)
		var ids []string
		for _, x := range ts {
			ids = append(ids, x.ID)
		}
		return ids
	}
	if slices.Contains(unread(alice), th.ID) {
		t.Errorf("unread threads include %s, want it gone once read", th.ID)
	}
	getJSON(t, url, alice, &one)
	if one.Unread {
		t.Errorf("read thread %s: unread = true, want false", th.ID)
	}
	if one.LastReadAt == nil {
		t.Errorf("read thread %s: last_read_at null, want a time", th.ID)
	}
	// New activity on the subject makes the thread unread again.
	if r := send(t, "POST", strings.Replace(th.Subject.URL, "/pulls/", "/issues/", 1)+"/comments", bob, map[string]any{"body": "Any news?"}); r.status != http.StatusCreated {
		t.Fatalf("comment: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	if ids := unread(alice); !slices.Contains(ids, th.ID) {
		t.Errorf("unread threads after new activity = %v, want %s among them", ids, th.ID)
	}
	// Done: gone from the inbox, still readable by id.
	if r := send(t, "DELETE", url, alice, nil); r.status != http.StatusNoContent {
		t.Fatalf("mark done: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
	}
	getJSON(t, srv+"/notifications?all=true&per_page=100", alice, &threads)
	if slices.ContainsFunc(threads, func(x threadReply) bool { return x.ID == th.ID }) {
		t.Errorf("inbox (all=true) holds done thread %s, want it gone", th.ID)
	}
	if r := get(t, url, alice); r.status != http.StatusOK {
		t.Errorf("done thread by id: status %d, want %d", r.status, http.StatusOK)
	}

	// A mention makes a thread for the user mentioned, in that repository.
	r := send(t, "POST", srv+"/repos/acme/widgets/issues", bob, map[string]any{"title": "Gauge needle sticks", "body": "@carol can you reproduce?"})
	if r.status != http.StatusCreated {
		t.Fatalf("create issue: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	getJSON(t, srv+"/repos/acme/widgets/notifications", carol, &threads)
	if i := slices.IndexFunc(threads, func(x threadReply) bool { return x.Subject.Title == "Gauge needle sticks" }); i < 0 {
		t.Errorf("carol's widgets notifications: no thread titled %q: %+v", "Gauge needle sticks", threads)
	} else {
		if threads[i].Reason != "mention" {
			t.Errorf("carol's thread on the mention: reason %q, want %q", threads[i].Reason, "mention")
		}
		if got := threads[i].Repository.FullName; got != "acme/widgets" {
			t.Errorf("carol's thread on the mention: repository %q, want %q", got, "acme/widgets")
		}
	}
	if r := send(t, "PUT", srv+"/notifications", carol, map[string]any{}); r.status != http.StatusResetContent {
		t.Fatalf("mark all read: status %d, want %d: %s", r.status, http.StatusResetContent, r.body)
	}
	if ids := unread(carol); len(ids) != 0 {
		t.Errorf("after marking all read, carol has unread threads %v, want none", ids)
	}

	// Refusals: a thread that is not the user's, a malformed id.
	checkReply(t, "another user's thread", get(t, url, carol), http.StatusNotFound, `"message":"Not Found"`)
	if r := get(t, fmt.Sprintf("%s/notifications/threads/abc", srv), alice); r.status != http.StatusNotFound {
		t.Errorf("malformed thread id: status %d, want %d", r.status, http.StatusNotFound)
	}
}

// TestRESTNotificationSubscriptions ignores and watches threads and
// repositories, as GitHub's MCP server's subscription tools do, and reads
// the effect in the notification lists.
func TestRESTNotificationSubscriptions(t *testing.T) {
	srv := serveDemo(t)
	alice, bob := emulator.DemoTokenAlice, emulator.DemoTokenBob
	listed := func(tok, path, title string) bool {
		var ts []threadReply
		getJSON(t, srv+path, tok, &ts)
		return slices.ContainsFunc(ts, func(x threadReply) bool { return x.Subject.Title == title })
	}
	var threads []threadReply
	getJSON(t, srv+"/notifications?per_page=1", alice, &threads)
	th := threads[0]
	sub := srv + "/notifications/threads/" + th.ID + "/subscription"
	var got struct {
		Subscribed, Ignored bool
		CreatedAt           *string `json:"created_at"`
		ThreadURL           string  `json:"thread_url"`
	}
	getJSON(t, sub, alice, &got)
	if !got.Subscribed {
		t.Errorf("a participant's subscription: subscribed = false, want true")
	}
	if got.Ignored {
		t.Errorf("a participant's subscription: ignored = true, want false")
	}
	if got.CreatedAt != nil {
		t.Errorf("a participant's subscription: created_at %q, want null", *got.CreatedAt)
	}
	if want := "/notifications/threads/" + th.ID; !strings.HasSuffix(got.ThreadURL, want) {
		t.Errorf("a participant's subscription: thread_url %q, want one ending %s", got.ThreadURL, want)
	}
	// Ignored: the thread leaves the lists, and can be watched again.
	if r := send(t, "PUT", sub, alice, map[string]any{"ignored": true}); r.status != http.StatusOK {
		t.Fatalf("ignore: status %d, want %d: %s", r.status, http.StatusOK, r.body)
	}
	if listed(alice, "/notifications?all=true&per_page=100", th.Subject.Title) {
		t.Errorf("ignored thread %q is listed, want it hidden", th.Subject.Title)
	}
	getJSON(t, sub, alice, &got)
	if got.Subscribed {
		t.Errorf("ignored subscription: subscribed = true, want false")
	}
	if !got.Ignored {
		t.Errorf("ignored subscription: ignored = false, want true")
	}
	if got.CreatedAt == nil {
		t.Errorf("ignored subscription: created_at null, want a time")
	}
	send(t, "PUT", sub, alice, map[string]any{"ignored": false})
	if !listed(alice, "/notifications?all=true&per_page=100", th.Subject.Title) {
		t.Errorf("thread %q watched again is not listed, want it listed", th.Subject.Title)
	}
	// Deleting the subscription mutes the thread until there is news.
	if r := send(t, "DELETE", sub, alice, nil); r.status != http.StatusNoContent {
		t.Fatalf("mute: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
	}
	if listed(alice, "/notifications?all=true&per_page=100", th.Subject.Title) {
		t.Errorf("muted thread %q is listed, want it hidden", th.Subject.Title)
	}

	// Watching a repository: what changes in it afterwards notifies.
	repoSub := srv + "/repos/acme/widgets/subscription"
	if r := get(t, repoSub, bob); r.status != http.StatusNotFound {
		t.Errorf("subscription before watching: status %d, want %d", r.status, http.StatusNotFound)
	}
	r := send(t, "PUT", repoSub, bob, map[string]any{"subscribed": true})
	if r.status != http.StatusOK {
		t.Fatalf("watch: status %d, want %d: %s", r.status, http.StatusOK, r.body)
	}
	if !strings.Contains(string(r.body), `"subscribed":true`) {
		t.Fatalf("watch: body %s, want \"subscribed\":true", r.body)
	}
	if r := send(t, "POST", srv+"/repos/acme/widgets/issues", alice, map[string]any{"title": "Legend overlaps the axis"}); r.status != http.StatusCreated {
		t.Fatalf("create issue: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	var ts []threadReply
	getJSON(t, srv+"/repos/acme/widgets/notifications?per_page=100", bob, &ts)
	if i := slices.IndexFunc(ts, func(x threadReply) bool { return x.Subject.Title == "Legend overlaps the axis" }); i < 0 {
		t.Errorf("a new issue in a watched repository: no thread for it: %+v", ts)
	} else if ts[i].Reason != "subscribed" {
		t.Errorf("a new issue in a watched repository: reason %q, want %q", ts[i].Reason, "subscribed")
	}
	// Ignoring the repository silences even bob's own assignments.
	send(t, "PUT", repoSub, bob, map[string]any{"ignored": true})
	if getJSON(t, srv+"/repos/acme/widgets/notifications?all=true", bob, &ts); len(ts) != 0 {
		t.Errorf("an ignored repository notifies: %d threads, want none", len(ts))
	}
	if r := send(t, "DELETE", repoSub, bob, nil); r.status != http.StatusNoContent {
		t.Fatalf("unwatch: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
	}
	if r := get(t, repoSub, bob); r.status != http.StatusNotFound {
		t.Errorf("subscription after unwatching: status %d, want %d", r.status, http.StatusNotFound)
	}
	if r := get(t, srv+"/notifications/threads/1/subscription", alice); r.status != http.StatusNotFound {
		t.Errorf("subscription of a thread alice does not have: status %d, want %d", r.status, http.StatusNotFound)
	}
}
