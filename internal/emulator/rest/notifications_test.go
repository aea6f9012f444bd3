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
		t.Fatalf("alice has %d notification threads", len(threads))
	}
	for _, th := range threads {
		if !slices.Contains([]string{"review_requested", "assign", "mention"}, th.Reason) || !th.Unread || th.LastReadAt != nil {
			t.Errorf("thread %+v", th)
		}
	}
	// An assignment thread is an issue assigned to alice.
	i := slices.IndexFunc(threads, func(th threadReply) bool { return th.Reason == "assign" })
	if i < 0 {
		t.Fatal("alice has no assignment thread")
	}
	th := threads[i]
	var issue struct{ Assignees []struct{ Login string } }
	getJSON(t, strings.Replace(th.Subject.URL, "/pulls/", "/issues/", 1), alice, &issue)
	if !slices.ContainsFunc(issue.Assignees, func(a struct{ Login string }) bool { return a.Login == "alice" }) {
		t.Errorf("assignment thread %s: the subject's assignees are %+v", th.ID, issue.Assignees)
	}
	page := getJSON(t, srv+"/notifications?per_page=1", alice, &threads)
	if len(threads) != 1 || !nextLink.Match([]byte(page.header.Get("Link"))) {
		t.Errorf("notifications, page 1 of many: %d, Link %q", len(threads), page.header.Get("Link"))
	}

	url := srv + "/notifications/threads/" + th.ID
	var one threadReply
	getJSON(t, url, alice, &one)
	if one.ID != th.ID || one.Reason != th.Reason {
		t.Errorf("thread by id: %+v, listed %+v", one, th)
	}
	if r := send(t, "PATCH", url, alice, nil); r.status != http.StatusResetContent {
		t.Fatalf("mark read: %d %s", r.status, r.body)
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
		t.Error("a read thread is still listed as unread")
	}
	getJSON(t, url, alice, &one)
	if one.Unread || one.LastReadAt == nil {
		t.Errorf("read thread: %+v", one)
	}
	// New activity on the subject makes the thread unread again.
	if r := send(t, "POST", strings.Replace(th.Subject.URL, "/pulls/", "/issues/", 1)+"/comments", bob, map[string]any{"body": "Any news?"}); r.status != http.StatusCreated {
		t.Fatalf("comment: %d %s", r.status, r.body)
	}
	if !slices.Contains(unread(alice), th.ID) {
		t.Error("new activity did not make the thread unread")
	}
	// Done: gone from the inbox, still readable by id.
	if r := send(t, "DELETE", url, alice, nil); r.status != http.StatusNoContent {
		t.Fatalf("mark done: %d %s", r.status, r.body)
	}
	getJSON(t, srv+"/notifications?all=true&per_page=100", alice, &threads)
	if slices.ContainsFunc(threads, func(x threadReply) bool { return x.ID == th.ID }) {
		t.Error("a done thread is still in the inbox")
	}
	if r := get(t, url, alice); r.status != http.StatusOK {
		t.Errorf("done thread by id: %d", r.status)
	}

	// A mention makes a thread for the user mentioned, in that repository.
	r := send(t, "POST", srv+"/repos/acme/widgets/issues", bob, map[string]any{"title": "Gauge needle sticks", "body": "@carol can you reproduce?"})
	if r.status != http.StatusCreated {
		t.Fatalf("create issue: %d %s", r.status, r.body)
	}
	getJSON(t, srv+"/repos/acme/widgets/notifications", carol, &threads)
	if i := slices.IndexFunc(threads, func(x threadReply) bool { return x.Subject.Title == "Gauge needle sticks" }); i < 0 || threads[i].Reason != "mention" || threads[i].Repository.FullName != "acme/widgets" {
		t.Errorf("carol's widgets notifications: %+v", threads)
	}
	if r := send(t, "PUT", srv+"/notifications", carol, map[string]any{}); r.status != http.StatusResetContent {
		t.Fatalf("mark all read: %d %s", r.status, r.body)
	}
	if ids := unread(carol); len(ids) != 0 {
		t.Errorf("after marking all read, carol has unread threads %v", ids)
	}

	// Refusals: a thread that is not the user's, a malformed id.
	if r := get(t, url, carol); r.status != http.StatusNotFound || !strings.Contains(string(r.body), `"message":"Not Found"`) {
		t.Errorf("another user's thread: %d %s", r.status, r.body)
	}
	if r := get(t, fmt.Sprintf("%s/notifications/threads/abc", srv), alice); r.status != http.StatusNotFound {
		t.Errorf("malformed thread id: %d", r.status)
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
	if !got.Subscribed || got.Ignored || got.CreatedAt != nil || !strings.HasSuffix(got.ThreadURL, "/notifications/threads/"+th.ID) {
		t.Errorf("a participant's subscription: %+v", got)
	}
	// Ignored: the thread leaves the lists, and can be watched again.
	if r := send(t, "PUT", sub, alice, map[string]any{"ignored": true}); r.status != http.StatusOK {
		t.Fatalf("ignore: %d %s", r.status, r.body)
	}
	if listed(alice, "/notifications?all=true&per_page=100", th.Subject.Title) {
		t.Error("an ignored thread is listed")
	}
	getJSON(t, sub, alice, &got)
	if got.Subscribed || !got.Ignored || got.CreatedAt == nil {
		t.Errorf("ignored subscription: %+v", got)
	}
	send(t, "PUT", sub, alice, map[string]any{"ignored": false})
	if !listed(alice, "/notifications?all=true&per_page=100", th.Subject.Title) {
		t.Error("a thread watched again is not listed")
	}
	// Deleting the subscription mutes the thread until there is news.
	if r := send(t, "DELETE", sub, alice, nil); r.status != http.StatusNoContent {
		t.Fatalf("mute: %d %s", r.status, r.body)
	}
	if listed(alice, "/notifications?all=true&per_page=100", th.Subject.Title) {
		t.Error("a muted thread is listed")
	}

	// Watching a repository: what changes in it afterwards notifies.
	repoSub := srv + "/repos/acme/widgets/subscription"
	if r := get(t, repoSub, bob); r.status != http.StatusNotFound {
		t.Errorf("subscription before watching: %d", r.status)
	}
	if r := send(t, "PUT", repoSub, bob, map[string]any{"subscribed": true}); r.status != http.StatusOK || !strings.Contains(string(r.body), `"subscribed":true`) {
		t.Fatalf("watch: %d %s", r.status, r.body)
	}
	if r := send(t, "POST", srv+"/repos/acme/widgets/issues", alice, map[string]any{"title": "Legend overlaps the axis"}); r.status != http.StatusCreated {
		t.Fatalf("create issue: %d %s", r.status, r.body)
	}
	var ts []threadReply
	getJSON(t, srv+"/repos/acme/widgets/notifications?per_page=100", bob, &ts)
	if i := slices.IndexFunc(ts, func(x threadReply) bool { return x.Subject.Title == "Legend overlaps the axis" }); i < 0 || ts[i].Reason != "subscribed" {
		t.Errorf("a new issue in a watched repository: %+v", ts)
	}
	// Ignoring the repository silences even bob's own assignments.
	send(t, "PUT", repoSub, bob, map[string]any{"ignored": true})
	if getJSON(t, srv+"/repos/acme/widgets/notifications?all=true", bob, &ts); len(ts) != 0 {
		t.Errorf("an ignored repository notifies: %d threads", len(ts))
	}
	if r := send(t, "DELETE", repoSub, bob, nil); r.status != http.StatusNoContent {
		t.Fatalf("unwatch: %d %s", r.status, r.body)
	}
	if r := get(t, repoSub, bob); r.status != http.StatusNotFound {
		t.Errorf("subscription after unwatching: %d", r.status)
	}
	if r := get(t, srv+"/notifications/threads/1/subscription", alice); r.status != http.StatusNotFound {
		t.Errorf("subscription of a thread alice does not have: %d", r.status)
	}
}
