package pullrequests_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// start runs ghgate with the default and pull_requests toolsets against
// the demo seed with a small fleet organization (its pull requests carry
// an automated reviewer's threads), as token.
func start(t *testing.T, token string) *servertest.Env {
	t.Helper()
	return servertest.Start(t, servertest.Options{Token: token, Toolsets: []string{"issues", "pull_requests"},
		Emulator: emulator.Options{FleetRepos: 4}})
}

// refused makes a call that must fail and checks the envelope's parts an
// agent relies on: a message, a request id and a settlement.
func refused(t *testing.T, env *servertest.Env, tool string, args any) contract.Error {
	t.Helper()
	res := env.Call(t, tool, args)
	e := res.Envelope(t)
	if !strings.HasPrefix(e.RequestID, "ghg_") {
		t.Errorf("request_id = %q, want one starting ghg_ (%s)", e.RequestID, res.JSON)
	}
	if e.Message == "" {
		t.Errorf("message = \"\", want one (%s)", res.JSON)
	}
	if e.Settlement == "" {
		t.Errorf("settlement = \"\", want one (%s)", res.JSON)
	}
	return e
}

// where is a pull request with a review thread.
type where struct {
	Owner, Repo string
	Pull        int
	ThreadID    string
	CommentID   int64
	Resolved    bool
	Author      string
	PullAuthor  string
	Comments    int
}

// findThread returns the first thread in the emulator's state that pick
// accepts.
func findThread(t *testing.T, env *servertest.Env, pick func(w where) bool) where {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	for _, owner := range []string{emulator.FleetOrg, emulator.DemoOrg} {
		for _, r := range s.Repos() {
			if !strings.EqualFold(r.Owner.Login, owner) {
				continue
			}
			for _, is := range r.Issues {
				if is.Pull == nil {
					continue
				}
				for _, th := range is.Pull.Threads {
					w := where{Owner: r.Owner.Login, Repo: r.Name, Pull: is.Number, ThreadID: th.NodeID,
						CommentID: th.Comments[0].ID, Resolved: th.Resolved, Author: th.Comments[0].User.Login,
						PullAuthor: is.User.Login, Comments: len(th.Comments)}
					if pick(w) {
						return w
					}
				}
			}
		}
	}
	t.Fatal("no such review thread in the seed")
	return where{}
}

// args builds github_update_review_thread's arguments for w.
func (w where) args(action string, extra map[string]any) map[string]any {
	a := map[string]any{"owner": w.Owner, "repo": w.Repo, "pull": w.Pull, "thread_id": w.ThreadID, "action": action}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// repairJSON is a repair's arguments as an agent passes them back.
func repairJSON(t *testing.T, e contract.Error) map[string]any {
	t.Helper()
	if e.Repair == nil {
		t.Fatalf("repair = nil, want a literal call (%+v)", e)
	}
	if e.Repair.Arguments == nil {
		t.Fatalf("repair.arguments = nil, want literal arguments (repair %+v)", *e.Repair)
	}
	b, _ := json.Marshal(e.Repair.Arguments)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

const tool = toolkit.NameUpdateReviewThread

// threadState reads a thread's resolved flag and comment count from the
// emulator's state.
func threadState(t *testing.T, env *servertest.Env, w where) (resolved bool, comments int) {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	for _, r := range s.Repos() {
		for _, is := range r.Issues {
			if is.Pull == nil {
				continue
			}
			for _, th := range is.Pull.Threads {
				if th.NodeID == w.ThreadID {
					return th.Resolved, len(th.Comments)
				}
			}
		}
	}
	t.Fatalf("thread %s is gone", w.ThreadID)
	return false, 0
}
